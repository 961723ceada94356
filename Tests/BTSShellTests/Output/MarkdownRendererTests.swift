import BooksTrackContract
import Testing

@testable import BTSShell

/// `-o markdown`: GitHub-flavoured pipe tables, whole and safe, for an issue or a note.
@Suite("markdown renderer")
struct MarkdownRendererTests {
    func markdown(_ value: JSONValue, _ view: ResultView) -> String {
        ResultRenderer(format: .markdown, colored: true, width: 20).render(value, view: view)
    }

    @Test func aTableIsAPipeTableWithNumbersRightAlignedAndItsFooterUnder() {
        #expect(
            markdown(RendererTests.value, RendererTests.view) == """
                | ISBN | TITLE | AUTHORS | YEAR | PAGES |
                | --- | --- | --- | ---: | ---: |
                | 9780439023481 | The Hunger Games | Suzanne Collins | 2008 | 374 |
                | 9780439023498 | Catching Fire, the second book of the "Hunger Games" trilogy | Suzanne Collins, A. N. Other | 2009 |  |

                (2 of 2 results)

                """
        )
    }

    @Test func cellsEscapeBarsFlattenLineBreaksAndNeutraliseControls() {
        let value: JSONValue = .record([
            (
                "results",
                .array([
                    .record([("isbn", "1".json), ("title", "a|b\nc\r\nd\u{1B}[31m\u{07}".json)])
                ])
            )
        ])
        let view = ResultView.table(
            columns: [TableColumn("isbn", "ISBN"), .bookTitle],
            rowsKey: "results",
            footer: nil,
            empty: nil
        )
        let text = markdown(value, view)
        #expect(text == "| ISBN | TITLE |\n| --- | --- |\n| 1 | a\\|b c d␛[31m␇ |\n", "\(text.debugDescription)")
    }

    @Test func nothingIsCutWhateverTheWidth() {
        let long = String(repeating: "word ", count: 60) + "end"
        let value: JSONValue = .record([("results", .array([.record([("title", long.json)])]))])
        let text = markdown(value, .table(columns: [.bookTitle], rowsKey: "results", footer: nil, empty: nil))
        #expect(text.contains(long))
        #expect(!text.contains("…") && !text.contains("\u{1B}"))
    }

    @Test func aRecordIsAFieldValueTable() {
        let value: JSONValue = .record([
            ("jobId", "job-1".json), ("status", "running".json), ("progress", .number(0.5)),
            ("reason", JSONValue.null),
        ])
        let view = ResultView.record(fields: [
            RecordField("jobId"), RecordField("status"),
            RecordField("progress", format: .percent), RecordField("reason"),
        ])
        #expect(
            markdown(value, view) == """
                | Field | Value |
                | --- | --- |
                | jobId | job-1 |
                | status | running |
                | progress | 50% |

                """
        )
    }

    @Test func sectionsComeEachUnderAHeading() {
        let value: JSONValue = .record([
            ("jobId", "job-1".json), ("errorCount", 1.json),
            ("errors", .array([.record([("row", 3.json), ("error", "bad | isbn".json)])])),
        ])
        let view = ResultView.sections([
            .record(fields: [RecordField("jobId"), RecordField("errorCount")]),
            .table(
                columns: [.number("row", "ROW"), TableColumn("error", "ERROR")],
                rowsKey: "errors",
                footer: nil,
                empty: nil
            ),
        ])
        #expect(
            markdown(value, view) == """
                ### Summary

                | Field | Value |
                | --- | --- |
                | jobId | job-1 |
                | errorCount | 1 |

                ### Errors

                | ROW | ERROR |
                | ---: | --- |
                | 3 | bad \\| isbn |

                """
        )
    }

    @Test func textAndEmptyTablesAreAsTheyAre() {
        #expect(markdown(.string("hello"), .text("# Title\nline\u{1B}")) == "# Title\nline␛\n")
        let empty = ResultView.table(columns: [.bookTitle], rowsKey: "results", footer: "(0)", empty: "No matches.")
        #expect(markdown(.record([("results", .array([]))]), empty) == "No matches.\n")
    }

    @Test func markdownIsOneOfTheFormatsEverywhereTheyAreListed() {
        #expect(OutputFormat.names.contains("markdown"))
        #expect(CommandRegistry.outputOption.help.hasSuffix("csv or markdown"))
        #expect(OutputFormat.forDestination(isTerminal: false, chosen: .markdown) == .markdown)
    }
}
