import Foundation
import TestSupport
import Testing

@testable import BooksTrackContract

/// A body read as a `JSONValue` from `JSONTree` in one pass reads as `JSONDecoder` reads it; a
/// problem's field errors are capped where they are read and kept.
@Suite(.onWorkThreads) struct JSONValueParseTests {
    static func decoderReading(_ text: String) -> JSONValue? {
        try? JSONCoding.decoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func everyFixtureReadsAsJSONDecoderReadsIt() throws {
        let manager = FileManager.default
        var names = try manager.contentsOfDirectory(atPath: Fixtures.directory.path).filter { $0.hasSuffix(".json") }
        names += try manager.contentsOfDirectory(atPath: Fixtures.directory.appendingPathComponent("source").path)
            .filter { $0.hasSuffix(".json") }.map { "source/" + $0 }
        #expect(names.count > 20)
        for name in names {
            let text = Fixtures.text(name)
            #expect(JSONValue.parse(Data(text.utf8)) == Self.decoderReading(text), "\(name)")
        }
    }

    @Test(arguments: [
        #"{"a":1,"b":[true,false,null],"c":{"d":"e\u00e9\n"},"f":-0,"g":1e3,"h":0.1,"i":123456789012345678901}"#,
        #"{"dup":1,"dup":2}"#, #"[1,2,]"#, #"  "plain"  "#, "12", "-3.5e-7", #"{"k\u0041":"v"}"#, "[]", "{}",
        #"{"caf\#u{E9}":"th\#u{E9}"}"#, "nul", "", #"[1 2]"#,
        String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ])
    func edgeShapesReadAsJSONDecoderReadsThem(_ text: String) {
        #expect(JSONValue.parse(Data(text.utf8)) == Self.decoderReading(text), "\(text.prefix(60))")
    }

    /// A v3 problem with 200,000 field errors: read (in well under a second; it took seconds), and
    /// 20 of them kept, in the error and in its details.
    @Test func aProblemWithManyFieldErrorsKeepsTwenty() throws {
        let errors = (0..<200_000).map {
            #"{"field":"isbns[\#($0)]","message":"Must be ISBN-10 or ISBN-13","code":"INVALID_ISBN"}"#
        }
        let body =
            #"{"type":"https://api.oooefam.net/errors/validation","title":"Validation Failed","status":422,"detail":"Invalid request","code":"INVALID_REQUEST","errors":[\#(errors.joined(separator: ","))]}"#
        guard case .failure(let info, _) = ResponseDecoding.decode(JSONValue.self, from: Data(body.utf8), status: 422)
        else {
            Issue.record("not read as a failure")
            return
        }
        #expect(info.fieldErrors.count == ResponseDecoding.maxFieldErrors)
        #expect(info.fieldErrors.first?.field == "isbns[0]")
        #expect(info.details["errors"]?.arrayValue?.count == ResponseDecoding.maxFieldErrors)
    }
}
