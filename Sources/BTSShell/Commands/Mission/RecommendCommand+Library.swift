import BooksTrackCatalog
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// `recommend --library`: books for *your* library, computed here in the shell from your library
/// and the bundled catalog's reader shelves, whatever the backend (production's
/// `GET /v3/recommendations/personalized` ignores the user and answers the weekly picks with
/// `strategy: "weekly_fallback"`, bendv3 src/api-v3/recommendations.ts @ e40ae5d).
extension RecommendCommand {
    /// At most this many library books shape the profile (highest rated first).
    static let librarySeeds = 2_000

    /// How much a library book pulls the profile (> 0) or pushes it away (< 0), and the words that
    /// finish "like TITLE …": ratings first (5 pulls hardest, 1–2 push away), else the shelf.
    static func seedWeight(_ reading: ReadingFields) -> (weight: Double, because: String)? {
        if let rating = reading.rating, rating > 0 {
            let stars = rating == rating.rounded() ? String(Int(rating)) : String(rating)
            let weight: Double
            switch rating {
            case 4.5...: weight = 2
            case 3.5..<4.5: weight = 1
            case 2.5..<3.5: weight = 0.25
            case 1.5..<2.5: weight = -0.5
            default: weight = -1
            }
            return (weight, "you rated \(stars)")
        }
        switch reading.shelf {
        case .didNotFinish: return (-0.5, "you did not finish")
        case .toRead: return (0.25, "on your to-read shelf")
        case .paused: return (0.25, "on your paused shelf")
        default: return (0.5, "on your \(reading.shelf.rawValue) shelf")
        }
    }

    /// The table of recommendations for the library.
    static let libraryColumns: [TableColumn] = [
        TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("authors", "AUTHORS", flexible: true),
        TableColumn("reason", "WHY", prefersWhole: true),
    ]

    static func forLibrary(limit: Int, in context: isolated any CommandContext) async throws -> CommandOutput {
        let library = try context.library()
        let books: [LibraryBook]
        do {
            books = try await library.list(LibraryFilter(), sort: LibrarySort(.rating), limit: librarySeeds)
        } catch {
            throw ShellError(error)
        }
        let catalog = try context.catalog()
        var seeds: [LibrarySeed] = []
        var held: Set<Int> = []
        for book in books {
            guard let match = Self.catalogBook(for: book, in: catalog) else { continue }
            held.insert(match.id)
            if let (weight, because) = seedWeight(book.reading) {
                seeds.append(LibrarySeed(bookID: match.id, weight: weight, because: because))
            }
        }
        guard seeds.contains(where: { $0.weight > 0 }) else {
            throw ShellError(
                .failure,
                "none of your library's books is in the bundled catalog with shelves to go by "
                    + "('save' or 'import' adds some; rated and read books count most)",
                code: .notFound
            )
        }
        // A few extra: books held under another edition's ISBN are dropped below.
        let found: [PersonalRecommendation]
        do {
            found = try catalog.personalRecommendations(seeds: seeds, excluding: held, limit: limit + 10)
        } catch {
            throw ShellError(.failure, "cannot read the catalog's shelves: \(error)")
        }
        let heldISBNs = (try? await library.holdings(of: found.compactMap(\.book.isbn13))) ?? []
        // Within one series, its books in series order (#2 before #3) before the list is cut.
        let kept = found.filter { $0.book.isbn13.map { !heldISBNs.contains($0) } ?? true }
        let picks = SQLiteCatalog.inSeriesOrder(kept, book: \.book).prefix(limit)
        let rows = picks.map { pick in
            JSONValue.record([
                ("isbn", pick.book.isbn13.json), ("title", pick.book.title.json), ("authors", pick.book.authors.json),
                ("reason", pick.reason.json), ("score", .number(pick.score)), ("like", pick.like.title.json),
                ("shelves", pick.book.shelves.json), ("coverUrl", pick.book.imageURL.json),
            ])
        }
        let value = JSONValue.record([
            ("source", "library".json), ("strategy", "library_shelves".json), ("seeds", seeds.count.json),
            ("count", rows.count.json), ("results", .array(rows)),
        ])
        return CommandOutput(
            value: value,
            view: .table(
                columns: libraryColumns,
                rowsKey: "results",
                footer:
                    "(\(rows.count) not in your library, from the shelves of \(seeds.count) of your books; computed locally)",
                empty: "No recommendations: the catalog has nothing like your books that you do not already have."
            )
        )
    }

    /// The catalog's book for a library book: by ISBN-13, else by title and first author when the
    /// catalog's best match is the same work.
    static func catalogBook(for book: LibraryBook, in catalog: SQLiteCatalog) -> CatalogBook? {
        if let isbn = book.isbn13, let found = try? catalog.book(isbn13: isbn) { return found }
        let author = book.authors.first
        guard let page = try? catalog.searchAdvanced(title: book.title, author: author, limit: 3) else { return nil }
        let work = SQLiteCatalog.workKey(title: book.title, author: author)
        return page.books.first { SQLiteCatalog.workKey(title: $0.title, author: $0.authors.first) == work }
    }
}
