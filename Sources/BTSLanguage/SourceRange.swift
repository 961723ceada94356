/// A half-open range of UTF-8 bytes in a ``SourceFile``: `offset ..< offset + length`.
///
/// Every token, AST node and diagnostic carries one, so errors can point at the exact place.
package struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// UTF-8 byte offset of the first byte.
    package var offset: Int
    /// Number of UTF-8 bytes covered (0 for an insertion point).
    package var length: Int

    package init(offset: Int, length: Int) {
        self.offset = offset
        self.length = max(0, length)
    }

    /// A range from `start` up to (not including) `end`.
    package init(from start: Int, to end: Int) {
        self.init(offset: start, length: end - start)
    }

    /// The offset one past the last byte.
    package var end: Int { offset + length }

    /// The smallest range covering both `self` and `other`.
    package func union(_ other: SourceRange) -> SourceRange {
        SourceRange(from: min(offset, other.offset), to: max(end, other.end))
    }

    /// Whether `other` lies completely inside `self`.
    package func contains(_ other: SourceRange) -> Bool {
        other.offset >= offset && other.end <= end
    }

    package var description: String { "\(offset)+\(length)" }
}
