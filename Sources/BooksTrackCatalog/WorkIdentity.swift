/// The identity of a work across the catalog's editions (pure: title and authors only).
package enum WorkIdentity {
    /// The identities of a work across the catalog's editions, one per author: the title without
    /// its series suffix, subtitle and "and other stories" tail, with an author, as word tokens.
    /// Two books are one work when they share one ("The Strange Case of Dr. Jekyll and Mr. Hyde"
    /// and "… and Other Tales of Terror" by Stevenson; "The Hobbit" and "The Hobbit: Graphic
    /// Novel", Tolkien its second author).
    static func keys(_ book: CatalogBook) -> [String] {
        let authors = book.authors.isEmpty ? [""] : book.authors
        return authors.map { key(title: book.title, author: $0) }
    }

    /// The work identity of a title with one author (a library's book is matched by its first).
    package static func key(title: String, author: String?) -> String {
        let base = CatalogFieldCleaning.series(inTitle: title).base
        let short = base.split(separator: ":", maxSplits: 1).first.map(String.init) ?? base
        var words = HashingEmbedding.tokens(short)
        if let tail = words.indices.first(where: {
            $0 > 0 && words[$0] == "and" && words.dropFirst($0 + 1).first == "other"
        }) {
            words.removeSubrange(tail...)
        }
        return words.joined(separator: " ") + "|"
            + HashingEmbedding.tokens(author ?? "").joined(separator: " ")
    }
}
