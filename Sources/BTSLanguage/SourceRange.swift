/// A half-open range of UTF-8 bytes in a ``SourceFile``: `offset ..< offset + length`.
///
/// Every token, AST node and diagnostic carries one, so errors can point at the exact place.
public struct SourceRange: Sendable, Hashable, CustomStringConvertible {
    /// UTF-8 byte offset of the first byte.
    public var offset: Int
    /// Number of UTF-8 bytes covered (0 for an insertion point).
    public var length: Int

    public init(offset: Int, length: Int) {
        self.offset = offset
        self.length = max(0, length)
    }

    /// A range from `start` up to (not including) `end`.
    public init(from start: Int, to end: Int) {
        self.init(offset: start, length: end - start)
    }

    /// The offset one past the last byte.
    public var end: Int { offset + length }

    /// The smallest range covering both `self` and `other`.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(from: min(offset, other.offset), to: max(end, other.end))
    }

    /// Whether `other` lies completely inside `self`.
    public func contains(_ other: SourceRange) -> Bool {
        other.offset >= offset && other.end <= end
    }

    public var description: String { "\(offset)+\(length)" }
}
