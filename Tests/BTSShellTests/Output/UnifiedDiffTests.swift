import BTSShell
import BooksTrackSupport
import Foundation
import Testing

/// `bts fmt --diff`'s diffs: the same text as GNU `diff -u` where the alignment is not in doubt, and,
/// for seeded random edits (also past the bound on the edit script), a patch that `patch -p1` applies
/// to give the new text exactly.
@Suite("UnifiedDiff: diff -u's format")
struct UnifiedDiffTests {
    static let diffTool = URL(fileURLWithPath: "/usr/bin/diff")
    static let patchTool = URL(fileURLWithPath: "/usr/bin/patch")

    /// `diff -u` of the two texts, with our headers.
    static func gnuDiff(_ old: String, _ new: String) async throws -> String {
        let directory = try makeTempDirectory("unified-diff")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(old.utf8).write(to: directory.appendingPathComponent("old"))
        try Data(new.utf8).write(to: directory.appendingPathComponent("new"))
        let outcome = try await ChildProcess.run(
            diffTool,
            ["-u", "--label", "a/x.bts", "--label", "b/x.bts", "old", "new"],
            environment: ProcessInfo.processInfo.environment,
            directory: directory,
            timeout: .seconds(60)
        )
        #expect(outcome.status <= 1, "\(outcome)")
        return outcome.stdout
    }

    /// The text `patch -p1` makes of `old` with `diff`.
    static func patched(_ old: String, _ diff: String) async throws -> String {
        let directory = try makeTempDirectory("unified-patch")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(old.utf8).write(to: directory.appendingPathComponent("x.bts"))
        let outcome = try await ChildProcess.run(
            patchTool,
            ["-p1", "--quiet", "--no-backup-if-mismatch"],
            environment: ProcessInfo.processInfo.environment,
            directory: directory,
            stdin: diff,
            timeout: .seconds(60)
        )
        #expect(outcome.status == 0, "\(outcome)\n\(diff)")
        return String(decoding: try Data(contentsOf: directory.appendingPathComponent("x.bts")), as: UTF8.self)
    }

    static func numbered(_ range: ClosedRange<Int>, _ word: String = "line") -> String {
        range.map { "echo \(word)\($0)\n" }.joined()
    }

    @Test func theSameTextAsDiffU() async throws {
        let cases: [(String, String)] = [
            // Two changes 6 lines apart: one hunk; 7 apart: two.
            (
                Self.numbered(1...20),
                Self.numbered(1...20).replacingOccurrences(of: "line5\n", with: "five\n")
                    .replacingOccurrences(of: "line12\n", with: "twelve\n")
            ),
            (
                Self.numbered(1...20),
                Self.numbered(1...20).replacingOccurrences(of: "line5\n", with: "five\n")
                    .replacingOccurrences(of: "line13\n", with: "thirteen\n")
            ),
            // At the start and at the end; a last line without a newline, on either side.
            (Self.numbered(1...9), "first\n" + Self.numbered(2...9) + "last\n"),
            (Self.numbered(1...5) + "end", Self.numbered(1...5) + "end\n"),
            ("if 1\necho x\nend", "if 1\n  echo x\nend\n"),
            // Lines only added, only removed; from nothing, to nothing.
            (Self.numbered(1...8), Self.numbered(1...4) + "new\nnewer\n" + Self.numbered(5...8)),
            (Self.numbered(1...8), Self.numbered(1...3) + Self.numbered(6...8)),
            ("", "echo x\n"),
            ("echo x\n", ""),
            // Canonically equivalent lines are still different bytes.
            ("echo caf\u{E9}\n", "echo cafe\u{301}\n"),
        ]
        for (old, new) in cases {
            let ours = UnifiedDiff.make(old: old, new: new, oldName: "a/x.bts", newName: "b/x.bts")
            #expect(ours == (try await Self.gnuDiff(old, new)), "\(old.debugDescription) → \(new.debugDescription)")
        }
        #expect(UnifiedDiff.make(old: "same\n", new: "same\n", oldName: "a", newName: "b") == "")
    }

    @Test func seededRandomEditsPatchBackExactly() async throws {
        var random = SplitMix64(seed: 0xB75)
        for round in 0..<24 {
            let count = Int(random.next() % 60)
            let old = (0..<count).map { _ in "echo w\(random.next() % 8)\n" }
            var new = old
            for _ in 0..<Int(random.next() % 12) {
                let position = new.isEmpty ? 0 : Int(random.next() % UInt64(new.count))
                switch random.next() % 3 {
                case 0: new.insert("  echo n\(random.next() % 8)\n", at: position)
                case 1: if !new.isEmpty { new.remove(at: position) }
                default: if !new.isEmpty { new[position] = "  " + new[position] }
                }
            }
            var oldText = old.joined()
            var newText = new.joined()
            if round % 4 == 1, oldText.hasSuffix("\n") { oldText.removeLast() }
            if round % 4 == 2, newText.hasSuffix("\n") { newText.removeLast() }
            // Round 3 and each fourth after it: past the bound on the edit script (the middle replaced whole).
            let bound = round % 4 == 3 ? 2 : UnifiedDiff.maxEdits
            let diff = UnifiedDiff.make(
                old: oldText,
                new: newText,
                oldName: "a/x.bts",
                newName: "b/x.bts",
                maxEdits: bound
            )
            guard oldText != newText else {
                #expect(diff.isEmpty)
                continue
            }
            #expect(try await Self.patched(oldText, diff) == newText, "round \(round):\n\(diff)")
        }
    }
}
