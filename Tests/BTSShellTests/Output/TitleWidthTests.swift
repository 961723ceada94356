import BTSLanguage
import BTSTerminalText
import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// Titles yield last: at 80 columns `library list` gave TITLE 13 characters,
/// `recommend` at 120 TITLE 16 beside a whole REASON and an `IN LIBRARY false` column.
@Suite("title width")
struct TitleWidthTests {
    static let potter = [
        "Harry Potter and the Sorcerer's Stone (Harry Potter, #1)",
        "Harry Potter and the Chamber of Secrets (Harry Potter, #2)",
        "Harry Potter and the Prisoner of Azkaban (Harry Potter, #3)",
    ]

    /// The width of the TITLE column in a rendered table (its dashes under the header).
    static func titleWidth(_ table: String) throws -> Int {
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.first)
        let rule = try #require(lines.dropFirst().first)
        let start = try #require(header.range(of: "TITLE")).lowerBound
        let offset = header.distance(from: header.startIndex, to: start)
        return rule.dropFirst(offset).prefix { $0 == "-" }.count
    }

    static func render(_ output: CommandOutput, width: Int) -> String {
        ResultRenderer(format: .table, width: width).render(output.value, view: output.view)
    }

    @Test func libraryListAt80GivesTheTitleAThird() throws {
        let books: [JSONValue] = Self.potter.enumerated().map { index, title in
            .record([
                ("id", (index + 1).json), ("isbn", "978043955493\(index)".json), ("title", title.json),
                ("authors", ["J.K. Rowling", ["Mary GrandPré", "Jim Kay", "Olly Moss"][index]].json),
                ("shelf", ["currently-reading", "read", "to-read"][index].json),
                ("stars", String(repeating: "★", count: 5 - index).json), ("dateRead", "2024-03-0\(index + 1)".json),
            ])
        }
        let value = JSONValue.record([("count", 3.json), ("total", 3.json), ("books", .array(books))])
        let view = ResultView.table(columns: LibraryCommand.bookColumns, rowsKey: "books", footer: nil, empty: nil)
        let table = ResultRenderer(format: .table, width: 80).render(value, view: view)
        for line in table.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 80, "\(table)") }
        #expect(try Self.titleWidth(table) >= 26, "\(table)")
        #expect(table.contains("Harry Potter and the Chamber"), "\(table)")
        // The ID still names each book; the ISBN (optional) made room for the title.
        #expect(table.hasPrefix("ID  TITLE"), "\(table)")
        // At 200 columns nothing is dropped or cut.
        let wide = ResultRenderer(format: .table, width: 200).render(value, view: view)
        #expect(wide.contains("ISBN") && wide.contains("READ") && wide.contains(Self.potter[2]), "\(wide)")
    }

    @Test func recommendAt120GivesTheTitleItsShareBeforeTheReason() throws {
        let reason = "Because readers who shelved your books also shelved this one, rated 4.4"
        let rows: [JSONValue] = Self.potter.enumerated().map { index, title in
            .record([
                ("isbn", "978043955493\(index)".json), ("title", title.json),
                ("authors", ["J.K. Rowling", "Mary GrandPré"].json), ("reason", reason.json), ("score", .number(0.9)),
            ])
        }
        let weekly = CommandOutput(
            value: .record([("results", .array(rows))]),
            view: .table(
                columns: [
                    TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("authors", "AUTHORS", flexible: true),
                    TableColumn("reason", "REASON", prefersWhole: true),
                ],
                rowsKey: "results",
                footer: nil,
                empty: nil
            )
        )
        let table = Self.render(weekly, width: 120)
        for line in table.split(separator: "\n") { #expect(DisplayWidth.of(String(line)) <= 120, "\(table)") }
        #expect(try Self.titleWidth(table) >= 40, "\(table)")
        let narrow = Self.render(weekly, width: 80)
        #expect(try Self.titleWidth(narrow) >= 26, "\(narrow)")
    }

    /// At 60 columns `recommend` gave TITLE 11 characters beside AUTHORS and REASON, and its footer
    /// broke mid-word ("fro / m") where the terminal wrapped it.
    @Test func recommendAt60KeepsTheTitleReadableAndWrapsTheFooterAtSpaces() throws {
        let rows: [JSONValue] = Self.potter.enumerated().map { index, title in
            .record([
                ("isbn", "978043955493\(index)".json), ("title", title.json),
                ("authors", ["J.K. Rowling"].json), ("reason", "Rated 4.4 by 1,200,000 readers".json),
            ])
        }
        let footer =
            "(week of 2026-11-23: this week's picks for everyone, not from your library; 'recommend --library' recommends for it)"
        let weekly = CommandOutput(
            value: .record([("results", .array(rows))]),
            view: .table(
                columns: [
                    TableColumn("isbn", "ISBN"), .bookTitle, TableColumn("authors", "AUTHORS", flexible: true),
                    TableColumn("reason", "REASON", prefersWhole: true),
                ],
                rowsKey: "results",
                footer: footer,
                empty: nil
            )
        )
        let table = Self.render(weekly, width: 60)
        let lines = table.split(separator: "\n").map(String.init)
        for line in lines { #expect(DisplayWidth.of(line) <= 60, "\(table)") }
        #expect(try Self.titleWidth(table) >= 20, "\(table)")
        // The footer's words stay whole: joined back, its lines are the footer.
        let footerLines = lines.drop { !$0.hasPrefix("(week of") }
        #expect(footerLines.count == 2, "\(table)")
        #expect(footerLines.joined(separator: " ") == footer, "\(table)")
    }

    /// `IN LIBRARY` shows only the held books; a column false in every row takes no room.
    @Test func aFalseMarkIsBlankAndAnAllFalseColumnIsGone() {
        let column = TableColumn("inLibrary", "IN LIBRARY", format: .mark)
        let view = ResultView.table(columns: [.bookTitle, column], rowsKey: "results", footer: nil, empty: nil)
        let none = JSONValue.record([
            (
                "results",
                .array([
                    .record([("title", "Dune".json), ("inLibrary", .bool(false))])
                ])
            )
        ])
        let some = JSONValue.record([
            (
                "results",
                .array([
                    .record([("title", "Dune".json), ("inLibrary", .bool(false))]),
                    .record([("title", "Emma".json), ("inLibrary", .bool(true))]),
                ])
            )
        ])
        let hidden = ResultRenderer(format: .table, width: 120).render(none, view: view)
        #expect(!hidden.contains("IN LIBRARY") && !hidden.contains("false"), "\(hidden)")
        let shown = ResultRenderer(format: .table, width: 120).render(some, view: view)
        #expect(shown.contains("IN LIBRARY") && !shown.contains("false"), "\(shown)")
        #expect(shown.contains("Emma   yes"), "\(shown)")
        // CSV keeps the value.
        let csv = ResultRenderer(format: .csv).render(some, view: view)
        #expect(csv == "title,inLibrary\nDune,false\nEmma,true\n", "\(csv)")
    }

    /// `similar --library`: six Harry Potter rows read apart at 80 columns.
    @Test func similarLibraryRowsReadApartAt80() throws {
        let rows: [JSONValue] = Self.potter.map { title in
            .record([
                ("isbn", "9780439554930".json), ("title", title.json), ("authors", ["J.K. Rowling"].json),
                ("score", .number(0.42)), ("because", "The Hobbit, or There and Back Again".json),
            ])
        }
        let view = ResultView.table(
            columns: [
                TableColumn("isbn", "ISBN"), .bookTitle,
                TableColumn("authors", "AUTHORS", flexible: true),
                .number("score", "SCORE", decimals: 3).optional(1),
                TableColumn("because", "LIKE", flexible: true),
            ],
            rowsKey: "results",
            footer: nil,
            empty: nil
        )
        let table = ResultRenderer(format: .table, width: 80).render(.record([("results", .array(rows))]), view: view)
        #expect(try Self.titleWidth(table) >= 26, "\(table)")
        #expect(table.contains("Harry Potter and the Chamb"), "\(table)")
    }
}
