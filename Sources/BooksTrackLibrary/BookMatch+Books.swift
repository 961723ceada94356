extension BookMatch {
    /// What a lookup's books amount to: none, one, or several (the first 10 listed).
    package init(_ books: [LibraryBook]) {
        switch books.count {
        case 0: self = .none
        case 1: self = .one(books[0])
        default: self = .ambiguous(Array(books.prefix(10)))
        }
    }

    /// As `init(_:)` for a title search: of several books, the one whose title is `reference` (case,
    /// accents and punctuation ignored) when only one is.
    package init(_ books: [LibraryBook], title reference: String) {
        if books.count > 1 {
            let wanted = TextKey.title(reference)
            let exact = books.filter { TextKey.title($0.title) == wanted }
            if exact.count == 1 {
                self = .one(exact[0])
                return
            }
        }
        self.init(books)
    }
}
