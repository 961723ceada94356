import BooksTrackContract
import BooksTrackLibrary

extension CompletionContext {
    /// Keys whose string value (or array of strings, for `isbns`) is an ISBN: the library's
    /// spellings (`BookData`, which reads `$_` for `save`), so both read the same fields.
    static let isbnKeys = BookData.isbnKeys + [BookData.isbnListKey]
    /// Keys whose string value is a job id.
    static let jobKeys = ["jobId", "job_id"]

    /// Remembers the books (ISBNs with their titles) and job ids found anywhere in a command's
    /// result, e.g. `{"results": [{"title": "Dune", "isbn": "9780441172719"}]}`. Bounded: at
    /// most `nodeLimit` JSON nodes are visited and nesting deeper than 12 levels is skipped, so a
    /// huge result costs a bounded time.
    package mutating func harvest(_ value: JSONValue, nodeLimit: Int = 100_000) {
        var budget = nodeLimit
        harvest(value, depth: 0, budget: &budget)
    }

    private mutating func harvest(_ value: JSONValue, depth: Int, budget: inout Int) {
        guard budget > 0, depth <= 12 else { return }
        budget -= 1
        switch value {
        case .array(let elements):
            for element in elements {
                guard budget > 0 else { return }
                harvest(element, depth: depth + 1, budget: &budget)
            }
        case .object(let members):
            let title = members["title"]?.stringValue
            var found: [String] = []
            for key in Self.isbnKeys {
                switch members[key] {
                case .string(let text)?: found.append(text)
                case .array(let elements)?: found += elements.prefix(20).compactMap(\.stringValue)
                default: break
                }
            }
            if found.isEmpty {
                if let title { noteBook(isbn: nil, title: title) }
            } else {
                for isbn in found { noteBook(isbn: isbn, title: title) }
            }
            switch members["authors"] {
            case .array(let names)?: for name in names.prefix(20).compactMap(\.stringValue) { noteAuthor(name) }
            case .string(let name)?: noteAuthor(name)
            default: break
            }
            for key in Self.jobKeys {
                if let id = members[key]?.stringValue { noteJob(id: id) }
            }
            for (key, member) in members where key != "title" {
                switch member {
                case .array, .object: harvest(member, depth: depth + 1, budget: &budget)
                default: continue
                }
            }
        default:
            return
        }
    }
}
