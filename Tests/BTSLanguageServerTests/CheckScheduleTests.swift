import Testing

@testable import BTSLanguageServer

/// The schedule of checks, without a server: of several changes only the newest text is checked,
/// one check at a time, and a check of a text changed or closed since is not published.
@Suite("check schedule")
struct CheckScheduleTests {
    @Test func changesQueuedBeforeACheckStartsAreCheckedOnce() {
        var schedule = CheckSchedule()
        let none = schedule.start()
        #expect(!schedule.canStart && none == nil, "nothing open")
        var newest = 0
        for _ in 1...5 { newest = schedule.changed("a") }
        #expect(schedule.canStart)
        let ticket = schedule.start()
        #expect(ticket == CheckSchedule.Ticket(uri: "a", generation: newest))
        let second = schedule.start()
        #expect(!schedule.canStart && second == nil, "one check at a time, and nothing else is due")
        if let ticket {
            let published = schedule.finished(ticket)
            #expect(published, "unchanged since: published")
        }
        #expect(!schedule.canStart)
    }

    @Test func aCheckOfATextChangedSinceIsNotPublishedAndTheNewestIsDue() {
        var schedule = CheckSchedule()
        _ = schedule.changed("a")
        guard let stale = schedule.start() else {
            Issue.record("no check")
            return
        }
        _ = schedule.changed("a")
        let newest = schedule.changed("a")
        #expect(!schedule.canStart, "while a check runs, none starts")
        let published = schedule.finished(stale)
        #expect(!published, "its text changed: not published")
        let next = schedule.start()
        #expect(next == CheckSchedule.Ticket(uri: "a", generation: newest))
    }

    @Test func documentsAreCheckedInTheOrderTheyChangedAndAClosedOneIsDropped() {
        var schedule = CheckSchedule()
        _ = schedule.changed("a")
        _ = schedule.changed("b")
        _ = schedule.changed("c")
        _ = schedule.changed("a")
        schedule.closed("b")
        guard let first = schedule.start() else {
            Issue.record("no check")
            return
        }
        #expect(first.uri == "a")
        schedule.closed("a")
        let published = schedule.finished(first)
        #expect(!published, "closed while checked: not published")
        let next = schedule.start()
        #expect(next?.uri == "c")
        #expect(schedule.generation(of: "b") == nil)
    }

    @Test func aReopenedDocumentNeverReusesAGeneration() {
        var schedule = CheckSchedule()
        _ = schedule.changed("a")
        guard let old = schedule.start() else {
            Issue.record("no check")
            return
        }
        schedule.closed("a")
        let reopened = schedule.changed("a")
        #expect(reopened != old.generation)
        let published = schedule.finished(old)
        #expect(!published)
        let next = schedule.start()
        #expect(next?.generation == reopened)
    }
}
