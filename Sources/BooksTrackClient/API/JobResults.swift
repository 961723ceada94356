import BooksTrackContract
import Foundation

/// A job's results: a CSV import summary, the per-book rows of a batch enrichment, or the books a
/// bookshelf scan found.
package enum JobResults: Sendable, Hashable, Decodable {
    case csvImport(ImportResults)
    case batch([BatchItemResult])
    case scan([DetectedBook])

    package init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        // A scan's books carry a `confidence` (a bare list, or `{books: […]}` as v1's AIScanResults).
        let shape = try single.decode(JSONValue.self)
        if let list = shape.arrayValue ?? shape["books"]?.arrayValue ?? shape["detectedBooks"]?.arrayValue,
            let first = list.first, first["confidence"] != nil
        {
            self = .scan(list.compactMap(JobResults.detected))
            return
        }
        if let rows = try? single.decode([BatchItemResult].self) {
            self = .batch(rows)
            return
        }
        let probe = try single.decode(JSONValue.self)
        if let rows = probe["results"], rows.arrayValue != nil {
            struct Wrapped: Decodable { var results: [BatchItemResult] }
            self = .batch(try single.decode(Wrapped.self).results)
            return
        }
        self = .csvImport(try single.decode(ImportResults.self))
    }
}
