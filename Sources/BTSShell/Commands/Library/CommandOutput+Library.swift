import BooksTrackClient
import BooksTrackContract
import BooksTrackLibrary
import Foundation

/// Finished jobs and enrichments go into the library: an import's books are saved (merged by
/// ISBN, with the user's columns of the local export file when the session still knows it); an
/// enrichment refreshes the books already there. The summary says what changed *in the library*.
extension CommandOutput {
    /// `jobResults` plus the library: `{…, library: {created, updated, alreadyThere, skipped}}`.
    static func savedJobResults(
        _ results: JobResults,
        jobID: String,
        record: SessionJob?,
        in context: isolated any CommandContext
    ) async throws -> CommandOutput {
        let recordLines = record?.file.flatMap { FileManager.default.contents(atPath: $0) }
            .flatMap { $0.count <= CSVPreflight.maxBytes ? CSVPreflight.recordLines($0) : nil }
        var output = CommandOutput.jobResults(results, jobID: jobID, recordLines: recordLines)
        let library: BookLibrary
        do {
            library = try context.library()
        } catch {
            throw ShellError(
                error.status,
                "job \(SessionJob.displayID(jobID)) finished, but " + error.message
                    + " ('results \(SessionJob.displayID(jobID))' saves its books once that is fixed)",
                code: error.code
            )
        }
        let summary: SaveSummary
        var note = ""
        do {
            switch results {
            case .csvImport(let imported):
                let rows = Self.exportRows(record, in: context)
                summary = try await library.importJob(imported, jobID: jobID, rows: rows)
                // Why the library's count can differ from the server's: the library keeps every
                // row of the file (a row the server could not match, from the file's own columns;
                // a row the server took for a duplicate, as the edition it names).
                if !rows.isEmpty, rows.count != imported.booksCreated {
                    note = " (each of the file's \(rows.count) rows; the server's counts above are its catalog's)"
                }
            case .batch(let items):
                summary = try await library.refresh(BookData.books(items), from: .enrichment("batch \(jobID)"))
            case .scan:
                // A scan's books are saved only when asked (`scan … --save`, or `save` on its result).
                return output
            }
        } catch {
            throw ShellError(
                .failure,
                "job \(SessionJob.displayID(jobID)) finished, but its books could not be saved to your library: \(error.message) ('results \(SessionJob.displayID(jobID))' saves them again)",
                code: .libraryError
            )
        }
        context.libraryChanged()
        output.addLibrary(
            summary,
            refreshOnly: { if case .batch = results { return true } else { return false } }(),
            note: note
        )
        return output
    }

    /// A single enrichment, refreshing the book when it is in the library.
    static func savedEnrichment(_ book: EnrichedBook, in context: isolated any CommandContext) async -> CommandOutput {
        var output = CommandOutput.enriched(book)
        guard let library = try? context.library(),
            let summary = try? await library.refresh([BookData(book)], from: .enrichment(book.provider))
        else { return output }
        if summary.updated > 0 || summary.alreadyThere > 0 {
            context.libraryChanged()
            output.value = output.value.adding("library", summary.json)
            output.view = .sections([
                output.view,
                .text(summary.updated > 0 ? "Updated in your library." : "Already up to date in your library."),
            ])
        }
        return output
    }

    /// The rows of the export file the job was started from, when it is still readable
    /// (Goodreads and StoryGraph columns: shelves, ratings, dates…); none otherwise.
    static func exportRows(_ record: SessionJob?, in context: isolated any CommandContext) -> [ImportedBook] {
        guard let path = record?.file, let data = FileManager.default.contents(atPath: path),
            data.count <= CSVPreflight.maxBytes
        else { return [] }
        do {
            let file = try ExportReader.read(data)
            return file.books
        } catch {
            context.output.warn(
                "could not read your columns from \(path) again (\(error.message)); saving the server's books only"
            )
            return []
        }
    }

    mutating func addLibrary(_ summary: SaveSummary, refreshOnly: Bool, note: String = "") {
        value = value.adding("library", summary.json)
        let text =
            refreshOnly
            ? "library: \(summary.updated) updated, \(summary.alreadyThere) already up to date, \(summary.skipped) not in your library"
            : "library: \(summary)" + note
        view = .sections([view, .text(text)])
    }
}

extension JSONValue {
    /// This object with `key` set (other values are returned as they are).
    func adding(_ key: String, _ member: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = member
        return .object(members)
    }
}
