import BooksTrackContract
import BooksTrackSupport
import Foundation
import Testing

@testable import BooksTrackClient

private let now = Date(timeIntervalSince1970: 1_790_000_000)

private func observe(
    _ status: Int,
    _ headers: [(name: String, value: String)],
    body: Duration? = nil
) -> RateLimitObservation {
    RateLimitObservation(status: status, headers: headers, bodyRetryAfter: body, now: now)
}

@Suite("RateLimitObservation and HTTP dates")
struct RateLimitObservationTests {
    @Test func standInHeadersEpochSeconds() {
        let got = observe(
            200,
            [
                ("X-RateLimit-Limit", "100"), ("x-ratelimit-remaining", " 97 "),
                ("X-RATELIMIT-RESET", "1790000042"),
            ]
        )
        #expect(
            got
                == RateLimitObservation(
                    status: 200,
                    limit: 100,
                    remaining: 97,
                    resetAt: Date(timeIntervalSince1970: 1_790_000_042)
                )
        )
    }

    @Test func productionResetInMilliseconds() {
        let got = observe(429, [("X-RateLimit-Reset", "1790000042500")], body: .seconds(42))
        #expect(got.resetAt == Date(timeIntervalSince1970: 1_790_000_042.5))
        #expect(got.retryAfter == .seconds(42))
    }

    @Test func smallResetIsDeltaSeconds() {
        #expect(observe(200, [("X-RateLimit-Reset", "42")]).resetAt == now.addingTimeInterval(42))
        #expect(observe(200, [("X-RateLimit-Reset", "0")]).resetAt == now)
    }

    @Test func garbageIsIgnored() {
        let got = observe(
            200,
            [
                ("X-RateLimit-Limit", "lots"), ("X-RateLimit-Remaining", "-3"),
                ("X-RateLimit-Reset", "soon"), ("Retry-After", "whenever"),
            ]
        )
        #expect(got == RateLimitObservation(status: 200))
    }

    @Test func firstHeaderOccurrenceWins() {
        #expect(observe(200, [("X-RateLimit-Remaining", "4"), ("X-RateLimit-Remaining", "9")]).remaining == 4)
    }

    @Test func retryAfterSecondsWinsOverBody() {
        #expect(observe(429, [("Retry-After", "30")], body: .seconds(5)).retryAfter == .seconds(30))
        #expect(observe(429, [], body: .milliseconds(1500)).retryAfter == .milliseconds(1500))
        #expect(observe(429, [("Retry-After", "0")]).retryAfter == .zero)
    }

    @Test func retryAfterHTTPDateForms() {
        // 1_790_000_000 is Sat, 21 Sep 2026 ... compute the expected text from the date itself.
        let in90 = now.addingTimeInterval(90)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let imf = formatter.string(from: in90)
        #expect(observe(429, [("Retry-After", imf)]).retryAfter == .seconds(90))
        formatter.dateFormat = "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"
        #expect(observe(429, [("Retry-After", formatter.string(from: in90))]).retryAfter == .seconds(90))
        formatter.dateFormat = "EEE MMM d HH:mm:ss yyyy"
        #expect(observe(429, [("Retry-After", formatter.string(from: in90))]).retryAfter == .seconds(90))
        // A date in the past means "now".
        #expect(observe(429, [("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]).retryAfter == .zero)
    }

    @Test func httpDateExamplesOfRFC9110() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        for bad in [
            "", "GMT", "Sun, 06 Nov 1994", "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "06 Nov 1994 08:49:37 GMT",
            "Sun, 06 Nov 19940 08:49:37 GMT", "Sun, ٠٦ Nov 1994 08:49:37 GMT",
        ] {
            #expect(HTTPDate.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func daysFromCivilMatchesFoundationCalendar() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var random = SplitMix64(seed: 42)
        for _ in 0..<500 {
            let year = Int.random(in: 1900...2200, using: &random)
            let month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random)
            let date = calendar.date(from: DateComponents(year: year, month: month, day: day))
            #expect(
                date?.timeIntervalSince1970
                    == TimeInterval(HTTPDate.daysFromCivil(year: year, month: month, day: day) * 86_400)
            )
        }
    }

    @Test(arguments: 0..<50)
    func fuzzHeaderValuesNeverCrash(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("0123456789 ,-:.GMTSunNovabcxyz\u{0}é")
        func junk() -> String {
            String(
                (0..<Int.random(in: 0...40, using: &random)).map { _ in
                    alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                }
            )
        }
        let got = observe(
            429,
            [
                ("X-RateLimit-Limit", junk()), ("X-RateLimit-Remaining", junk()),
                ("X-RateLimit-Reset", junk()), ("Retry-After", junk()),
            ]
        )
        #expect((got.limit ?? 0) >= 0 && (got.remaining ?? 0) >= 0)
        #expect((got.retryAfter ?? .zero) >= .zero)
    }
}
