import Foundation
import Testing

@testable import BooksTrackContract

/// The hand-written timestamp writer against Foundation's ISO-8601 format style: the same text
/// for dates across centuries, leap days, month ends, before 1970 and at millisecond edges.
@Suite struct ISO8601FormatTests {
    @Test func matchesTheFormatStyle() {
        var generator = SystemRandomNumberGenerator()
        var dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.001), Date(timeIntervalSince1970: 0.999),
            Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 4_107_542_399.999),
            Date(timeIntervalSince1970: -2_208_988_800), Date(timeIntervalSince1970: 1_795_000_000.123_456),
            Date(timeIntervalSince1970: -62_135_596_800), Date(timeIntervalSince1970: 253_402_300_799.999),
        ]
        for _ in 0..<5000 {
            dates.append(
                Date(timeIntervalSince1970: Double.random(in: -62_000_000_000...253_000_000_000, using: &generator))
            )
        }
        for _ in 0..<2000 {
            dates.append(
                Date(
                    timeIntervalSince1970: Double(Int.random(in: -5_000_000...5_000_000, using: &generator)) * 86_400
                        / 1000
                )
            )
        }
        for date in dates {
            #expect(ISO8601.string(from: date) == ISO8601.formatted(date), "\(date.timeIntervalSince1970)")
        }
    }
}
