import BooksTrackCatalog
import Foundation
@_exported import TestSupport
import Testing

/// The first `count` books of the bundled catalog, as TSV bytes (small, fast fixtures).
func bundledSubset(_ count: Int) throws -> Data {
    let text = String(decoding: try SQLiteCatalog.bundledResource(), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(count + 1)
    return Data((lines.joined(separator: "\n") + "\n").utf8)
}
