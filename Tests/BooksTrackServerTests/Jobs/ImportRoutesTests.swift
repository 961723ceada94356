import BooksTrackContract
import BooksTrackServer
import Foundation
import NIOHTTP1
import Testing

@Suite("CSV import routes", .onWorkThreads, .timeLimit(.minutes(TestTime.minutes(10))))
struct ImportRoutesTests {
    /// A Goodreads library export: its real header row, `="…"` ISBNs, a duplicate, a row whose ISBN is
    /// not in the catalog but whose title is, an unknown book, an empty-ISBN row matched by title,
    /// and a bad ISBN checksum without a matching title.
    static let goodreads =
        CSVImportParserTests.goodreadsHeader + "\n"
        + [
            #"2767052,"The Hunger Games (The Hunger Games, #1)",Suzanne Collins,"Collins, Suzanne",,"=""0439023483""","=""9780439023481""",5,4.34,Scholastic Press,Hardcover,374,2008,2008,2020/01/02,2019/12/01,,,read,,,,1,0"#,
            #"3,"Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",J.K. Rowling,"Rowling, J.K.","Mary GrandPré","=""0439554934""","=""9780439554930""",4,4.44,Scholastic Inc,Paperback,309,2003,1997,,2019/12/02,,,read,,,,1,0"#,
            #"2767052,"The Hunger Games (The Hunger Games, #1)",Suzanne Collins,"Collins, Suzanne",,"=""0439023483""","=""9780439023481""",5,4.34,Scholastic Press,Hardcover,374,2008,2008,,2019/12/03,,,to-read,,,,0,0"#,
            #"41865,"Twilight (Twilight, #1)",Stephenie Meyer,"Meyer, Stephenie",,"=""0000000000""","=""9781234567897""",2,3.57,Little Brown,Paperback,501,2006,2005,,2019/12/04,,,read,,,,1,0"#,
            #"999,"A Book Nobody Has",Nobody,"Nobody, A",,"=""""","=""""",0,3.00,X,Paperback,10,2001,2001,,2019/12/05,,,to-read,,,,0,0"#,
            #"5107,"The Catcher in the Rye",J.D. Salinger,"Salinger, J.D.",,"=""""","=""""",3,3.80,Back Bay,Paperback,277,2001,1951,,2019/12/06,,,read,,,,1,0"#,
            #"1000,"Unknown Title",Someone,"Someone, A",,"=""0439023484""","=""""",0,3.00,X,Paperback,10,2001,2001,,2019/12/07,,,to-read,,,,0,0"#,
        ].joined(separator: "\n") + "\n"

    @Test func goodreadsExportEndToEnd() async throws {
        try await withJobServer { server in
            let accepted = try await uploadCSV(server, Self.goodreads)
            #expect(accepted.status == 202)
            let data = try accepted.data()
            let id = try #require(data["jobId"]?.stringValue)
            #expect(data["sseUrl"]?.stringValue == "/api/v2/imports/\(id)/stream")
            #expect(data["statusUrl"]?.stringValue == "/api/v2/imports/\(id)")
            #expect(data["authToken"]?.stringValue?.count == 64)
            #expect(data["token"] == data["authToken"])
            #expect(try accepted.json()["success"] == .bool(true))

            let record = try await waitForEnd(server.engine, id)
            #expect(record.status == .completed)

            let status = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)")
            let s = try JSONCoding.decoder().decode(JobStatus.self, from: JSONEncoder().encode(try status.data()))
            #expect(s.status == .completed && s.progress == 1 && s.processedCount == 7 && s.totalCount == 7)
            #expect(s.pipeline == .csvImport && s.completedTime != nil && s.startTime > 0)

            for path in ["/api/v2/imports/\(id)/results", "/v1/jobs/\(id)/results"] {
                let response = try await httpRequest(.GET, server.base + path)
                #expect(response.status == 200)
                let results = try JSONCoding.decoder().decode(
                    ImportResults.self,
                    from: JSONEncoder().encode(try response.data())
                )
                #expect(results.booksCreated == 4)
                #expect(results.duplicatesSkipped == 1)
                #expect(results.booksUpdated == 0)
                #expect(results.enrichmentSucceeded == 4)
                #expect(results.enrichmentFailed == 2)
                #expect(results.errors.map(\.row) == [5, 7])
                #expect(results.errors[0].isbn == "")
                #expect(results.errors[0].error == "no catalog match for title 'A Book Nobody Has' by 'Nobody'")
                #expect(results.errors[1].isbn == "0439023484")
                #expect(results.errors[1].error.hasPrefix("invalid ISBN '0439023484': ISBN checksum is wrong"))
                #expect(
                    results.books.map(\.title) == [
                        "The Hunger Games (The Hunger Games, #1)",
                        "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
                        "Twilight (Twilight, #1)", "The Catcher in the Rye",
                    ]
                )
                let first = results.books[0]
                #expect(first.isbn == "9780439023481" && first.isbn13 == "9780439023481")
                #expect(first.authors == ["Suzanne Collins"])
                #expect(first.publishedDate == "2008" && first.language == "en")
                #expect(first.coverUrl == "https://images.example/1.jpg")
                #expect(first.publisher == "Scholastic Press" && first.pageCount == 374)
            }
        }
    }

    @Test func genericCSVEndToEnd() async throws {
        let csv = """
            Title,Author,ISBN
            The Hobbit,J.R.R. Tolkien,0-618-26030-7
            Pride and Prejudice,Jane Austen,
            "The Great Gatsby",F. Scott Fitzgerald,9780743273565
            Dune,Frank Herbert,
            1984,George Orwell,0451524934
            The Hobbit,Tolkien,9780618260300
            ,,9780316769174
            ,,
            ,,12345

            """
        try await withJobServer { server in
            let results = try await importedResults(server, csv)
            #expect(results.booksCreated == 5)
            #expect(results.duplicatesSkipped == 1)
            #expect(
                results.errors == [
                    ImportRowError(row: 4, isbn: "", error: "no catalog match for title 'Dune' by 'Frank Herbert'"),
                    ImportRowError(
                        row: 8,
                        isbn: "12345",
                        error: "invalid ISBN '12345': ISBN must have 10 or 13 digits, got 5"
                    ),
                ]
            )
            #expect(
                results.books.map(\.isbn13) == [
                    "9780618260300", "9780679783268", "9780743273565", "9780451524935", "9780316769174",
                ]
            )
        }
    }

    /// One short row is a row error in the results; the other rows are imported.
    @Test func aShortRowIsARowErrorNotAFailedJob() async throws {
        let csv = "Title,Author,ISBN\nThe Hunger Games,Suzanne Collins,9780439023481\nCatching Fire,Suzanne Collins\n"
        try await withJobServer { server in
            let results = try await importedResults(server, csv)
            #expect(results.booksCreated == 1)
            #expect(
                results.errors == [ImportRowError(row: 2, isbn: "", error: "the row has 2 fields but the header has 3")]
            )
        }
    }

    static let malformed: [(String, String)] = [
        ("", "the file is empty"),
        ("Title,Author\n", "the file has a header row but no data rows"),
        ("Title,Author\n\"Open,B\n", "unbalanced quotes: the quoted field that starts on line 2 is never closed"),
        (
            "Title\nDune\n",
            "the header row has only 1 column; an import needs at least 2 (for example Title and Author)"
        ),
        (
            "Name,Writer\nDune,Herbert\n",
            "no title or ISBN column: the header must name one of Title, Book Title, ISBN, ISBN13 or ISBN/UID (found 'Name', 'Writer')"
        ),
        (
            "Title,Author\n" + String(repeating: "T,A\n", count: 10_001),
            "the file has 10,001 data rows; at most 10,000 can be imported at once"
        ),
    ]

    @Test(arguments: 0..<malformed.count)
    func malformedCSVFailsTheJob(_ index: Int) async throws {
        let (csv, message) = Self.malformed[index]
        try await withJobServer { server in
            let accepted = try await uploadCSV(server, csv)
            #expect(accepted.status == 202)
            let id = try #require(try accepted.data()["jobId"]?.stringValue)
            let record = try await waitForEnd(server.engine, id)
            #expect(record.status == .failed)
            let status = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)")
            let data = try status.data()
            #expect(data["status"] == "failed")
            #expect(data["error"]?["code"] == "E_CSV_PROCESSING_FAILED")
            #expect(data["error"]?["message"]?.stringValue == message)
            #expect(data["error"]?["retryable"] == .bool(false))
            let results = try await httpRequest(.GET, server.base + "/api/v2/imports/\(id)/results")
            #expect(results.status == 404)
            #expect(try results.errorCode() == "NOT_FOUND")
        }
    }

    @Test func fileOverEightMegabytesIs413() async throws {
        try await withJobServer { server in
            let header = Array("Title,Author\n".utf8)
            let filler = [UInt8](repeating: UInt8(ascii: "a"), count: JobLimits.maxCSVBytes + 1 - header.count)
            let form = multipart(content: header + filler)
            let response = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", form.contentType)],
                body: form.body
            )
            #expect(response.status == 413)
            #expect(try response.errorCode() == "FILE_TOO_LARGE")
            #expect(response.header("X-Error-Type") == "FILE_TOO_LARGE")

            // A raw body over the limit is refused from its Content-Length, before it is parsed.
            let raw = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", "text/csv")],
                body: [UInt8](repeating: UInt8(ascii: "a"), count: JobLimits.maxCSVBytes + 1024 * 1024)
            )
            #expect(raw.status == 413)
            #expect(try raw.errorCode() == "FILE_TOO_LARGE")
        }
    }

    @Test func fileExactlyAtTheLimitIsAccepted() async throws {
        try await withJobServer(configure: { $0.maxCSVBytes = 4096 }) { server in
            let header = Array("Title,Author\n".utf8)
            let row = Array("The Hobbit,Tolkien\n".utf8)
            var content = header
            while content.count + row.count <= 4096 { content += row }
            content += [UInt8](repeating: UInt8(ascii: "\n"), count: 4096 - content.count)
            #expect(content.count == 4096)
            let exact = multipart(content: content)
            let ok = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", exact.contentType)],
                body: exact.body
            )
            #expect(ok.status == 202)
            let over = multipart(content: content + [UInt8(ascii: "\n")])
            let refused = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", over.contentType)],
                body: over.body
            )
            #expect(refused.status == 413)
            #expect(try refused.errorCode() == "FILE_TOO_LARGE")
        }
    }

    @Test func missingFilePartIs400() async throws {
        try await withJobServer { server in
            let form = multipart(name: "upload", content: Array("Title,Author\nA,B\n".utf8))
            let response = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", form.contentType)],
                body: form.body
            )
            #expect(response.status == 400)
            #expect(try response.errorCode() == "MISSING_PARAMETER")
            #expect(try response.json()["success"] == .bool(false))
            #expect(try response.json()["data"] == .null)

            let noBoundary = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", "multipart/form-data")],
                body: form.body
            )
            #expect(noBoundary.status == 400)
            #expect(try noBoundary.errorCode() == "INVALID_REQUEST")

            let json = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", "application/json")],
                body: Array("{}".utf8)
            )
            #expect(json.status == 400)
            #expect(try json.errorCode() == "INVALID_REQUEST")
        }
    }

    @Test func rawTextCSVBodyIsAccepted() async throws {
        try await withJobServer { server in
            let response = try await httpRequest(
                .POST,
                server.base + "/api/v2/imports",
                headers: [("Content-Type", "text/csv")],
                body: Array("Title,Author\nThe Hobbit,Tolkien\n".utf8)
            )
            #expect(response.status == 202)
        }
    }

    @Test func unknownJobIs404() async throws {
        try await withJobServer { server in
            for path in ["/api/v2/imports/nope", "/api/v2/imports/nope/results", "/v1/jobs/nope/results"] {
                let response = try await httpRequest(.GET, server.base + path)
                #expect(response.status == 404)
                #expect(try response.errorCode() == "NOT_FOUND")
            }
        }
    }

    @Test func tooManyConcurrentImportsIs429() async throws {
        try await withJobServer(configure: {
            $0.itemsPerSecond = 0.001  // held open: no item ends during the test
            $0.maxConcurrentJobsPerClient = 1
        }) { server in
            #expect(try await uploadCSV(server, "Title,Author\nA,B\nC,D\n").status == 202)
            let refused = try await uploadCSV(server, "Title,Author\nA,B\n")
            #expect(refused.status == 429)
            #expect(try refused.errorCode() == "RATE_LIMIT_EXCEEDED")
            #expect(refused.header("Retry-After") == "5")
            #expect(try refused.json()["error"]?["details"]?["reason"] == "concurrent_jobs")
            #expect(try await uploadCSV(server, "Title,Author\nA,B\n", client: "10.0.0.2").status == 202)
        }
    }

    /// Jobs were capped per client address only: 180 imports from 60 loopback addresses took the
    /// server from 71 MB to 2.17 GB. All clients together now run at most `maxConcurrentJobs`.
    @Test func jobsOfAllClientsTogetherAreBoundedWith503() async throws {
        try await withJobServer(configure: {
            $0.itemsPerSecond = 0.001  // held open: no item ends during the test
            $0.maxConcurrentJobsPerClient = 3
            $0.maxConcurrentJobs = 2
        }) { server in
            let csv = "Title,Author\nA,B\nC,D\n"
            #expect(try await uploadCSV(server, csv, client: "10.0.0.1").status == 202)
            #expect(try await uploadCSV(server, csv, client: "10.0.0.2").status == 202)
            let refused = try await uploadCSV(server, csv, client: "10.0.0.3")
            #expect(refused.status == 503)
            #expect(try refused.errorCode() == "SERVICE_UNAVAILABLE")
            #expect(refused.header("Retry-After") == "5")
            #expect(try refused.json()["error"]?["details"]?["reason"] == "server_jobs")
            #expect(
                try refused.json()["error"]?["message"]?.stringValue?.contains("as many jobs as it takes (2)") == true
            )
        }
    }
}
