/// What a test file wrote on one stream, kept up to `limit` bytes: the text past the bound is
/// counted, not kept, and a last line says how much was cut (`… 1234 bytes more`).
package struct CapturedText: Sendable, Hashable {
    /// The most kept of each stream of each file: 64 KiB.
    package static let limit = 64 * 1024

    /// The bytes kept, at most `bound`; cut at a character's boundary.
    package private(set) var kept = ""
    /// How many bytes were written past the bound.
    package private(set) var dropped = 0
    private var keptBytes = 0
    private let bound: Int

    package init(bound: Int = CapturedText.limit) {
        self.bound = max(0, bound)
    }

    /// Adds `text`: as much of it as fits, the rest counted.
    package mutating func append(_ text: String) {
        guard dropped == 0 else {
            dropped += text.utf8.count
            return
        }
        let room = bound - keptBytes
        let size = text.utf8.count
        if size <= room {
            kept += text
            keptBytes += size
            return
        }
        var taken = 0
        var end = text.unicodeScalars.startIndex
        for scalar in text.unicodeScalars {
            let width = UTF8.width(scalar)
            guard taken + width <= room else { break }
            taken += width
            end = text.unicodeScalars.index(after: end)
        }
        kept += String(text.unicodeScalars[..<end])
        keptBytes += taken
        dropped = size - taken
    }

    /// The text kept, then, when some was cut, a line `… N bytes more` (on a line of its own).
    package var text: String {
        guard dropped > 0 else { return kept }
        return kept + (kept.isEmpty || kept.hasSuffix("\n") ? "" : "\n")
            + "… \(dropped) byte\(dropped == 1 ? "" : "s") more\n"
    }
}
