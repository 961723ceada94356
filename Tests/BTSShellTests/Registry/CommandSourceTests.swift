import BTSShell
import Foundation
import Testing

/// Scans the shell's and the executable's sources for the patterns the command types replaced: a
/// command name compared as a string outside the command's own type (the registry special-cased
/// `set`, `help`, `expect` and `alias` by name; `search` and `cache` switched on subcommand
/// names), and a limit's default written again at the place it is read (`?? 20`).
@Suite(.onWorkThreads) struct CommandSourceTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every Swift file of every module, by path relative to Sources/.
    static func files() throws -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
        #expect(modules.contains("BTSShell") && modules.contains("BooksTrackClient") && modules.contains("bts"))
        for module in modules {
            let root = sources.appendingPathComponent(module)
            let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
            for case let url as URL in enumerator where url.pathExtension == "swift" {
                found.append(
                    (
                        "\(module)/" + url.path.dropFirst(root.path.count + 1),
                        try String(contentsOf: url, encoding: .utf8)
                    )
                )
            }
        }
        return found
    }

    /// Every command's and subcommand's name and alias that is a word (not `.` or `?`, which
    /// paths and patterns compare for their own reasons).
    static var names: Set<String> {
        func all(_ spec: CommandSpec) -> [String] { [spec.name] + spec.aliases + spec.subcommands.flatMap(all) }
        return Set(CommandRegistry.standard.commands.flatMap(all).filter { $0.contains(where: \.isLetter) })
    }

    /// Lines comparing a command-name expression to a literal, or switching on a command path.
    static var comparison: Regex<AnyRegexOutput> {
        try! Regex(
            #"(\.name|nameText|path\.first|path\.last|displayName|\.first)\s*(==|!=)\s*"([^"]*)"|command\(named:\s*"([^"]*)"|switch\s+[^{]*\.path(?![A-Za-z])"#
        )
    }

    @Test func noCommandNameIsComparedAsAString() throws {
        let names = Self.names
        let files = try Self.files()
        #expect(files.count > 50, "\(Self.sources.path)")
        var found: [String] = []
        for (path, text) in files {
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
                for match in line.matches(of: Self.comparison) {
                    let literal = (match.output[3].substring ?? match.output[4].substring).map(String.init)
                    if literal == nil || names.contains(literal ?? "") {
                        found.append("\(path):\(number + 1): \(line)")
                    }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The scan finds what it looks for.
    @Test func theScanSeesTheOldForms() throws {
        let old = [
            "if root.name == \"set\" {", "resolved.path.first == \"expect\",",
            "switch resolved.path.dropFirst().first {",
            "let helpSpec = self.command(named: \"help\")",
        ]
        for line in old { #expect(line.contains(Self.comparison), "\(line)") }
        #expect(!"if kind == \"author\"".contains(Self.comparison))
        #expect(!"switch (path as NSString).pathExtension.lowercased() {".contains(Self.comparison))
    }

    /// A limit's default lives in its declaration (`IntOption`) only: no `limit ?? 20` where it is read.
    @Test func noLimitDefaultIsWrittenTwice() throws {
        let again = try Regex(#"(limit|int\([^)]*\))\s*\?\?\s*\d"#)
        let found = try Self.files().flatMap { path, text in
            text.split(separator: "\n").filter { $0.contains(again) }.map { "\(path): \($0)" }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
        #expect("limit: limit ?? 20)".contains(again))
    }
}
