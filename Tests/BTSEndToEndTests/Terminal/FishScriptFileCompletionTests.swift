import Foundation
import Testing

/// `bts FILE` in fish offers what zsh and bash offer: `.bts` files and directories, no other file
/// (fish's own `__fish_complete_suffix` lists every file after the matching ones). Asked of the
/// real fish with `complete -C` (the file candidates need no line editor), in the completion
/// sandbox's work directory: `tour.bts`, `notes.txt` and `lib/`.
@Suite("fish completion of bts FILE", .enabled(if: BTSBinary.isAvailable, Comment(rawValue: BTSBinary.skipReason)))
struct FishScriptFileCompletionTests {
    /// The candidates fish offers for `line` (descriptions dropped).
    static func candidates(_ sandbox: CompletionScripts.Sandbox, _ line: String) async throws -> [String] {
        let script = sandbox.scripts.appendingPathComponent("bts.fish").path
        let command =
            "source \(CompletionScripts.Sandbox.quote(script)); complete -C \(CompletionScripts.Sandbox.quote(line))"
        let answer = try await sandbox.run("fish", ["--no-config", "-c", command])
        return answer.split(separator: "\n").map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }
    }

    @Test(.enabled(if: CompletionScripts.has("fish")))
    func onlyScriptsAndDirectoriesWhereAScriptGoes() async throws {
        let sandbox = try await CompletionScripts.Sandbox()
        let lib = sandbox.work.appendingPathComponent("lib")
        try Data("echo inner\n".utf8).write(to: lib.appendingPathComponent("inner.bts"))
        try Data("x\n".utf8).write(to: lib.appendingPathComponent("inner.txt"))

        let top = try await Self.candidates(sandbox, "bts ")
        #expect(top.contains("tour.bts"), "\(top)")
        #expect(top.contains("lib/"), "\(top)")
        #expect(!top.contains("notes.txt"), "\(top)")
        #expect(top.contains("test"), "the subcommands are still offered: \(top)")

        let inside = try await Self.candidates(sandbox, "bts lib/")
        #expect(inside.contains("lib/inner.bts"), "\(inside)")
        #expect(!inside.contains("lib/inner.txt"), "\(inside)")

        let started = try await Self.candidates(sandbox, "bts no")
        #expect(!started.contains("notes.txt"), "\(started)")
    }
}
