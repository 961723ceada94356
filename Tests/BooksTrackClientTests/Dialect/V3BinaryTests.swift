import BooksTrackClient
import BooksTrackContract
import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// A newcomer points the real `bts` binary at a server that speaks only v3 (production 3.4.3's
/// routes and bodies, `productionV3`): every command works, or says in one plain sentence what this
/// server does not offer (exit 1) — never "Book not found", "No matches", a decoding error or a trace.
@Suite(.serialized) struct V3BinaryTests {
    @Test(.enabled(if: BTSBinaryDialectTests.binary != nil, "no bts binary: swift build --product bts"))
    func everyCommandWorksOrSaysWhatIsNotOffered() async throws {
        let dir = try LiveJobTests.tempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("goodreads.csv")
        try LiveJobTests.csv(rows: 3).write(to: csv, atomically: true, encoding: .utf8)
        let hits = HitCounter()
        let seen = SynchronizedBox<[String]>([])
        try await TinyServer.with({ productionV3($0, hits: hits, seen: seen) }) { server in
            func run(_ args: [String]) async throws -> BTSBinaryDialectTests.Run {
                try await BTSBinaryDialectTests.bts(args, api: server.baseURL, in: dir, timeout: 60)
            }
            func expectOK(_ args: [String], _ check: (BTSBinaryDialectTests.Run) -> Bool = { _ in true }) async throws {
                let r = try await run(args)
                #expect(r.status == 0 && r.isClean && check(r), "bts \(args.joined(separator: " ")): \(r)")
            }
            func expectNotOffered(_ args: [String], _ what: String) async throws {
                let r = try await run(args)
                let said = r.stderr.contains("does not offer \(what)")
                #expect(r.status == 1 && r.isClean && said, "bts \(args.joined(separator: " ")): \(r)")
                #expect(!r.stderr.contains("Book not found") && !r.stderr.contains("No matches"), "\(r)")
            }
            try await expectOK(["-c", "caps"]) { $0.stdout.contains("\"api\":\"v3\"") && $0.stdout.contains("3.4.3") }
            try await expectOK(["-c", "search isbn 9780439023481"]) { $0.stdout.contains("The Hunger Games") }
            try await expectOK(["-c", "search isbn 043942089X"]) { _ in
                seen.value.contains("book \(makeISBN13("978043942089"))")
            }
            try await expectOK(["-c", "search title hunger --limit 2; more"]) { $0.stdout.contains("Mockingjay") }
            try await expectNotOffered(["-c", "search author Collins"], "author search")
            try await expectNotOffered(["-c", "similar 9780439023481"], "similar books")
            // By title too: refused by similar's gate before its title search.
            try await expectNotOffered(["-c", "similar the hunger games"], "similar books")
            try await expectNotOffered(["-c", "semantic a boy wizard at a school of magic"], "semantic search")
            try await expectOK(["-c", "recommend --limit 50"]) { $0.stdout.contains("Hunger") }
            #expect(seen.value.contains("weekly limit=20"), "\(seen.value)")
            try await expectOK(["-c", "enrich 9780439023481 9780439023498 --watch"]) {
                $0.stdout.contains("Catching Fire")
            }
            try await expectOK(["-c", "import \(csv.path) --watch"]) { $0.stdout.contains("Catching Fire") }
            // An ISBN-10 ending in X goes as ISBN-13 in an import's rows too (the file on disk is untouched).
            let xcsv = dir.appendingPathComponent("x.csv")
            try "Title,Author,ISBN\nHarry Potter and the Prisoner of Azkaban,J.K. Rowling,043942089X\n".write(
                to: xcsv,
                atomically: true,
                encoding: .utf8
            )
            try await expectOK(["-c", "import \(xcsv.path)"])
            let uploaded = seen.value.last { $0.hasPrefix("import ") } ?? ""
            #expect(uploaded.contains("9780439420891") && !uploaded.contains("043942089X"), "\(uploaded)")
            #expect(try String(contentsOf: xcsv, encoding: .utf8).contains("043942089X"))
            // A scan: photos checked before anything is sent; results with confidences and review marks.
            let photo = dir.appendingPathComponent("back-covers.png")
            try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)).write(
                to: photo
            )
            let notPhoto = dir.appendingPathComponent("notes.jpg")
            try Data("isbn,title\n".utf8).write(to: notPhoto)
            let scansBefore = hits.count("scan")
            let refused = try await run(["-c", "scan \(photo.path) \(notPhoto.path)"])
            #expect(
                refused.status == 2 && refused.stderr.contains("not a JPEG, PNG or WebP image") && refused.isClean,
                "\(refused)"
            )
            let six = try await run(["-c", "scan " + Array(repeating: photo.path, count: 6).joined(separator: " ")])
            #expect(six.status == 2 && six.stderr.contains("at most 5 photos"), "\(six)")
            #expect(hits.count("scan") == scansBefore)
            try await expectOK(["-o", "json", "-c", "scan \(photo.path) --save --shelf owned"]) { r in
                r.stdout.contains("\"needsReview\":1") && r.stdout.contains("\"approved\":1")
                    && r.stdout.contains("0.62")
            }
            try await expectOK(["-o", "json", "-c", "library list"]) { r in
                r.stdout.contains("The Hunger Games") && !r.stdout.contains("Catching Fire")
                    && r.stdout.contains("\"scan 0b6c1f0e")
            }
            #expect(
                seen.value.contains {
                    $0.hasPrefix("scan ") && $0.contains("name=\"photos[]\"") && $0.contains("image/png")
                }
            )
            // A job of another process: status by id; cancel of a finished job is said as such (exit 1).
            try await expectOK(["-c", "status 0b6c1f0e-1d9a-4b8e-9a57-5c3e2f1a7d10"]) {
                $0.stdout.contains("completed")
            }
            let cancel = try await run(["-c", "cancel 0b6c1f0e-1d9a-4b8e-9a57-5c3e2f1a7d10"])
            #expect(cancel.status == 1 && cancel.stderr.contains("already finished") && cancel.isClean, "\(cancel)")
        }
    }
}
