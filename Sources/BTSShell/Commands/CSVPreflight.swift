import BTSLanguage
import BTSTerminalText
import BooksTrackClient
import BooksTrackContract
import Foundation

/// The local checks of `import FILE.csv`, before any request.
enum CSVPreflight {
    static let maxBytes = JobLimits.maxCSVBytes

    /// With `columns`, the header must name a column the server's import identifies books by
    /// (`import`; `library import` checks for an export's own headers instead).
    static func check(
        _ url: URL,
        shownAs path: String,
        range: SourceRange?,
        columns requiresColumns: Bool = false
    ) throws(ShellError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ShellError(.usage, "cannot import '\(path)': no such file", range: range)
        }
        guard !isDirectory.boolValue else {
            throw ShellError(.usage, "cannot import '\(path)': it is a directory", range: range)
        }
        guard manager.isReadableFile(atPath: url.path), let handle = FileHandle(forReadingAtPath: url.path) else {
            throw ShellError(.usage, "cannot import '\(path)': permission denied", range: range)
        }
        defer { try? handle.close() }
        let size = (try? manager.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxBytes else {
            throw ShellError(
                .usage,
                String(
                    format:
                        "cannot import '\(path)': it is %.1f MB; the server accepts at most \(JobLimits.maxCSVSize)",
                    Double(size) / 1_048_576
                ),
                range: range,
                code: .fileTooLarge
            )
        }
        guard size > 0 else { throw ShellError(.usage, "cannot import '\(path)': the file is empty", range: range) }
        if let problem = TextFileCheck.problem(inFileAt: url) {
            throw ShellError(.usage, "cannot import '\(path)': \(problem.message)", range: range, code: .notText)
        }
        let head = (try? handle.read(upToCount: 65_536)) ?? Data()
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let header = lines.first else {
            throw ShellError(.usage, "cannot import '\(path)': no CSV header row", range: range)
        }
        let columns = fieldCount(header)
        guard columns >= 2 else {
            throw ShellError(
                .usage,
                "cannot import '\(path)': the first line is not a CSV header with at least 2 columns (found \(columns): '\(header.prefix(60))')",
                range: range
            )
        }
        // The server's own list of accepted columns (BooksTrackContract.CSVImportColumn): a file it
        // would refuse is refused here, before a job starts.
        let names = fields(header).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard
            !requiresColumns
                || names.contains(where: {
                    CSVImportColumn.recognise($0).map(CSVImportColumn.identifying.contains) ?? false
                })
        else {
            let found = names.prefix(12).map { "'\(TerminalText.sanitize(String($0.prefix(40)), lines: .flatten))'" }
                .joined(separator: ", ")
            throw ShellError(
                .usage,
                "cannot import '\(path)': no title or ISBN column: the header must name one of \(CSVImportColumn.identifyingHeaders) (found \(found)\(names.count > 12 ? ", …" : ""))",
                range: range,
                code: .csvColumns
            )
        }
        guard lines.count >= 2 else {
            throw ShellError(.usage, "cannot import '\(path)': the CSV has a header but no data rows", range: range)
        }
    }

    /// The file line (1-based) on which each CSV record starts: the header's is 1, data row N's
    /// is `[N]`. A quoted field may hold line breaks (a Goodreads review), so row N is not always
    /// line N + 1.
    static func recordLines(_ data: Data) -> [Int] {
        var starts = [1]
        var line = 1
        var quoted = false
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            if byte == UInt8(ascii: "\"") { quoted.toggle() }
            if byte == 10 {
                line += 1
                let next = data.index(after: index)
                if !quoted, next < data.endIndex { starts.append(line) }
            }
            index = data.index(after: index)
        }
        return starts
    }

    /// Fields in one CSV line (commas outside double quotes).
    static func fieldCount(_ line: String) -> Int {
        fields(line).count
    }

    /// The fields of one CSV line: commas outside double quotes split, quotes removed (`""` is `"`).
    static func fields(_ line: String) -> [String] {
        var result: [String] = []
        var current = ""
        var quoted = false
        var previousWasQuote = false
        for character in line {
            if character == "\"" {
                if !quoted, previousWasQuote {
                    current.append("\"")  // `""` inside a quoted field
                    quoted = true
                    previousWasQuote = false
                } else {
                    quoted.toggle()
                    previousWasQuote = !quoted
                }
                continue
            }
            previousWasQuote = false
            if character == ",", !quoted {
                result.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        result.append(current)
        return result
    }
}

extension ErrorCode {
    /// A file to import that is not text.
    static let notText: ErrorCode = "NOT_TEXT"
    /// A CSV header without a column the import identifies books by.
    static let csvColumns: ErrorCode = "CSV_COLUMNS"
}
