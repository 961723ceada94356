import BooksTrackClient
import BooksTrackContract
import Foundation

/// What TAB may offer beyond the registry's fixed words: a snapshot of the session, updated by
/// the shell after each command (see ``CompletionContextStore``). A plain value, so completion
/// never waits for the interpreter or the network.
package struct CompletionContext: Sendable, Equatable {
    /// The default bound of remembered ISBNs and of remembered titles.
    package static let defaultBookCapacity = 10_000
    /// The most job ids remembered.
    package static let jobCapacity = 500
    /// The most author name words remembered.
    package static let authorCapacity = 4_000

    /// A job started in this session.
    package struct Job: Sendable, Hashable {
        /// The server's job id.
        package var id: String
        /// A short description for the listing, e.g. "import, running" (may be empty).
        package var summary: String

        package init(id: String, summary: String = "") {
            self.id = id
            self.summary = summary
        }
    }

    /// Jobs of this session, most recent first (`last` is always offered as well).
    package private(set) var jobs: [Job] = []
    /// ISBNs (normalised: digits, ISBN-10 may end in `X`) seen in results; payload: the title.
    package private(set) var isbns: RecencyIndex
    /// Titles seen in results; key: ``foldTitle(_:)`` of the title, payload: the title itself.
    package private(set) var titles: RecencyIndex
    /// Author names seen in results (a remote backend's, its cached answers'); one key per word of
    /// a name (``authorKey(word:name:)``), payload: the name.
    package private(set) var authors = RecencyIndex(capacity: CompletionContext.authorCapacity)
    /// Variable names that are set (without `$`), e.g. `_`, `_http`, `book`.
    package var variables: Set<String> = []
    /// The lower-case header names of the session's last HTTP exchange (`${_http.headers.NAME}`),
    /// sorted; only names a `${…}` path can spell.
    package var exchangeHeaders: [String] = []
    /// Shelf names of the user's library, in shelf order (`library list --shelf`).
    package var shelves: [String] = []
    /// Tag names of the user's library, most used first (`library set --tag`).
    package var tags: [String] = []
    /// Profile names for `connect` (the built-in ones are always offered as well).
    package var profiles: Set<String> = []
    /// Commands that cannot run on the connected server, with the reason (from capabilities).
    package var unavailableCommands: [String: String] = [:]
    /// The routes `api` completes its PATH from (``BooksTrackAPI/offeredRoutes``); nil before a
    /// backend is open: the routes the client knows for every dialect.
    package var apiRoutes: [KnownRoute]?
    /// The directory relative paths are completed against; nil: the process's current directory.
    package var currentDirectory: String?
    /// What `~` expands to; nil: `$HOME`.
    package var homeDirectory: String?

    /// An empty context remembering at most `bookCapacity` ISBNs and as many titles.
    package init(bookCapacity: Int = CompletionContext.defaultBookCapacity) {
        isbns = RecencyIndex(capacity: bookCapacity)
        titles = RecencyIndex(capacity: bookCapacity)
    }

    /// Remembers a job id (moved to the front if already known; an empty `summary` keeps the old one).
    package mutating func noteJob(id: String, summary: String = "") {
        let trimmed = id.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 200 else { return }
        var job = Job(id: trimmed, summary: summary)
        if let index = jobs.firstIndex(where: { $0.id == trimmed }) {
            if summary.isEmpty { job.summary = jobs[index].summary }
            jobs.remove(at: index)
        }
        jobs.insert(job, at: 0)
        if jobs.count > Self.jobCapacity { jobs.removeLast(jobs.count - Self.jobCapacity) }
    }

    /// Remembers a book: an ISBN (ignored unless valid) and/or a title.
    package mutating func noteBook(isbn: String?, title: String?) {
        let cleanTitle = title.map(Self.cleanTitle) ?? ""
        if let isbn, let normalised = Self.normaliseISBN(isbn) {
            isbns.note(normalised, payload: cleanTitle)
        }
        if !cleanTitle.isEmpty {
            let key = Self.foldTitle(cleanTitle)
            if !key.isEmpty { titles.note(key, payload: cleanTitle) }
        }
    }

    /// Remembers an author's name under each of its words, so any word's beginning finds it.
    package mutating func noteAuthor(_ name: String) {
        let clean = Self.cleanTitle(name)
        guard !clean.isEmpty, clean.count <= 200 else { return }
        for word in Self.nameWords(clean) { authors.note(Self.authorKey(word: word, name: clean), payload: clean) }
    }

    /// The remembered authors with a word starting with each word of `typed` (in the order of the
    /// word the last typed one starts).
    func authors(matching typed: String) -> [String] {
        let words = Self.nameWords(typed)
        guard let last = words.last else { return [] }
        var seen: Set<String> = []
        let names = authors.sortedPayloads[authors.range(withPrefix: last)].filter { name in
            let nameWords = Self.nameWords(name)
            return words.allSatisfy { word in nameWords.contains { $0.hasPrefix(word) } } && seen.insert(name).inserted
        }
        return names
    }

    /// The folded words of a name (`J.R.R. Tolkien` → `j r r tolkien`).
    static func nameWords(_ text: String) -> [String] {
        foldTitle(text).split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    static func authorKey(word: String, name: String) -> String { word + "\u{1F}" + name }

    /// The title as it would be inserted: whitespace runs (including line breaks) become one
    /// space, ends trimmed, at most 300 characters.
    static func cleanTitle(_ title: String) -> String {
        let words = title.split(whereSeparator: { $0.isWhitespace || $0.isNewline })
        return String(words.joined(separator: " ").prefix(300))
    }

    /// The comparison form of a title or typed prefix: case and diacritics folded ("Café" → "cafe").
    package static func foldTitle(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
    }

    /// `raw` as a valid ISBN's digits (hyphens and spaces removed), or nil when it is not a valid ISBN.
    static func normaliseISBN(_ raw: String) -> String? {
        guard raw.utf8.count <= 32 else { return nil }
        return ISBN(raw)?.value
    }

    /// `typed` reduced to what can prefix an ISBN (digits and a final `X`; hyphens and spaces
    /// dropped), or nil when it contains anything else.
    static func isbnPrefix(_ typed: String) -> String? {
        var out = ""
        for character in typed {
            if character == "-" || character == " " { continue }
            if character.isASCII, character.isNumber {
                out.append(character)
                continue
            }
            if character == "x" || character == "X" {
                out.append("X")
                continue
            }
            return nil
        }
        return out
    }
}
