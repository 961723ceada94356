import Foundation

/// A calendar day (no time, no zone) as the exporters write them: stored and compared as `YYYY-MM-DD`.
package struct BookDate: Hashable, Sendable, Comparable, CustomStringConvertible, Codable {
    package let year: Int
    package let month: Int
    package let day: Int

    /// Nil unless it is a real day (proleptic Gregorian calendar) of a year in 1…9999.
    package init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1, day <= BookDate.days(in: month, of: year)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Reads `YYYY/MM/DD` (Goodreads, StoryGraph), `YYYY-MM-DD` (ISO) and `YYYY/MM`, `YYYY-MM`, `YYYY`
    /// (missing parts become 1). Surrounding spaces are ignored; anything else is nil.
    package init?(parsing raw: String) {
        let text = raw.trimmingCharacters(in: .whitespaces)
        let parts = text.split(separator: text.contains("/") ? "/" : "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts[0].count == 4,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) }),
            let y = Int(parts[0])
        else { return nil }
        let m = parts.count > 1 ? Int(parts[1]) : 1
        let d = parts.count > 2 ? Int(parts[2]) : 1
        guard let m, let d else { return nil }
        self.init(year: y, month: m, day: d)
    }

    /// Today in the local time zone (or in `timeZone`).
    package static func today(_ now: Date = Date(), timeZone: TimeZone = .current) -> BookDate {
        var calendar = gregorian
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        return BookDate(year: c.year ?? 2000, month: c.month ?? 1, day: c.day ?? 1)
            ?? BookDate(uncheckedYear: 2000, month: 1, day: 1)
    }

    private init(uncheckedYear: Int, month: Int, day: Int) {
        self.year = uncheckedYear
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD` (how the library stores it).
    package var iso: String { formatted("-") }
    /// `YYYY/MM/DD` (how Goodreads writes it).
    package var slashed: String { formatted("/") }

    private func formatted(_ separator: String) -> String {
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return pad(year, 4) + separator + pad(month, 2) + separator + pad(day, 2)
    }
    package var description: String { iso }

    package static func < (a: BookDate, b: BookDate) -> Bool { (a.year, a.month, a.day) < (b.year, b.month, b.day) }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let raw = try c.decode(String.self)
        guard let d = BookDate(parsing: raw) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a date: \(raw)")
        }
        self = d
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(iso)
    }

    private static let gregorian: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC") ?? .current
        return c
    }()
}
