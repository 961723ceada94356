import BooksTrackCatalog
import BooksTrackLibrary
import Foundation

// Figures for the library (not a test): full-text search on a library built from the bundled
// 10,000-book catalog, median and p99 per query over a fixed query set. Also the writer the
// two-process test runs:  bts-library-bench write --db PATH --prefix D --count N --shared S

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bts-library-bench: \(message)\n".utf8))
    exit(2)
}

func option(_ name: String, in args: [String]) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}

/// A valid ISBN-13 `978` + `digit` + `n` (8 digits) + check digit.
func syntheticISBN(_ digit: Int, _ n: Int) -> String {
    let body = "978\(digit)" + String(format: "%08d", n)
    var sum = 0
    for (i, ch) in body.enumerated() { sum += (i % 2 == 0 ? 1 : 3) * (ch.wholeNumberValue ?? 0) }
    return body + String((10 - sum % 10) % 10)
}

/// One transaction per book: `count` own books (prefix digit) then `shared` books every writer saves.
func writer(_ args: [String]) async {
    guard let db = option("--db", in: args), let prefix = option("--prefix", in: args).flatMap(Int.init),
        let count = option("--count", in: args).flatMap(Int.init)
    else { fail("write needs --db PATH --prefix DIGIT --count N [--shared N]") }
    let shared = option("--shared", in: args).flatMap(Int.init) ?? 0
    do {
        let library = try BookLibrary(path: URL(fileURLWithPath: db))
        var total = SaveSummary()
        for i in 0..<(count + shared) {
            let isbn = i < count ? syntheticISBN(prefix, i) : syntheticISBN(0, i - count)
            let book = BookData(title: "Book \(isbn)", authors: ["Writer \(i % 7)"], isbn: isbn)
            let s = try await library.save([book], from: .manual)
            total.created += s.created
            total.updated += s.updated
            total.alreadyThere += s.alreadyThere
        }
        print("created=\(total.created) updated=\(total.updated) already=\(total.alreadyThere)")
    } catch {
        fail("\(error)")
    }
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(
        separator: " "
    ) ?? "?"
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((p * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

func ms(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

/// CPU time of the whole process (all threads), in ms: on a loaded machine wall time overstates cost.
func processCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1e6
}

func bench(_ args: [String]) async {
    let runs = option("--runs", in: args).flatMap(Int.init) ?? 200
    let limit = option("--books", in: args).flatMap(Int.init) ?? 10_000
    let keep = option("--keep", in: args)
    let dir =
        keep.map { URL(fileURLWithPath: $0) }
        ?? FileManager.default.temporaryDirectory.appendingPathComponent(
            "bts-library-bench-\(UUID().uuidString.prefix(8))"
        )
    defer { if keep == nil { try? FileManager.default.removeItem(at: dir) } }
    do {
        let catalog = try CatalogResourceTSV.decode(data: try SQLiteCatalog.bundledResource()).prefix(limit)
        let tags = ["fantasy", "classics", "book-club", "favorites", "sci-fi", "mystery", "non-fiction", "ya"]
        let notes = [
            "Reread with the book club; loved the ending.", "Slow start, great second half.",
            "Gift from my sister", "Borrowed from the library", "Audiobook on the commute",
        ]
        let rows: [ImportedBook] = catalog.enumerated().map { i, b in
            let shelf: Shelf = [.read, .toRead, .currentlyReading, .read, .didNotFinish][i % 5]
            return ImportedBook(
                row: i + 1,
                data: BookData(
                    title: b.title,
                    authors: b.authors,
                    isbn: b.isbn13 ?? b.isbn10,
                    series: b.series,
                    seriesNumber: b.seriesNumber,
                    originalYear: b.year,
                    language: b.language,
                    coverURL: b.imageURL,
                    averageRating: b.averageRating
                ),
                reading: ReadingFields(
                    shelf: shelf,
                    tags: [tags[i % tags.count], tags[(i / 8) % tags.count]],
                    rating: i % 6 == 0 ? nil : Double(i % 5 + 1),
                    dateRead: shelf == .read ? BookDate(year: 2010 + i % 15, month: i % 12 + 1, day: i % 28 + 1) : nil,
                    dateAdded: BookDate(year: 2009 + i % 15, month: i % 12 + 1, day: i % 28 + 1),
                    review: i % 4 == 0 ? notes[i % notes.count] : nil
                )
            )
        }
        let library = try BookLibrary(path: dir.appendingPathComponent("library.sqlite"))
        let clock = ContinuousClock()
        let t0 = clock.now
        let summary = try await library.importBooks(rows, from: .importFile("catalog.tsv"))
        let built = clock.now - t0
        let count = try await library.count()
        print("library: \(count) books (\(summary)) built in \(String(format: "%.2f", ms(built) / 1000)) s")
        print("full-text search, limit 50 (books loaded with authors, tags, provenance), \(runs) runs per query:")
        print(
            "  " + "query".padding(toLength: 22, withPad: " ", startingAt: 0)
                + "  hits    median       p99   cpu median"
        )
        let queries = [
            "harry potter", "hunger games", "tolkien", "the", "love", "war and peace", "king", "agatha christie",
            "fantasy", "book club ending", "pride prejudice", "game of thrones", "a", "zzzz nothing",
        ]
        var medians: [Double] = []
        var all: [Double] = []
        for q in queries {
            var times: [Double] = []
            var cpu: [Double] = []
            var hits = 0
            for i in 0..<(runs + 5) {
                let start = clock.now
                let cpu0 = processCPU()
                let found = try await library.search(q, limit: 50)
                let t = ms(clock.now - start)
                if i >= 5 {
                    times.append(t)
                    cpu.append(processCPU() - cpu0)
                }
                hits = found.count
            }
            times.sort()
            cpu.sort()
            all += times
            medians.append(percentile(times, 0.5))
            let name = "'\(q)'".padding(toLength: 22, withPad: " ", startingAt: 0)
            print(
                "  \(name)  \(String(format: "%4d", hits))  \(String(format: "%7.2f ms", percentile(times, 0.5)))  \(String(format: "%7.2f ms", percentile(times, 0.99)))  \(String(format: "%7.2f ms", percentile(cpu, 0.5)))"
            )
        }
        all.sort()
        print(
            "  all queries: median \(String(format: "%.2f", percentile(all, 0.5))) ms, p99 \(String(format: "%.2f", percentile(all, 0.99))) ms (anchor: the 20 ms target); wall times, load average \(loadAverage())"
        )
        var other: [(String, Double)] = []
        for (name, body) in [
            (
                "list shelf=read sort=title (all)",
                { _ = try await library.list(LibraryFilter(shelf: .read), sort: LibrarySort(.title)) }
            ),
            ("stats", { _ = try await library.stats() }),
            ("holdings of 100 ISBNs", { _ = try await library.holdings(of: catalog.prefix(100).compactMap(\.isbn13)) }),
            ("export Goodreads CSV (all)", { _ = try await library.exportGoodreads() }),
        ] as [(String, () async throws -> Void)] {
            var times: [Double] = []
            for _ in 0..<max(5, runs / 20) {
                let start = clock.now
                try await body()
                times.append(ms(clock.now - start))
            }
            times.sort()
            other.append((name, percentile(times, 0.5)))
        }
        for (name, median) in other {
            print(
                "  \(name.padding(toLength: 36, withPad: " ", startingAt: 0)) median \(String(format: "%8.2f", median)) ms"
            )
        }
    } catch {
        fail("\(error)")
    }
}

/// TAB completion from the catalog (`search author "tolk<TAB>`): one lookup of authors or titles per
/// typed prefix, as the shell makes it (at most ``SQLiteCatalog/completionLimit`` answers), median and
/// p99 per kind beside the 100 ms under which an answer feels instant.
func completion(_ args: [String]) {
    let runs = option("--runs", in: args).flatMap(Int.init) ?? 200
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
        "bts-completion-bench-\(UUID().uuidString.prefix(8))"
    )
    defer { try? FileManager.default.removeItem(at: cache) }
    let catalog: SQLiteCatalog
    do {
        let started = ContinuousClock.now
        catalog = try SQLiteCatalog.open(cacheDirectory: cache)
        print(
            String(
                format: "catalog built in %.1f s (once per catalog; TAB never builds it)",
                ms(ContinuousClock.now - started) / 1000
            )
        )
    } catch {
        fail("cannot open the catalog: \(error)")
    }
    let limit = SQLiteCatalog.completionLimit
    let authors = ["t", "to", "tolk", "j.r", "king", "rowl", "gai", "austen", "le guin", "xyzq"]
    let titles = ["the", "a", "harry", "hun", "lord of", "dune", "pride and", "zzzz"]
    print("load average: \(loadAverage())")
    print("first answer for 'tolk': \(catalog.authorCompletions("tolk", limit: limit).first ?? "none")")
    for (kind, prefixes, lookup) in [
        ("authors", authors, { catalog.authorCompletions($0, limit: limit) }),
        ("titles", titles, { catalog.titleCompletions($0, limit: limit) }),
    ] as [(String, [String], (String) -> [String])] {
        var times: [Double] = []
        for _ in 0..<runs {
            for prefix in prefixes {
                let started = ContinuousClock.now
                _ = lookup(prefix)
                times.append(ms(ContinuousClock.now - started))
            }
        }
        times.sort()
        print(
            String(
                format:
                    "completion %@: median %.2f ms, p99 %.2f ms over %d lookups of %d prefixes (anchor: 100 ms feels instant)",
                kind,
                percentile(times, 0.5),
                percentile(times, 0.99),
                times.count,
                prefixes.count
            )
        )
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "write" {
    await writer(arguments)
} else if arguments.first == "completion" {
    completion(arguments)
} else if arguments.first == "--help" || arguments.first == "-h" {
    print(
        "usage: bts-library-bench [--books N] [--runs R] [--keep DIR] | completion [--runs R] | write --db PATH --prefix DIGIT --count N [--shared N]"
    )
} else {
    await bench(arguments)
}
