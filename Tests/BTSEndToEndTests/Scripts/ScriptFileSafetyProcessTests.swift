import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The files `bts fmt`, `check`, `test` and a script run read and write, through the real binary:
/// bytes that are not UTF-8 refused and the file left byte for byte, a link's target formatted with
/// its mode (the link kept), read-only files refused, FIFOs refused at once (and passed over in a
/// walk), a byte-order mark skipped, a report's failure named; `fmt --diff` applied by `patch`;
/// `check --format json|github`.
@Suite(
    "bts fmt, check and test: odd files",
    .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason))
)
struct ScriptFileSafetyProcessTests {
    typealias Workspace = ScriptTestProcessTests.Workspace

    /// bts with `arguments` in the workspace, under a safety deadline (a hang on a FIFO is ended
    /// by it and fails the test, through the status).
    static func bts(_ workspace: Workspace, _ arguments: [String], stdin: String? = nil) async throws -> ProcessOutcome
    {
        guard let binary = BTSExecutable.url else { throw BinaryTests.SkipError() }
        _ = try SharedCatalog.get()
        return try await ChildProcess.run(
            binary,
            arguments,
            environment: workspace.environment,
            directory: workspace.directory,
            stdin: stdin,
            timeout: .seconds(60)
        )
    }

    static func bytes(_ workspace: Workspace, _ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: workspace.directory.appendingPathComponent(path)))
    }

    static func writeBytes(_ workspace: Workspace, _ path: String, _ bytes: [UInt8]) throws {
        try Data(bytes).write(to: workspace.directory.appendingPathComponent(path))
    }

    static func mode(_ workspace: Workspace, _ path: String) -> mode_t {
        var status = stat()
        return lstat(workspace.directory.appendingPathComponent(path).path, &status) == 0 ? status.st_mode : 0
    }

    @Test func bytesThatAreNotUTF8AreRefusedAndTheFileIsLeftAsItWas() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let latin1 = Array("if 1\necho \"caf".utf8) + [0xE9] + Array("\"\nend\n".utf8)
        try Self.writeBytes(workspace, "a.bts", latin1)
        let sentence = "a.bts:2:10: not UTF-8 at byte 14 (0xE9); scripts are UTF-8 text"
        let format = try await Self.bts(workspace, ["fmt", "a.bts"])
        #expect(format.status == 2 && format.stderr.contains(sentence), "\(format)")
        #expect(try Self.bytes(workspace, "a.bts") == latin1, "byte for byte as it was")
        let check = try await Self.bts(workspace, ["check", "a.bts"])
        #expect(check.status == 2 && check.stderr.contains(sentence), "\(check)")
        let test = try await Self.bts(workspace, ["test", "a.bts"])
        #expect(test.status == 1 && test.stderr.contains("a.bts: Error (exit 2"), "\(test)")
        #expect(test.stderr.contains("not UTF-8 at byte 14 (0xE9)"), "\(test)")
        let run = try await Self.bts(workspace, ["a.bts"])
        #expect(run.status == 2 && run.stdout.isEmpty && run.stderr.contains("a.bts:2:10: not UTF-8"), "\(run)")
        #expect(try Self.bytes(workspace, "a.bts") == latin1)
    }

    @Test func aLinksTargetIsFormattedWithItsModeAndTheLinkStaysALink() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let target = try workspace.write("t.bts", "if 1\necho x\nend\n")
        #expect(chmod(target.path, 0o600) == 0)
        #expect(symlink("t.bts", workspace.directory.appendingPathComponent("l.bts").path) == 0)
        let format = try await Self.bts(workspace, ["fmt", "l.bts"])
        #expect(format.status == 0, "\(format)")
        #expect(try workspace.read("t.bts") == "if 1\n  echo x\nend\n")
        #expect(Self.mode(workspace, "t.bts") == S_IFREG | 0o600, "the target keeps 0600")
        #expect(Self.mode(workspace, "l.bts") & S_IFMT == S_IFLNK, "the link stays a link")

        // A directory with a link inside (to a file outside it): the target formatted, the link kept.
        let outside = try workspace.write("outside.bts", "while 1 < 0\necho never\nend\n")
        #expect(chmod(outside.path, 0o640) == 0)
        try workspace.write("dir/own.bts", "if 1\necho own\nend\n")
        #expect(symlink("../outside.bts", workspace.directory.appendingPathComponent("dir/in.bts").path) == 0)
        let directory = try await Self.bts(workspace, ["fmt", "dir"])
        #expect(directory.status == 0, "\(directory)")
        #expect(try workspace.read("outside.bts") == "while 1 < 0\n  echo never\nend\n")
        #expect(try workspace.read("dir/own.bts") == "if 1\n  echo own\nend\n")
        #expect(Self.mode(workspace, "outside.bts") == S_IFREG | 0o640)
        #expect(Self.mode(workspace, "dir/in.bts") & S_IFMT == S_IFLNK)
    }

    @Test func aReadOnlyScriptIsRefusedAndUntouched() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let file = try workspace.write("ro.bts", "if 1\necho x\nend\n")
        #expect(chmod(file.path, 0o444) == 0)
        let format = try await Self.bts(workspace, ["fmt", "ro.bts"])
        #expect(format.status == 2, "\(format)")
        #expect(format.stderr.contains("cannot write 'ro.bts': it is read-only (mode 0444)"), "\(format)")
        #expect(try workspace.read("ro.bts") == "if 1\necho x\nend\n")
        #expect(Self.mode(workspace, "ro.bts") == S_IFREG | 0o444)
    }

    @Test func aFIFOIsRefusedAtOnceAndPassedOverInADirectory() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("d/ok.bts", "echo ok\n")
        let fifo = workspace.directory.appendingPathComponent("d/pipe.bts").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // No process ever writes to it: a reader that waited would be ended by the deadline (143).
        for command in ["fmt", "check", "test"] {
            let outcome = try await Self.bts(workspace, [command, "d/pipe.bts"])
            #expect(outcome.status == 2, "\(command): \(outcome)")
            #expect(
                outcome.stderr.contains("cannot read 'd/pipe.bts': it is a FIFO, not a regular file"),
                "\(command): \(outcome)"
            )
        }
        let run = try await Self.bts(workspace, ["d/pipe.bts"])
        #expect(run.status == 2 && run.stderr.contains("it is a FIFO, not a regular file"), "\(run)")
        for command in [["fmt", "--check"], ["check"], ["test"]] {
            let outcome = try await Self.bts(workspace, command + ["d"])
            #expect(outcome.status == 0, "\(command): \(outcome)")
            #expect(
                !outcome.stderr.contains("pipe.bts") && !outcome.stdout.contains("pipe.bts"),
                "\(command): \(outcome)"
            )
        }
    }

    @Test func aByteOrderMarkIsSkippedAndKept() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        try Self.writeBytes(workspace, "bom.bts", mark + Array("echo first\nif 1\necho x\nend\n".utf8))
        let run = try await Self.bts(workspace, ["bom.bts"])
        #expect(run.status == 0 && run.stdout == "first\nx\n", "\(run)")
        let piped = try await Self.bts(workspace, [], stdin: "\u{FEFF}echo piped\n")
        #expect(piped.status == 0 && piped.stdout == "piped\n", "commands read from a pipe too: \(piped)")
        try Self.writeBytes(workspace, "bad.bts", mark + Array("serch dune\n".utf8))
        let check = try await Self.bts(workspace, ["check", "bad.bts"])
        #expect(
            check.status == 2 && check.stderr.contains("bad.bts:1:1: error: unknown command 'serch'"),
            "line 1's columns: \(check)"
        )
        let format = try await Self.bts(workspace, ["fmt", "bom.bts"])
        #expect(format.status == 0, "\(format)")
        #expect(try Self.bytes(workspace, "bom.bts") == mark + Array("echo first\nif 1\n  echo x\nend\n".utf8))
    }

    @Test func aReportThatCannotBeWrittenNamesTheCause() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("ok.bts", "echo ok\n")
        try FileManager.default.createDirectory(
            at: workspace.directory.appendingPathComponent("dir"),
            withIntermediateDirectories: true
        )
        try workspace.write("blocker", "a file where a directory would be\n")
        let causes = [
            ("dir", "it is a directory"),
            ("/dev/full", "no space left on the device"),
            ("blocker/r.json", "'blocker' is not a directory"),
            ("/proc/no-such-directory/r.json", "there is no directory '/proc/no-such-directory'"),
        ]
        for (path, cause) in causes {
            let outcome = try await Self.bts(workspace, ["test", "ok.bts", "--report-json", path])
            #expect(outcome.status == 1, "\(path): \(outcome)")
            #expect(outcome.stderr.contains("cannot write the report '\(path)': \(cause)"), "\(path): \(outcome)")
        }
        // A missing directory is made; a read-only report file is refused like a script.
        let made = try await Self.bts(workspace, ["test", "ok.bts", "--report-tap", "new/dir/r.tap"])
        #expect(made.status == 0, "\(made)")
        #expect(try workspace.read("new/dir/r.tap").hasPrefix("TAP version 13"))
        #expect(chmod(workspace.directory.appendingPathComponent("new/dir/r.tap").path, 0o444) == 0)
        let readOnly = try await Self.bts(workspace, ["test", "ok.bts", "--report-tap", "new/dir/r.tap"])
        #expect(readOnly.status == 1 && readOnly.stderr.contains("it is read-only (mode 0444)"), "\(readOnly)")
    }

    @Test func formatDiffIsAPatchThatPatchApplies() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let lines = (1...12).map { "echo line\($0)\n" }.joined()
        let messy = [
            "s/a.bts": "if 1\necho a\nend\n" + lines + "while 1 < 0\necho b\n  end",
            "s/sub/b.bts": "search title dune --limit 2 |   sort\n",
            "s/tidy.bts": "echo tidy\n",
        ]
        for (path, text) in messy { try workspace.write(path, text) }
        let diff = try await Self.bts(workspace, ["fmt", "--diff", "s"])
        #expect(diff.status == 1, "\(diff)")
        #expect(
            diff.stdout.hasPrefix("--- a/s/a.bts\n+++ b/s/a.bts\n@@ -1,5 +1,5 @@\n if 1\n-echo a\n+  echo a\n"),
            "\(diff)"
        )
        #expect(diff.stdout.contains("\\ No newline at end of file\n"), "\(diff)")
        #expect(!diff.stdout.contains("tidy.bts"), "\(diff)")
        for (path, text) in messy { #expect(try workspace.read(path) == text, "--diff changes nothing") }
        let patch = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/patch"),
            ["-p1"],
            environment: workspace.environment,
            directory: workspace.directory,
            stdin: diff.stdout,
            timeout: .seconds(60)
        )
        #expect(patch.status == 0, "\(patch)")
        let patched = messy.keys.map { (try? workspace.read($0)) ?? "" }
        let format = try await Self.bts(workspace, ["fmt", "--diff", "s"])
        #expect(format.status == 0 && format.stdout.isEmpty, "patched is formatted: \(format)")
        #expect(try await Self.bts(workspace, ["fmt", "s"]).status == 0)
        #expect(messy.keys.map { (try? workspace.read($0)) ?? "" } == patched, "the patch made what fmt makes")
        let stdin = try await Self.bts(workspace, ["fmt", "--diff", "-"], stdin: "if 1\necho x\nend\n")
        #expect(stdin.status == 1 && stdin.stdout.hasPrefix("--- <stdin>\n+++ <stdin>\n@@ -1,3 +1,3 @@\n"), "\(stdin)")
        let both = try await Self.bts(workspace, ["fmt", "--check", "--diff", "s"])
        #expect(both.status == 2, "\(both)")
    }

    @Test func checkFormatsJSONAndGitHub() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.write("c/clean.bts", "echo ok\n")
        try workspace.write("c/errors.bts", "serch dune\nsearch title dune --limt 3\n")
        try Self.writeBytes(workspace, "c/latin1.bts", Array("echo caf".utf8) + [0xE9, 0x0A])
        let json = try await Self.bts(workspace, ["check", "--format", "json", "c"])
        #expect(json.status == 2, "\(json)")
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]],
            "\(json)"
        )
        #expect(list.count == 3, "\(json)")
        #expect(
            list.allSatisfy { Set($0.keys) == ["file", "line", "column", "severity", "code", "rule", "message"] },
            "\(json)"
        )
        #expect(list.map { $0["file"] as? String } == ["c/errors.bts", "c/errors.bts", "c/latin1.bts"])
        #expect(list.map { $0["line"] as? Int } == [1, 2, 1] && list.map { $0["column"] as? Int } == [1, 19, 9])
        #expect(list.allSatisfy { $0["severity"] as? String == "error" && $0["code"] as? String == "USAGE" })
        #expect(list.map { $0["rule"] as? String } == ["unknown-command", "unknown-option", nil], "\(json)")
        #expect(list.last?["rule"] is NSNull, "a file that cannot be read has no rule: \(json)")
        #expect((list[0]["message"] as? String)?.hasPrefix("unknown command 'serch'") == true, "\(json)")
        #expect(json.stderr.isEmpty, "\(json)")
        let clean = try await Self.bts(workspace, ["check", "--format", "json", "c/clean.bts"])
        #expect(clean.status == 0 && clean.stdout == "[]\n", "\(clean)")

        let github = try await Self.bts(workspace, ["check", "--format", "github", "c"])
        #expect(github.status == 2, "\(github)")
        let lines = github.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(github)")
        let shape = /::error file=[^,:]+,line=\d+,col=\d+::.+/
        #expect(lines.allSatisfy { $0.wholeMatch(of: shape) != nil }, "\(github)")
        #expect(
            lines.first == "::error file=c/errors.bts,line=1,col=1::unknown command 'serch' (did you mean 'search'?)",
            "\(github)"
        )
        let text = try await Self.bts(workspace, ["check", "--format", "text", "c"])
        #expect(
            text.status == 2 && text.stdout.isEmpty && text.stderr.contains("c/errors.bts:1:1: error: unknown command"),
            "\(text)"
        )
    }
}
