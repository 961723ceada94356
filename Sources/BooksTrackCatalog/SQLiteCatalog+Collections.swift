import Foundation

/// Which catalog books hold another book: the boxed sets, omnibuses and two-in-one volumes that
/// `similar` never offers as a neighbour of a book they contain.
extension SQLiteCatalog {
    /// Words that make a title by the source's author that names the source a set of books.
    static let collectionWords: Set<String> = [
        "box", "boxed", "boxset", "set", "collection", "omnibus", "trilogy",
        "complete", "books", "volumes",
    ]

    /// True when `candidate` contains `source`: a span of the source's series that covers its number
    /// ("The Hunger Games Trilogy Boxset (The Hunger Games, #1-3)"), a volume of several titles
    /// separated by " / " one of which is the source ("Animal Farm / 1984"), or a set by one of the
    /// source's authors whose title names the source ("J.R.R. Tolkien 4-Book Boxed Set: The Hobbit and
    /// The Lord of the Rings").
    static func collects(_ candidate: CatalogBook, _ source: CatalogBook) -> Bool {
        CollectionTest(source).holds(candidate)
    }

    /// `collects` with what it needs of the source worked out once (`similar` asks it of ~100 books).
    struct CollectionTest {
        let source: CatalogBook
        let sourceKeys: Set<String>
        let sourceWords: [String]

        init(_ source: CatalogBook) {
            self.source = source
            sourceKeys = Set(WorkIdentity.keys(source))
            sourceWords = HashingEmbedding.tokens(CatalogFieldCleaning.series(inTitle: source.title).base)
        }

        func holds(_ candidate: CatalogBook) -> Bool {
            // The cheap tests first: most books share neither the series nor an author and hold no " / ".
            if let series = source.series, candidate.series == series,
                let span = SQLiteCatalog.seriesSpan(inTitle: candidate.title),
                span.contains(source.seriesNumber ?? 1)
            {
                return true
            }
            let sharesAuthor = !Set(candidate.authors).isDisjoint(with: source.authors)
            let joined = candidate.title.contains(" / ")
            guard sharesAuthor || joined else { return false }
            let base = CatalogFieldCleaning.series(inTitle: candidate.title).base
            if joined,
                base.components(separatedBy: " / ").contains(where: { part in
                    (candidate.authors.isEmpty ? [""] : candidate.authors).contains {
                        sourceKeys.contains(WorkIdentity.key(title: part, author: $0))
                    }
                })
            {
                return true
            }
            guard sharesAuthor else { return false }
            let words = HashingEmbedding.tokens(base)
            guard !sourceWords.isEmpty, words.count > sourceWords.count,
                !SQLiteCatalog.collectionWords.isDisjoint(with: words)
            else { return false }
            return (0...(words.count - sourceWords.count)).contains {
                Array(words[$0..<($0 + sourceWords.count)]) == sourceWords
            }
        }
    }

    /// The numbers a display title's series part spans, "(The Hunger Games, #1-3)" → 1...3; nil for a
    /// single number or no series part.
    static func seriesSpan(inTitle title: String) -> ClosedRange<Double>? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "("),
            let hash = trimmed[open...].lastIndex(of: "#")
        else { return nil }
        let spec = trimmed[trimmed.index(after: hash)..<trimmed.index(before: trimmed.endIndex)]
        let bounds = spec.split(separator: "-", maxSplits: 1).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard bounds.count == 2, let low = bounds[0], let high = bounds[1], low < high else { return nil }
        return low...high
    }
}
