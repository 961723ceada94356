import Foundation

/// A fresh directory `bts-<label>-<uuid>` under the temp dir; the caller removes it.
package func makeTempDirectory(_ label: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("bts-\(label)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A fresh temporary directory, removed by `cleanup()`.
package struct TempDir: Sendable {
    package let url: URL
    package init(_ label: String = "jobs") throws { url = try makeTempDirectory(label) }
    package func cleanup() { try? FileManager.default.removeItem(at: url) }
}
