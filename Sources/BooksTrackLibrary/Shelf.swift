/// The one shelf a book is on (Goodreads' "exclusive shelf", StoryGraph's read status): the three
/// standard ones, StoryGraph's `did-not-finish` and `paused`, or a custom name.
///
/// Names are normalised as Goodreads does: trimmed, lower-cased, spaces and underscores → `-`.
package struct Shelf: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    package let rawValue: String

    /// Normalises `rawValue`; an empty name becomes `to-read`.
    package init(rawValue: String) {
        var name = ""
        var lastDash = false
        for ch in rawValue.lowercased() {
            if ch == " " || ch == "_" || ch == "-" || ch == "\t" {
                if !lastDash, !name.isEmpty { name.append("-") }
                lastDash = true
            } else {
                name.append(ch)
                lastDash = false
            }
        }
        while name.hasSuffix("-") { name.removeLast() }
        self.rawValue = name.isEmpty ? "to-read" : name
    }

    package init(stringLiteral value: String) { self.init(rawValue: value) }

    package var description: String { rawValue }

    package static let toRead: Shelf = "to-read"
    package static let currentlyReading: Shelf = "currently-reading"
    package static let read: Shelf = "read"
    package static let didNotFinish: Shelf = "did-not-finish"
    package static let paused: Shelf = "paused"

    /// The shelves every library has, in display order.
    package static let standard: [Shelf] = [.toRead, .currentlyReading, .read, .didNotFinish, .paused]

    /// Standard shelves first (in `standard` order), then custom ones alphabetically.
    package static func < (a: Shelf, b: Shelf) -> Bool {
        let ia = standard.firstIndex(of: a) ?? standard.count
        let ib = standard.firstIndex(of: b) ?? standard.count
        return ia != ib ? ia < ib : a.rawValue < b.rawValue
    }
}
