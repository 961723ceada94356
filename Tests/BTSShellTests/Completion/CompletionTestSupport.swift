import BTSShell
import BTSTerminal
import Foundation

/// Helpers for completion tests: a context with a few books, jobs and variables, and an engine
/// over the standard registry with a fake or real file system.
enum CompletionFixtures {
    /// Valid ISBN-13s with their titles.
    static let books: [(isbn: String, title: String)] = [
        ("9780441172719", "Dune"),
        ("9780441172696", "Dune Messiah"),
        ("9780553293357", "Foundation"),
        ("9780441478125", "The Left Hand of Darkness"),
        ("9782070360024", "L'Étranger"),
        ("9783442454709", "Café \"Größenwahn\" $pecial"),
    ]

    static func context() -> CompletionContext {
        var context = CompletionContext()
        for book in books { context.noteBook(isbn: book.isbn, title: book.title) }
        context.noteJob(id: "job-import-1", summary: "import, done")
        context.noteJob(id: "job-batch-2", summary: "enrich batch, running")
        context.variables = ["_", "book", "books", "limit"]
        context.profiles = ["work"]
        return context
    }

    static func engine(_ context: CompletionContext = context(), lister: DirectoryLister? = nil) -> CompletionEngine {
        CompletionEngine(registry: .standard, context: context, lister: lister ?? fakeLister)
    }

    /// A fake tree: /home/u (home) and /work (current directory).
    static let fakeLister: DirectoryLister = { directory, prefix in
        let tree: [String: [DirectoryEntry]] = [
            "/work": [
                DirectoryEntry(name: "library.csv", isDirectory: false),
                DirectoryEntry(name: "Library Export.CSV", isDirectory: false),
                DirectoryEntry(name: "setup.bts", isDirectory: false),
                DirectoryEntry(name: "isbns.txt", isDirectory: false),
                DirectoryEntry(name: "notes.md", isDirectory: false),
                DirectoryEntry(name: "data", isDirectory: true),
                DirectoryEntry(name: ".hidden.csv", isDirectory: false),
                DirectoryEntry(name: ".config", isDirectory: true),
            ],
            "/work/data/": [DirectoryEntry(name: "big.csv", isDirectory: false)],
            "/home/u/": [
                DirectoryEntry(name: "books.csv", isDirectory: false),
                DirectoryEntry(name: "My Books", isDirectory: true),
            ],
            "/home/u/My Books/": [DirectoryEntry(name: "a b.csv", isDirectory: false)],
        ]
        return tree[directory]?.filter { $0.name.hasPrefix(prefix) }
    }

    static func fileContext() -> CompletionContext {
        var context = context()
        context.currentDirectory = "/work"
        context.homeDirectory = "/home/u"
        return context
    }
}

extension CompletionEngine {
    /// The answer at the end of `line`.
    func answer(_ line: String) -> CompletionAnswer {
        answer(line: line, cursorOffset: line.utf8.count)
    }

    /// The line after one TAB at the end of `line`, as the line editor would edit it.
    func tab(_ line: String) -> String {
        let request = CompletionRequest(line: line, cursor: line.endIndex)
        let completion = completion(for: request)
        let edit = CompletionEdit.decide(request: request, completion: completion)
        guard let replacement = edit.replacement else { return line }
        var edited = line
        edited.replaceSubrange(completion.replacementRange, with: replacement)
        return edited
    }
}
