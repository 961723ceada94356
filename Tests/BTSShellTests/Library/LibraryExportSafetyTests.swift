import BTSShell
import BooksTrackContract
import Foundation
import Testing

/// `library export FILE` holds the user's private notes: it writes 0600, writes a link's target (the
/// link kept), never replaces what is not a regular file (a FIFO, a device: it put a regular file in
/// their place and reported success), and keeps spreadsheet formulas out of its cells.
@Suite("Library export: safe files and cells")
struct LibraryExportSafetyTests {
    static let books = """
        Title,Author,ISBN13,Exclusive Shelf,My Review,Private Notes
        "=HYPERLINK(""http://evil.example"",""x"")",+Anon,9780441172719,read,-1 star,@me
        Emma,Jane Austen,,to-read,,
        """

    @Test func theExportIsPrivateAndItsFormulasAreText() async throws {
        try await withShell { shell in
            try shell.write("in.csv", Self.books)
            #expect(await shell.run("library import in.csv\nlibrary export out.csv") == 0, "\(shell.err)")
            let out = shell.directory.appendingPathComponent("out.csv")
            let mode = try FileManager.default.attributesOfItem(atPath: out.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)
            let text = try String(contentsOf: out, encoding: .utf8)
            #expect(text.contains("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\""), "\(text)")
            #expect(text.contains(",'+Anon,"), "\(text)")
            #expect(text.contains(",'-1 star,"), "\(text)")
            #expect(text.contains(",'@me,"), "\(text)")
            #expect(text.contains("\"=\"\"9780441172719\"\"\""), "the ISBN cells stay Goodreads' formulas")
            // Read back, the cells are as they were.
            #expect(await shell.run("library import out.csv --output json") == 0, "\(shell.err)")
            #expect(await shell.lastResult()["library"]?["alreadyThere"]?.intValue == 2, "\(shell.out)")
        }
    }

    @Test func aLinkIsFollowedAndAFIFOIsNotReplaced() async throws {
        try await withShell { shell in
            try shell.write("in.csv", Self.books)
            #expect(await shell.run("library import in.csv") == 0, "\(shell.err)")
            let target = try shell.write("target.csv", "keep me\n")
            let link = shell.directory.appendingPathComponent("link.csv")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            // A link's target is written (the link stays a link), keeping only its owner's bits.
            #expect(chmod(target.path, 0o644) == 0)
            #expect(await shell.run("library export link.csv") == 0, "\(shell.err)")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
            #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("Book Id,Title,"))
            let mode = try FileManager.default.attributesOfItem(atPath: target.path)[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o600)

            let fifo = shell.directory.appendingPathComponent("fifo.csv")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            #expect(await shell.run("library export fifo.csv") == 2)
            #expect(shell.err.contains("it is a FIFO"), "\(shell.err)")
            let type = try FileManager.default.attributesOfItem(atPath: fifo.path)[.type] as? FileAttributeType
            #expect(type != .typeRegular)
            // Nothing left behind.
            let names = try FileManager.default.contentsOfDirectory(atPath: shell.directory.path)
            #expect(!names.contains { $0.contains(".tmp-") }, "\(names)")
        }
    }
}
