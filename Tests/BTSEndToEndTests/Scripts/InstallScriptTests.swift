import Foundation
import TestSupport
import Testing

/// `scripts/install --from DIR PREFIX` and `scripts/uninstall PREFIX` with the built binary: bts on
/// PATH, its completions, a man page generated from the help texts that `man` finds from the PATH,
/// `--version` naming the commit, and nothing left after uninstalling.
@Suite("install script", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct InstallScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func sh(_ command: String, environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command + " 2>&1"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.currentDirectoryURL = root
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func installsOnPathWithCompletionsAndManPageThenUninstalls() throws {
        let binary = URL(fileURLWithPath: try #require(BTSBinary.path))
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("bts-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let installed = try Self.sh(
            "scripts/install --from '\(binary.deletingLastPathComponent().path)' '\(prefix.path)'"
        )
        #expect(installed.status == 0, "\(installed.output)")
        for file in [
            "bin/bts", "lib/bts/bts", "lib/bts/bts_BooksTrackCatalog.resources", "share/man/man1/bts.1",
            "share/bash-completion/completions/bts", "share/zsh/site-functions/_bts",
            "share/fish/vendor_completions.d/bts.fish",
        ] {
            #expect(FileManager.default.fileExists(atPath: prefix.appendingPathComponent(file).path), "\(file)")
        }
        // Installed stripped: no DWARF, no symbol table.
        let sections = try Self.sh("readelf -S '\(prefix.appendingPathComponent("lib/bts/bts").path)'")
        #expect(sections.status == 0 && sections.output.contains(".text"), "\(sections.output.prefix(400))")
        #expect(!sections.output.contains(".debug_info") && !sections.output.contains(".symtab"))
        #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("lib/bts/bts.debug").path))
        let path = ["PATH": prefix.appendingPathComponent("bin").path + ":/usr/bin:/bin", "MANPATH": ""]
        let version = try Self.sh("bts --version", environment: path)
        #expect(version.output.hasPrefix("0.1.0 (commit "), "\(version.output)")
        let man = try Self.sh("man -w bts", environment: path)
        #expect(
            man.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == prefix.appendingPathComponent("share/man/man1/bts.1").path,
            "\(man.output)"
        )
        // Generated from the specs: every command has its section, with its help text.
        let page = try String(contentsOf: prefix.appendingPathComponent("share/man/man1/bts.1"), encoding: .utf8)
        for command in ["search", "similar", "import", "watch", "connect", "exit"] {
            #expect(page.contains(".SS \(command)\n"))
        }
        #expect(page.contains("similar 9780439023481"))
        #expect(page.contains("--enable-fault-injection"))
        let removed = try Self.sh("scripts/uninstall '\(prefix.path)'")
        #expect(removed.status == 0, "\(removed.output)")
        let left = try Self.sh("find '\(prefix.path)' -type f -o -type l")
        #expect(left.output.isEmpty, "left behind: \(left.output)")
    }

    /// `--debug-symbols` keeps the DWARF beside the stripped binary, linked from it by .gnu_debuglink;
    /// `BTS_BINARY` names the binary to install; uninstalling removes both.
    @Test func keepsDebugSymbolsOnRequest() throws {
        let binary = try #require(BTSBinary.path)
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("bts-prefix-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: prefix) }
        let installed = try Self.sh(
            "scripts/install --debug-symbols '\(prefix.path)'",
            environment: ["BTS_BINARY": binary]
        )
        #expect(installed.status == 0, "\(installed.output)")
        let lib = prefix.appendingPathComponent("lib/bts")
        let stripped = try Self.sh("readelf -S '\(lib.appendingPathComponent("bts").path)'")
        #expect(
            !stripped.output.contains(".debug_info") && stripped.output.contains(".gnu_debuglink"),
            "\(stripped.output.prefix(400))"
        )
        let link = try Self.sh("readelf --string-dump=.gnu_debuglink '\(lib.appendingPathComponent("bts").path)'")
        #expect(link.output.contains("bts.debug"), "\(link.output)")
        let symbols = try Self.sh("readelf -S '\(lib.appendingPathComponent("bts.debug").path)'")
        #expect(symbols.output.contains(".debug_info"), "\(symbols.output.prefix(400))")
        let version = try Self.sh("'\(prefix.appendingPathComponent("bin/bts").path)' --version")
        #expect(version.status == 0 && version.output.hasPrefix("0.1.0 ("), "\(version.output)")
        let removed = try Self.sh("scripts/uninstall '\(prefix.path)'")
        #expect(removed.status == 0, "\(removed.output)")
        let left = try Self.sh("find '\(prefix.path)' -type f -o -type l")
        #expect(left.output.isEmpty, "left behind: \(left.output)")
    }
}
