import BooksTrackSupport
import Testing

/// The first of several racing callers sets the value; the others are told they came late.
@Suite struct FirstOutcomeTests {
    @Test func theFirstValueWinsAndLaterOnesAreIgnored() async {
        let outcome = FirstOutcome<Int>()
        #expect(!outcome.isResolved)
        #expect(outcome.resolve(1))
        #expect(outcome.isResolved)
        #expect(!outcome.resolve(2))
        #expect(await outcome.value == 1)
    }

    @Test func aReaderWaitingBeforeTheValueGetsIt() async {
        let outcome = FirstOutcome<String>()
        async let read = outcome.value
        // Whichever of the racers comes first, exactly one of them sets the value.
        let set = await withTaskGroup(of: Bool.self) { group in
            for word in ["a", "b", "c", "d"] { group.addTask { outcome.resolve(word) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(set == 1)
        #expect(["a", "b", "c", "d"].contains(await read))
    }
}
