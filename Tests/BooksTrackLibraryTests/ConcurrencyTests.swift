import BooksTrackLibrary
import Foundation
import TestSupport
import Testing

/// Several writers on one library file lose nothing: two `DatabasePool`s in this process with many
/// tasks each, and two separate processes (the bench executable's `write` mode).
@Suite(.onWorkThreads) struct ConcurrencyTests {
    @Test func twoPoolsManyTasksLoseNothing() async throws {
        let t = try TempLibrary("pools")
        defer { t.cleanup() }
        let second = try t.reopen()
        let pools = [t.library, second]
        let tasks = 8
        let perTask = 40
        let shared = 20
        let totals = try await withThrowingTaskGroup(of: SaveSummary.self) { group in
            for task in 0..<tasks {
                let lib = pools[task % 2]
                group.addTask {
                    var total = SaveSummary()
                    for i in 0..<(perTask + shared) {
                        let isbn = i < perTask ? syntheticISBN(1, task * 1000 + i) : syntheticISBN(2, i - perTask)
                        let s = try await lib.save(
                            [BookData(title: "Book \(isbn)", authors: ["A \(task)"], isbn: isbn)],
                            from: .manual
                        )
                        total.created += s.created
                        total.alreadyThere += s.alreadyThere
                    }
                    return total
                }
            }
            var all: [SaveSummary] = []
            for try await s in group { all.append(s) }
            return all
        }
        let expected = tasks * perTask + shared
        #expect(totals.map(\.created).reduce(0, +) == expected)
        #expect(totals.map(\.alreadyThere).reduce(0, +) == tasks * shared - shared)
        #expect(try await t.library.count() == expected)
        #expect(try await second.count() == expected)
        #expect(try await t.library.search("book").count == 50, "index consistent (limit 50)")

        // Read-modify-write of one book from every task: no tag is lost.
        let target = try #require(try await t.library.list(limit: 1).first)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                let lib = pools[task % 2]
                group.addTask {
                    for k in 0..<10 { try await lib.update(id: target.id, ReadingChange(addTags: ["t\(task)-\(k)"])) }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await second.book(id: target.id)?.reading.tags.count == tasks * 10)
    }

    static let writer: String? = {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while dir.path != "/" {
            let candidate = dir.appendingPathComponent(".build/debug/bts-library-bench").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return nil
    }()

    @Test(.enabled(if: writer != nil, "no .build/debug/bts-library-bench: build it first (swift build)"))
    func twoProcessesLoseNothing() async throws {
        let t = try TempLibrary("procs")
        defer { t.cleanup() }
        let writer = try #require(Self.writer)
        let count = 150
        let shared = 50
        var processes: [(SpawnedProcess, Pipe)] = []
        for prefix in [1, 2] {
            let p = SpawnedProcess()
            p.executableURL = URL(fileURLWithPath: writer)
            p.arguments = [
                "write", "--db", t.library.path.path, "--prefix", "\(prefix)", "--count", "\(count)", "--shared",
                "\(shared)",
            ]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            processes.append((p, out))
        }
        var created = 0
        for (p, out) in processes {
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            #expect(p.terminationStatus == 0, "\(text)")
            let fields = Dictionary(
                uniqueKeysWithValues: text.split(whereSeparator: \.isWhitespace).compactMap { pair -> (String, Int)? in
                    let kv = pair.split(separator: "=")
                    return kv.count == 2 ? (String(kv[0]), Int(kv[1]) ?? -1) : nil
                }
            )
            created += fields["created"] ?? 0
        }
        #expect(created == 2 * count + shared)
        #expect(try await t.library.count() == 2 * count + shared)
    }
}
