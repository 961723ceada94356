import BooksTrackCatalog
import BooksTrackContract
import Foundation

/// Finds the catalog book a CSV row or batch item refers to: a valid ISBN first (ISBN-10 is
/// converted to ISBN-13), else title (+ author) through `searchAdvanced`. Pure apart from the
/// catalog reads.
enum CatalogMatcher {
    /// A match, or the reason there is none (one sentence, for `errors[].error` / `error`).
    enum Outcome: Sendable, Hashable {
        case matched(CatalogBook)
        case unmatched(String)
    }

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
                if let book = try catalog.book(isbn13: isbn.isbn13) { return .matched(book) }
                problems.append("ISBN \(isbn.isbn13) is not in the catalog")
            } catch {
                problems.append("catalog lookup of ISBN \(isbn.isbn13) failed: \(error)")
            }
        }
        let cleanAuthor = author.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        // A client that knows only the ISBN sends it as the title too (production refuses an empty
        // title): such a title is not searched as words.
        if let title = title?.trimmingCharacters(in: .whitespaces), !title.isEmpty, !isbns.contains(title) {
            for query in titleQueries(title) {
                do {
                    let page = try catalog.searchAdvanced(title: query, author: cleanAuthor, limit: 10)
                    if let best = pickBest(page.books, title: title, authorGiven: cleanAuthor != nil) {
                        return .matched(best)
                    }
                } catch {
                    problems.append("catalog search failed: \(error)")
                    break
                }
            }
            let by = cleanAuthor.map { " by '\($0)'" } ?? ""
            problems.append("no catalog match for title '\(title)'\(by)")
        } else if problems.isEmpty {
            problems.append("the row has neither a title nor an ISBN")
        }
        return .unmatched(problems.joined(separator: "; "))
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

    /// Titles agree when equal after normalization (series notes ignored), or one starts with the other
    /// at a word boundary ("The Hobbit" and "The Hobbit, or There and Back Again").
    static func titlesAgree(_ a: String, _ b: String) -> Bool {
        let x = [normalize(a), normalize(stripSeries(a))]
        let y = [normalize(b), normalize(stripSeries(b))]
        for p in x where !p.isEmpty {
            for q in y where !q.isEmpty {
                if p == q || p.hasPrefix(q + " ") || q.hasPrefix(p + " ") { return true }
            }
        }
        return false
    }

    /// The first result whose title agrees; with an author given (both matched in the catalog),
    /// the first result otherwise.
    static func pickBest(_ books: [CatalogBook], title: String, authorGiven: Bool) -> CatalogBook? {
        if let agreeing = books.first(where: {
            titlesAgree($0.title, title) || $0.originalTitle.map { titlesAgree($0, title) } == true
        }) {
            return agreeing
        }
        return authorGiven ? books.first : nil
    }
}
