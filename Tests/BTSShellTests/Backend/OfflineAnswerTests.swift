import BooksTrackContract
import Testing

@testable import BTSShell

/// An answer given offline from the disk cache: its age in words, and the JSON fields it adds.
@Suite("offline answer")
struct OfflineAnswerTests {
    @Test func agesAreSaidInTheLargestWholeUnit() {
        #expect(OfflineAnswer.ageText(.seconds(45)) == "45 s")
        #expect(OfflineAnswer.ageText(.seconds(60)) == "1 min")
        #expect(OfflineAnswer.ageText(.seconds(3 * 3600 + 59)) == "3 h")
        #expect(OfflineAnswer.ageText(.seconds(2 * 86_400)) == "2 d")
    }

    @Test func anObjectAnsweredOfflineSaysSoAndHowOld() {
        let output = CommandOutput(value: .record([("title", "Dune".json)]), view: .none)
        let annotated = OfflineAnswer.annotating(output, age: .seconds(90))
        #expect(annotated.value["answeredBy"] == "cache".json)
        #expect(annotated.value["cacheAgeSeconds"] == 90.json)
        #expect(OfflineAnswer.annotating(output, age: nil).value == output.value, "answered online")
        let library = CommandOutput(value: .record([("answeredBy", "library".json)]), view: .none)
        #expect(OfflineAnswer.annotating(library, age: .seconds(5)).value == library.value)
    }
}
