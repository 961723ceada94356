import BooksTrackClient
import BooksTrackContract
import Foundation
import Testing

/// What a job start sends, decided before anything is sent: ISBNs as ISBN-13, the books every
/// production version accepts, and the largest batch let through.
@Suite struct JobLauncherRulesTests {
    static let duneTen = "0441172717"
    static let duneThirteen = "9780441172719"

    @Test func isbnsGoAsThirteenDigitsInOrder() throws {
        #expect(try JobLauncher.isbn13s([Self.duneTen, "978-0-439-02348-1"]) == [Self.duneThirteen, "9780439023481"])
        #expect(try JobLauncher.isbn13s([]) == [])
        #expect(try JobLauncher.parsedISBN(Self.duneTen).isbn13 == Self.duneThirteen)
    }

    @Test func theFirstBadISBNIsNamed() {
        do {
            _ = try JobLauncher.isbn13s([Self.duneTen, "12345", "nope"])
            Issue.record("a bad ISBN was let through")
        } catch {
            #expect(error.code == .invalidISBN)
            #expect(error.detail.hasPrefix("12345: "))
        }
    }

    @Test func aV3BatchNeedsAnISBNOnEveryBook() throws {
        let books = [BatchBook(title: "Dune", isbn: Self.duneTen), BatchBook(title: "", isbn: "9780439023481")]
        #expect(try JobLauncher.v3ISBNs(books) == [Self.duneThirteen, "9780439023481"])
        do {
            _ = try JobLauncher.v3ISBNs([BatchBook(title: "Dune", isbn: Self.duneTen), BatchBook(title: "Emma")])
            Issue.record("a book without an ISBN was let through")
        } catch {
            #expect(error.code == .invalidISBN)
            #expect(error.message.contains("'Emma'"))
        }
    }

    @Test func anISBNOnlyBookCarriesItsISBNAsTitle() {
        #expect(JobLauncher.titled(BatchBook(title: " ", isbn: "9780439023481")).title == "9780439023481")
        #expect(JobLauncher.titled(BatchBook(title: "Dune", isbn: Self.duneThirteen)).title == "Dune")
        #expect(JobLauncher.titled(BatchBook(title: "", isbn: "")).title == "")
        #expect(JobLauncher.titled(BatchBook(title: "")).title == "")
    }

    @Test func anISBNTenBecomesThirteenAndSoDoesATitleThatWasIt() {
        let titled = JobLauncher.thirteen(BatchBook(title: Self.duneTen, isbn: Self.duneTen))
        #expect(titled == BatchBook(title: Self.duneThirteen, isbn: Self.duneThirteen))
        let named = JobLauncher.thirteen(BatchBook(title: "Dune", author: "Frank Herbert", isbn: Self.duneTen))
        #expect(named == BatchBook(title: "Dune", author: "Frank Herbert", isbn: Self.duneThirteen))
        let unparsable = BatchBook(title: "Odd", isbn: "not an isbn")
        #expect(JobLauncher.thirteen(unparsable) == unparsable)
    }

    @Test func anAdvertisedLimitNeverRefusesLessThanTheDocumentedOne() {
        #expect(JobLauncher.maxBatchItems(advertised: nil) == JobLimits.maxBatchSize)
        #expect(JobLauncher.maxBatchItems(advertised: 50) == JobLimits.maxBatchSize)
        #expect(JobLauncher.maxBatchItems(advertised: JobLimits.maxBatchSize + 400) == JobLimits.maxBatchSize + 400)
    }
}
