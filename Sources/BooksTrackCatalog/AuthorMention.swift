/// Whether a free-form query names one of a book's authors, and which words are left for the
/// title. An author is named by the words of their name including the surname (the name's last
/// word): "stephen king" and "king" name Stephen King, "stephen" does not (it would name every
/// Stephen). Pure: query words and author names in, no I/O.
enum AuthorMention: Equatable {
    /// The query names no author of the book.
    case none
    /// The whole query is (part of) an author's name, surname included: "stephen king", "tolkien".
    case wholeName
    /// The query has an author's surname and these other words (in query order) for the title:
    /// "the shining stephen king" → ["the", "shining"].
    case surnameWith(titleWords: [String])

    /// `queryWords`: the query's words in the index's form (`HashingEmbedding.tokens`).
    init(queryWords: [String], authors: [String]) {
        guard !queryWords.isEmpty else {
            self = .none
            return
        }
        let query = Set(queryWords)
        var named = false
        var authorWords = Set<String>()
        for author in authors {
            let words = HashingEmbedding.tokens(author)
            guard let surname = words.last, query.contains(surname) else { continue }
            named = true
            authorWords.formUnion(words)
            if query.isSubset(of: Set(words)) {
                self = .wholeName
                return
            }
        }
        guard named else {
            self = .none
            return
        }
        let titleWords = queryWords.filter { !authorWords.contains($0) }
        self = titleWords.isEmpty ? .wholeName : .surnameWith(titleWords: titleWords)
    }
}
