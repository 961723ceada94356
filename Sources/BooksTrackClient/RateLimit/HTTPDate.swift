import Foundation

/// Parses HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, the obsolete RFC 850 form and asctime.
/// Pure arithmetic (no formatter, no locale).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The instant, or nil when the text is not an HTTP date.
    static func parse(_ text: String) -> Date? {
        let cleaned = text.map { $0 == "," || $0 == "-" ? " " : $0 }
        var tokens = String(cleaned).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard tokens.count >= 5, tokens.count <= 6 else { return nil }
        // Leading weekday name.
        guard tokens[0].allSatisfy(\.isLetter) else { return nil }
        tokens.removeFirst()
        if let last = tokens.last, last.uppercased() == "GMT" || last.uppercased() == "UTC" { tokens.removeLast() }
        guard tokens.count == 4 else { return nil }
        var month: Int?
        var numbers: [(text: String, value: Int)] = []
        var clock: (Int, Int, Int)?
        for token in tokens {
            if token.contains(":") {
                let parts = token.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]), let s = Int(parts[2]),
                    parts.allSatisfy({ $0.count == 2 })
                else { return nil }
                clock = (h, m, s)
            } else if let index = months.firstIndex(of: token.lowercased()) {
                month = index + 1
            } else if token.allSatisfy(\.isASCII), token.allSatisfy(\.isNumber), let value = Int(token) {
                numbers.append((token, value))
            } else {
                return nil
            }
        }
        guard let month, let (hour, minute, second) = clock, numbers.count == 2 else { return nil }
        // IMF-fixdate and RFC 850: day, month, year; asctime: month, day, time, year. The day is first either way.
        let day = numbers[0].value
        var year = numbers[1].value
        if numbers[1].text.count == 2 {
            year += year < 70 ? 2000 : 1900
        } else if numbers[1].text.count != 4 {
            return nil
        }
        guard (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
