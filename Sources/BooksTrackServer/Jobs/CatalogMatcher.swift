import BooksTrackCatalog
import BooksTrackContract
import Foundation

/// Finds the catalog book a CSV row or batch item refers to: a valid ISBN first (ISBN-10 is
/// converted to ISBN-13), else its title (+ author): the advanced search (title words, and the
/// author), then the catalog's forgiving search (`searchTitle`: free-form, its spelling corrected
/// when it matches nothing), each candidate weighed by `ImportMatchRule` (the best accepted one
/// wins, the search's order breaking ties). Pure apart from the catalog reads.
enum CatalogMatcher {
    /// A match and how it was made, or the reason there is none (one sentence, for
    /// `errors[].error` / `error`).
    enum Outcome: Sendable, Hashable {
        case matched(CatalogBook, by: ImportMatchKind)
        case unmatched(String)
    }

    /// Candidates read from each search.
    static let advancedLimit = 10
    static let forgivingLimit = 20

    static func match(isbns: [String], title: String?, author: String?, catalog: any CatalogQuerying) -> Outcome {
        var problems: [String] = []
        for raw in isbns where !raw.isEmpty {
            let isbn: ISBN
            do {
                isbn = try ISBN(parsing: raw)
            } catch {
                problems.append("invalid ISBN '\(raw)': \(error.message)")
                continue
            }
            do {
                if let book = try catalog.book(isbn13: isbn.isbn13) { return .matched(book, by: .isbn) }
                problems.append("ISBN \(isbn.isbn13) is not in the catalog")
            } catch {
                problems.append("catalog lookup of ISBN \(isbn.isbn13) failed: \(error)")
            }
        }
        let cleanAuthor = author.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        // A client that knows only the ISBN sends it as the title too (production refuses an empty
        // title): such a title is not searched as words.
        if let title = title?.trimmingCharacters(in: .whitespaces), !title.isEmpty, !isbns.contains(title) {
            do {
                if let book = try bestByTitle(title, author: cleanAuthor, catalog: catalog) {
                    return .matched(book, by: .title)
                }
                let by = cleanAuthor.map { " by '\($0)'" } ?? ""
                problems.append("no catalog match for title '\(title)'\(by)")
            } catch {
                problems.append("catalog search failed: \(error)")
            }
        } else if problems.isEmpty {
            problems.append("the row has neither a title nor an ISBN")
        }
        return .unmatched(problems.joined(separator: "; "))
    }

    /// The accepted candidate with the highest confidence: from the advanced search first; from the
    /// forgiving search only when the advanced one offers none.
    static func bestByTitle(_ title: String, author: String?, catalog: any CatalogQuerying) throws -> CatalogBook? {
        var best: (book: CatalogBook, confidence: Double)?
        var seen: Set<Int> = []
        func weigh(_ books: [CatalogBook]) {
            for book in books where seen.insert(book.id).inserted {
                guard let confidence = ImportMatchRule.accepted(book, title: title, author: author) else { continue }
                if confidence > best?.confidence ?? 0 { best = (book, confidence) }
            }
        }
        let queries = titleQueries(title)
        for query in queries {
            weigh(try catalog.searchAdvanced(title: query, author: author, limit: advancedLimit).books)
        }
        if best == nil {
            for query in queries { weigh(try catalog.searchTitle(query, limit: forgivingLimit).books) }
        }
        return best?.book
    }

    /// The title as given, then without a trailing series note: "Dune (Dune #1)" → "Dune".
    static func titleQueries(_ title: String) -> [String] {
        var queries = [title]
        let stripped = stripSeries(title)
        if stripped != title, !stripped.isEmpty { queries.append(stripped) }
        return queries
    }

    static func stripSeries(_ title: String) -> String {
        guard title.hasSuffix(")"), let open = title.lastIndex(of: "(") else { return title }
        return title[..<open].trimmingCharacters(in: .whitespaces)
    }

    /// Lower-case letters and digits, single spaces.
    static func normalize(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber {
                if pendingSpace, !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(ch)
            } else {
                pendingSpace = true
            }
        }
        return out
    }
}
