import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// Every command of the command table, run by the real binary with stdout a pipe, writes JSON
/// documents there (one a line) or nothing: no table, no confirmation sentence. The commands come
/// from ``CommandTable`` itself, each run with its own examples unless it needs a scene set first,
/// a file, or other lines (named below with the reason); a new command is run through its examples.
@Suite("bts binary: every command's stdout in a pipe", .serialized)
struct EveryCommandInAPipeTests {
    /// What a command writes into a pipe.
    enum Expected: Sendable {
        /// One JSON document a line, at least one.
        case documents
        /// Nothing at all, for this reason.
        case nothing(String)
        /// These exact bytes, for this reason.
        case words(String, String)
    }

    /// How one command is run: `setup` first (its output sent to /dev/null: each setup command is
    /// checked as a command of its own), then `lines` (nil: the command's examples), in one process
    /// whose work directory holds `files`.
    struct Invocation: Sendable {
        var setup: [String] = []
        var lines: [String]?
        var files: [String: FileContent] = [:]
        var expected: Expected = .documents
    }

    enum FileContent: Sendable {
        case text(String)
        /// A file of scripts/examples, copied.
        case example(String)
    }

    static let savedBook = ["search isbn 9780439023481", "save --shelf read"]
    static let batchJob = "enrich 9780439023481 9780439023498"

    /// Commands that are not run as their examples alone, by path, with the reason.
    static let invocations: [String: Invocation] = [
        // A book on the shelf the examples name (`--library --shelf read`).
        "similar": Invocation(setup: savedBook),
        "recommend": Invocation(setup: savedBook),
        // The examples' files: one ISBN a line, a Goodreads export, a photo of back covers.
        "enrich": Invocation(files: ["isbns.txt": .example("isbns.txt")]),
        "import": Invocation(files: ["goodreads_library_export.csv": .example("library.csv")]),
        "library import": Invocation(files: ["goodreads_library_export.csv": .example("library.csv")]),
        "scan": Invocation(files: ["back-covers.jpg": .example("back-covers.jpg")]),
        "source": Invocation(files: [
            "setup.bts": .text("search isbn 9780439023481\n"),
            "lib/show.bts": .text("search isbn $1\nlibrary list\n"),
        ]),
        // A job to follow, ask about, take the results of, cancel.
        "watch": Invocation(setup: [batchJob], lines: ["watch", "watch last"]),
        "status": Invocation(setup: [batchJob]),
        "results": Invocation(setup: [batchJob + " --watch"]),
        "cancel": Invocation(setup: [batchJob + " --watch"]),
        // Books in the library to list, show, change and remove.
        "library list": Invocation(setup: savedBook),
        "library search": Invocation(setup: savedBook),
        "library show": Invocation(
            setup: savedBook,
            lines: [
                "library show 9780439023481", "library show 1",
                "library show hunger games",
            ]
        ),
        "library set": Invocation(setup: savedBook),
        "library remove": Invocation(setup: savedBook),
        "library shelves": Invocation(setup: savedBook),
        "library stats": Invocation(setup: savedBook, lines: ["library stats"]),
        // `library export -` writes the CSV asked for on stdout; a file gets it here, stdout the summary.
        "library export": Invocation(
            setup: savedBook,
            lines: [
                "library export my_books.csv",
                "library export read.csv --shelf read",
            ]
        ),
        // `api -i` writes the status line and headers before the body, as asked: the other examples.
        "api": Invocation(lines: ApiCommand.configuration.examples.filter { !$0.contains(" -i ") }),
        // `connect local` needs a server on localhost:8787.
        "connect": Invocation(lines: ["connect embedded"]),
        // Assignments print nothing; `set` alone lists them.
        "set": Invocation(setup: ["search isbn 9780439023481"], lines: SetCommand.configuration.examples + ["set"]),
        "alias": Invocation(),
        "unalias": Invocation(
            setup: ["alias hg search 9780439023481"],
            expected: .nothing("unalias changes the session: it has no result")
        ),
        "expect": Invocation(
            setup: ["search hunger games --limit 5"],
            expected: .nothing("expect checks a condition: it has no result (a failure is on stderr)")
        ),
        "echo": Invocation(
            setup: ["search isbn 9780439023481"],
            expected: .words("found 1 books\n0\n", "echo writes its words as they are: text of the user's own")
        ),
        "sleep": Invocation(lines: ["sleep 10ms"], expected: .nothing("sleep waits: it has no result")),
        "timing": Invocation(
            setup: ["search dune"],
            expected: .nothing("timing's report is a note on stderr")
        ),
        "exit": Invocation(lines: ["exit"], expected: .nothing("exit ends the run")),
    ]

    /// Every runnable command and subcommand of the table (a family runs only through its
    /// subcommands), by path.
    static let paths: [String] = {
        func walk(_ type: any ShellCommand.Type, _ parent: [String]) -> [[String]] {
            let path = parent + [type.name]
            let own = type is any CommandFamily.Type ? [] : [path]
            return own + type.subcommands.flatMap { walk($0, path) }
        }
        return CommandTable.all.flatMap { walk($0, []) }.map { $0.joined(separator: " ") }
    }()

    static func type(at path: String) -> (any ShellCommand.Type)? {
        CommandTable.route(path: path.split(separator: " ").map(String.init)).last
    }

    /// Each named invocation is a command of the table (none left behind by a rename).
    @Test func everyInvocationNamesACommandOfTheTable() {
        #expect(Self.paths.count > CommandTable.all.count)
        for path in Self.invocations.keys {
            #expect(Self.paths.contains(path), "'\(path)' is not a command of the table")
        }
    }

    @Test(
        .enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"),
        arguments: EveryCommandInAPipeTests.paths
    )
    func writesJSONOrNothingIntoAPipe(_ path: String) async throws {
        let type = try #require(Self.type(at: path), "\(path)")
        let invocation = Self.invocations[path] ?? Invocation()
        let lines = invocation.lines ?? type.configuration.examples
        #expect(!lines.isEmpty, "\(path) has no examples: name an invocation for it")
        let root = try makeTempDirectory("pipe-\(path.replacingOccurrences(of: " ", with: "-"))")
        defer { try? FileManager.default.removeItem(at: root) }
        for (name, content) in invocation.files {
            let url = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            switch content {
            case .text(let text): try Data(text.utf8).write(to: url)
            case .example(let file):
                try FileManager.default.copyItem(
                    at: BinaryTests.examplesDirectory.appendingPathComponent(file),
                    to: url
                )
            }
        }
        let script = (invocation.setup.map { $0 + " > /dev/null" } + lines).joined(separator: "\n")
        let outcome = try await EmbeddedHomeTests.bts(["-c", script], root: root)
        #expect(outcome.status == 0, "\(path): \(script)\n\(outcome)")
        switch invocation.expected {
        case .documents:
            let documents = Self.documents(outcome.stdout)
            #expect(documents != nil, "\(path): stdout is not one JSON document a line\n\(outcome)")
            #expect((documents?.count ?? 0) >= 1, "\(path): no result on stdout\n\(outcome)")
        case .nothing(let reason):
            #expect(outcome.stdout.isEmpty, "\(path) (\(reason))\n\(outcome)")
        case .words(let expected, let reason):
            #expect(outcome.stdout == expected, "\(path) (\(reason))\n\(outcome)")
        }
    }

    /// The documents of `text`, one a line (parsed by Foundation's reader, not bts's writer); nil
    /// when a line is not JSON or the last one is not ended.
    static func documents(_ text: String) -> [Any]? {
        guard !text.isEmpty else { return [] }
        guard text.hasSuffix("\n") else { return nil }
        var documents: [Any] = []
        for line in text.dropLast().split(separator: "\n", omittingEmptySubsequences: false) {
            guard let document = try? JSONSerialization.jsonObject(with: Data(line.utf8), options: .fragmentsAllowed)
            else { return nil }
            documents.append(document)
        }
        return documents
    }
}
