import BooksTrackContract
import BooksTrackLibrary

/// Library books as the shell's result values (`$_`): flat, jq-friendly objects whose `isbn`,
/// `title` and `authors` keys feed `similar`, `enrich` and `save` like any search result.
extension LibraryBook {
    var json: JSONValue {
        let d = data
        let r = reading
        return .record([
            ("id", .number(Double(id))), ("isbn", d.isbn13.json), ("isbn10", d.isbn10.json), ("asin", d.asin.json),
            ("title", d.title.json), ("authors", d.authors.json), ("series", d.series.json),
            ("year", (d.originalYear ?? d.publishedYear).json), ("publisher", d.publisher.json),
            ("pageCount", d.pageCount.json), ("format", d.format.json), ("language", d.language.json),
            ("coverUrl", d.coverURL.json), ("description", d.description.json),
            ("shelf", r.shelf.rawValue.json), ("tags", r.tags.json), ("rating", r.rating.json),
            ("stars", r.rating.map { JSONValue.string(LibraryBook.stars($0)) }),
            ("dateRead", r.dateRead?.iso.json), ("dateAdded", r.dateAdded?.iso.json), ("readCount", r.readCount.json),
            ("review", r.review.json), ("notes", r.privateNotes.json),
            ("sources", .array(provenance.map { JSONValue.string($0.description) })),
            ("editions", editionsOfWork > 1 ? editionsOfWork.json : Optional<JSONValue>.none),
        ])
    }

    /// `★★★★½` for 4.5 (quarter stars round down to the half).
    static func stars(_ rating: Double) -> String {
        let whole = Int(rating.rounded(.down))
        let half = rating - Double(whole) >= 0.5
        return String(repeating: "★", count: whole) + (half ? "½" : "")
    }
}

extension SaveSummary {
    /// `{created, updated, alreadyThere, skipped}`.
    var json: JSONValue {
        .record([
            ("created", created.json), ("updated", updated.json), ("alreadyThere", alreadyThere.json),
            ("skipped", skipped.json),
        ])
    }
}
