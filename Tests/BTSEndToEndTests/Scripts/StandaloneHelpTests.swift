import Foundation
import Testing

/// The standalone commands' help lists only what they make use of, and says each default once.
@Suite("standalone commands' help")
struct StandaloneHelpTests {
    /// Each option's entry of `--help` output: its first line and the lines indented under it.
    static func entries(_ help: String) -> [String] {
        var entries: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("  -") || line.hasPrefix("  <") {
                entries.append(line.trimmingCharacters(in: .whitespaces))
            } else if line.hasPrefix("        "), !line.trimmingCharacters(in: .whitespaces).isEmpty, !entries.isEmpty {
                entries[entries.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            }
        }
        return entries
    }

    /// `bts test` runs each file in a session of its own that never reads the rc file: `--norc`
    /// is accepted there but not offered; `bts` itself lists it.
    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func testHelpDoesNotListNorc() async throws {
        let test = try await BinaryTests.run(["test", "--help"])
        #expect(test.status == 0, "\(test)")
        #expect(test.stdout.contains("--file-timeout"), "\(test.stdout)")
        #expect(!test.stdout.contains("--norc"), "\(test.stdout)")
        let shell = try await BinaryTests.run(["--help"])
        #expect(shell.stdout.contains("--norc"), "\(shell.stdout)")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func eachDefaultIsSaidOnce() async throws {
        for command in [[], ["test"], ["check"], ["fmt"], ["lsp"], ["serve"]] {
            let help = try await BinaryTests.run(command + ["--help"])
            #expect(help.status == 0, "\(command): \(help)")
            let entries = Self.entries(help.stdout)
            #expect(!entries.isEmpty || command == ["serve"], "\(command): \(help.stdout)")
            for entry in entries {
                #expect(entry.components(separatedBy: "default").count <= 2, "\(command): \(entry)")
            }
        }
    }
}
