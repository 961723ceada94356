import ArgumentParser
import BTSShell
import BooksTrackCatalog
import Foundation

/// `bts shelves-clean DIR OUT` (hidden): rebuilds the bundled shelves (`Resources/shelves.tsv`) from
/// goodbooks-10k's books.csv, book_tags.csv and tags.csv in DIR (`scripts/build-shelves`).
struct ShelvesCleanCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "shelves-clean",
        abstract: "Clean goodbooks-10k book_tags.csv and tags.csv into the bundled shelves TSV.",
        shouldDisplay: false
    )

    @ArgumentParser.Argument(help: "The goodbooks-10k directory (books.csv, book_tags.csv, tags.csv)")
    var input: String

    @ArgumentParser.Argument(help: "Where to write the cleaned shelves")
    var output: String

    static func start(_ arguments: [String]) throws -> Int32 { try parse(arguments).execute() }

    func execute() -> Int32 {
        Self.report(Self.name) {
            try ShelfCleaner.clean(directory: URL(fileURLWithPath: input), to: URL(fileURLWithPath: output))
        }
    }
}

extension ParsableCommand {
    /// Runs a data builder: its report on stderr and status 0, or `bts NAME: error: …` (the shell's
    /// reporter) and status 1.
    static func report(_ name: String, _ clean: () throws -> any CustomStringConvertible) -> Int32 {
        do {
            let report = try clean()
            FileHandle.standardError.write(Data("\(report)\n".utf8))
            return ExitStatus.ok.rawValue
        } catch {
            return ErrorReporter.write(ShellError(.failure, "\(error)"), origin: "bts \(name)")
        }
    }
}
