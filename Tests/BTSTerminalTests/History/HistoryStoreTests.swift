import BooksTrackSupport
import Foundation
import TestSupport
import Testing

@testable import BTSTerminal

/// A fresh temporary directory per test, removed on deinit.
final class HistoryTempDirectory {
    let url: URL

    init() throws {
        url = try makeTempDirectory("history")
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var historyFile: URL { url.appendingPathComponent("state/bts/history") }

    func contents() throws -> String { try String(contentsOf: historyFile, encoding: .utf8) }
}

@Suite("HistoryStore")
struct HistoryStoreTests {
    @Test("records immediately, drops adjacent duplicates, reloads in order")
    func recordAndReload() throws {
        let temp = try HistoryTempDirectory()
        let store = HistoryStore(fileURL: temp.historyFile)
        try store.load()
        #expect(store.record("search dune"))
        #expect(!store.record("search dune"))
        #expect(store.record("jobs"))
        #expect(store.record("search dune"))
        // Written at once: no flush, no close (survives SIGTERM/SIGHUP of the shell).
        #expect(try temp.contents() == "search dune\njobs\nsearch dune\n")
        let again = HistoryStore(fileURL: temp.historyFile)
        #expect(try again.load() == ["search dune", "jobs", "search dune"])
        #expect(again.entries == ["search dune", "jobs", "search dune"])
    }

    @Test("the bound keeps the newest entries and trims the file on load")
    func bound() throws {
        let temp = try HistoryTempDirectory()
        let writer = HistoryStore(fileURL: temp.historyFile, limit: 1000)
        for index in 0..<25 { writer.record("cmd \(index)") }
        #expect(writer.entries.count == 25)
        let small = HistoryStore(fileURL: temp.historyFile, limit: 10)
        let loaded = try small.load()
        #expect(loaded == (15..<25).map { "cmd \($0)" })
        #expect(try temp.contents().split(separator: "\n").count == 10)
        for index in 25..<40 { small.record("cmd \(index)") }
        #expect(small.entries == (30..<40).map { "cmd \($0)" })
    }

    @Test("multi-line entries and backslashes round-trip through the file")
    func escapingRoundTrip() throws {
        let temp = try HistoryTempDirectory()
        let entries = [
            "echo \"first\nsecond\"",
            "search title \\n literally \\\\ and \\",
            "set x \"a\r\nb\"",
            "café ☕ 日本語",
            "trailing backslash \\",
        ]
        let store = HistoryStore(fileURL: temp.historyFile)
        for entry in entries { #expect(store.record(entry)) }
        #expect(try temp.contents().split(separator: "\n").count == entries.count)
        #expect(try HistoryStore(fileURL: temp.historyFile).load() == entries)
    }

    @Test("escape/unescape round-trips random strings", arguments: [1, 2, 3])
    func escapingFuzz(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let alphabet: [Character] = ["a", "\\", "n", "r", "\n", "\r", "é", " ", "\"", "\r\n"]
        for _ in 0..<500 {
            let length = Int.random(in: 0..<20, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
            let escaped = HistoryFileFormat.escape(text)
            #expect(!escaped.contains("\n") && !escaped.contains("\r"))
            #expect(HistoryFileFormat.unescape(Substring(escaped)) == text)
        }
    }

    @Test("secret and leading-space lines are never written")
    func secretsNotWritten() throws {
        let temp = try HistoryTempDirectory()
        let store = HistoryStore(
            fileURL: temp.historyFile,
            filter: HistoryFilter(isSensitive: { $0.hasPrefix("login ") })
        )
        #expect(store.record("search dune"))
        #expect(!store.record("connect https://alice:s3cret@api.example.com"))
        #expect(!store.record("set header Authorization xyz"))
        #expect(!store.record(" search hidden"))
        #expect(!store.record("login alice hunter2"))
        #expect(!store.record("   "))
        #expect(try temp.contents() == "search dune\n")
        #expect(store.entries == ["search dune"])
    }

    @Test("creates directories 0700 and the file 0600, and tightens a loose file")
    func permissions() throws {
        let temp = try HistoryTempDirectory()
        let store = HistoryStore(fileURL: temp.historyFile)
        try store.load()
        let manager = FileManager.default
        func mode(_ url: URL) throws -> Int {
            let attributes = try manager.attributesOfItem(atPath: url.path)
            return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
        }
        #expect(try mode(temp.historyFile) == 0o600)
        #expect(try mode(temp.historyFile.deletingLastPathComponent()) == 0o700)
        #expect(try mode(temp.url.appendingPathComponent("state")) == 0o700)
        try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: temp.historyFile.path)
        store.record("jobs")
        #expect(try mode(temp.historyFile) == 0o600)
    }

    @Test("two stores writing concurrently lose nothing and never tear lines")
    func concurrentWriters() async throws {
        let temp = try HistoryTempDirectory()
        let file = temp.historyFile
        let first = HistoryStore(fileURL: temp.historyFile)
        let second = HistoryStore(fileURL: temp.historyFile)
        let perWriter = 200
        await withTaskGroup(of: Void.self) { group in
            for (name, store) in [("a", first), ("b", second)] {
                group.addTask {
                    for index in 0..<perWriter {
                        store.record("\(name) \(index) " + String(repeating: "x", count: 300))
                    }
                }
            }
            // A third session starting up (load + trim) in the middle of it.
            group.addTask {
                let third = HistoryStore(fileURL: file, limit: 100_000)
                _ = try? third.load()
            }
        }
        let lines = try temp.contents().split(separator: "\n")
        #expect(lines.count == 2 * perWriter)
        #expect(lines.allSatisfy { $0.hasSuffix(String(repeating: "x", count: 300)) })
        for name in ["a", "b"] {
            let numbers = lines.filter { $0.hasPrefix("\(name) ") }.compactMap { Int($0.split(separator: " ")[1]) }
            #expect(numbers == Array(0..<perWriter))
        }
    }

    @Test("appends landing during a trim are kept")
    func trimDuringAppends() async throws {
        let temp = try HistoryTempDirectory()
        let file = temp.historyFile
        let seed = HistoryStore(fileURL: temp.historyFile, limit: 10_000)
        for index in 0..<500 { seed.record("old \(index)") }
        let writer = HistoryStore(fileURL: temp.historyFile)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for index in 0..<200 { writer.record("new \(index)") } }
            group.addTask {
                for _ in 0..<5 { _ = try? HistoryStore(fileURL: file, limit: 100).load() }
            }
        }
        let lines = try temp.contents().split(separator: "\n")
        // Every "new" line written after the last trim survives; none is torn.
        let newNumbers = lines.filter { $0.hasPrefix("new ") }.compactMap { Int($0.dropFirst(4)) }
        // (no gap: a line appended to a file a trim replaced would be missing).
        let firstKept = newNumbers.first ?? 0
        #expect(newNumbers == Array(firstKept...199))
        #expect(lines.allSatisfy { $0.hasPrefix("new ") || $0.hasPrefix("old ") })
    }

    @Test("an unwritable location is reported as data, recording continues in memory")
    func unwritable() throws {
        let temp = try HistoryTempDirectory()
        let blocker = temp.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let store = HistoryStore(fileURL: blocker.appendingPathComponent("bts/history"))
        #expect(throws: HistoryStoreError.self) { try store.load() }
        #expect(store.record("jobs"))
        #expect(store.entries == ["jobs"])
        #expect(store.lastError?.description.contains("history: cannot") == true)
    }
}
