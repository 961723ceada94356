import GRDB

/// A change to one field: set it or clear it (a nil `FieldChange?` leaves the field alone).
package enum FieldChange<Value: Hashable & Sendable>: Hashable, Sendable {
    case set(Value)
    case clear
}

/// What the user changes on one book; nil members are left as they are.
package struct ReadingChange: Hashable, Sendable {
    package var shelf: Shelf?
    package var rating: FieldChange<Double>?
    package var dateRead: FieldChange<BookDate>?
    package var dateAdded: BookDate?
    package var readCount: FieldChange<Int>?
    package var review: FieldChange<String>?
    package var privateNotes: FieldChange<String>?
    package var addTags: [String]
    package var removeTags: [String]

    package init(
        shelf: Shelf? = nil,
        rating: FieldChange<Double>? = nil,
        dateRead: FieldChange<BookDate>? = nil,
        dateAdded: BookDate? = nil,
        readCount: FieldChange<Int>? = nil,
        review: FieldChange<String>? = nil,
        privateNotes: FieldChange<String>? = nil,
        addTags: [String] = [],
        removeTags: [String] = []
    ) {
        self.shelf = shelf
        self.rating = rating
        self.dateRead = dateRead
        self.dateAdded = dateAdded
        self.readCount = readCount
        self.review = review
        self.privateNotes = privateNotes
        self.addTags = addTags
        self.removeTags = removeTags
    }

    /// `fields` with this change applied, or why it cannot be.
    package func applied(to fields: ReadingFields) throws(LibraryError) -> ReadingFields {
        var out = fields
        if let shelf { out.shelf = shelf }
        switch rating {
        case .set(let r)?:
            guard ReadingFields.isValidRating(r) else {
                throw .invalidValue("a rating is 1 to 5 stars (quarter stars allowed, e.g. 4.5); got \(r)")
            }
            out.rating = r
        case .clear?: out.rating = nil
        case nil: break
        }
        switch dateRead {
        case .set(let d)?: out.dateRead = d
        case .clear?: out.dateRead = nil
        case nil: break
        }
        if let dateAdded { out.dateAdded = dateAdded }
        switch readCount {
        case .set(let n)?:
            guard n >= 0 else { throw .invalidValue("a read count cannot be negative; got \(n)") }
            out.readCount = n
        case .clear?: out.readCount = nil
        case nil: break
        }
        // A read date says the book was read at least once (`--read today` left the count at 0 and
        // the book on to-read), unless this change sets the count or the shelf itself.
        if case .set? = dateRead {
            if readCount == nil, (out.readCount ?? 0) < 1 { out.readCount = 1 }
            if shelf == nil, out.shelf == .toRead || out.shelf == .currentlyReading { out.shelf = .read }
        }
        switch review {
        case .set(let t)?: out.review = Optional(t).nonEmpty
        case .clear?: out.review = nil
        case nil: break
        }
        switch privateNotes {
        case .set(let t)?: out.privateNotes = Optional(t).nonEmpty
        case .clear?: out.privateNotes = nil
        case nil: break
        }
        let removing = Set(ReadingFields.normalizedTags(removeTags))
        out.tags = ReadingFields.normalizedTags(out.tags.filter { !removing.contains($0) } + addTags)
        return out
    }
}

extension BookLibrary {
    /// Applies `change` to book `id` (recording `.manual` provenance) and returns the book as stored.
    @discardableResult
    package func update(id: Int64, _ change: ReadingChange) async throws(LibraryError) -> LibraryBook {
        try await write { db in
            let before = try LibraryStore.loadReading(db, editionID: id)
            let after = try change.applied(to: before)
            if after != before {
                try LibraryStore.writeReading(db, editionID: id, fields: after, insert: false)
                try LibraryStore.reindex(db, editionID: id)
            }
            guard let book = try LibraryReader.books(db, ids: [id]).first else { throw LibraryError.notFound("#\(id)") }
            return book
        }
    }

    /// Removes book `id` (its work and authors go too when nothing else refers to them).
    /// Returns false when there was no such book.
    @discardableResult
    package func remove(id: Int64) async throws(LibraryError) -> Bool {
        try await write { db in
            guard let workID = try Int64.fetchOne(db, sql: "SELECT workId FROM edition WHERE id = ?", arguments: [id])
            else { return false }
            try db.execute(sql: "DELETE FROM library_fts WHERE rowid = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM edition WHERE id = ?", arguments: [id])
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM edition WHERE workId = ?", arguments: [workID]) == 0 {
                try db.execute(sql: "DELETE FROM work WHERE id = ?", arguments: [workID])
                try db.execute(sql: "DELETE FROM author WHERE id NOT IN (SELECT authorId FROM work_author)")
            }
            return true
        }
    }
}
