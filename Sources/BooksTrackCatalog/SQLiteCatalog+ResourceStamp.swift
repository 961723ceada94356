import Foundation

/// The content key of the bundled resource without reading it: the key computed last time is kept
/// in the cache directory beside the file's identity (path, size, modification time). A rebuilt or
/// replaced resource has another identity and is read and hashed again. This spares every start
/// of bts reading and hashing 1.7 MB (about 4 ms of a one-shot lookup's CPU, and its pages).
struct CatalogResourceStamp: Equatable {
    static let fileName = "catalog-resource.stamp"

    var path: String
    var size: UInt64
    var modified: Int64  // nanoseconds since 1970
    var key: String

    /// The identity of the file at `url` with `key`, or nil when it cannot be read.
    init?(of url: URL, key: String) {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        path = url.path
        size = UInt64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        self.key = key
    }

    init?(line: String) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 4, let size = UInt64(fields[1]), let modified = Int64(fields[2]), !fields[3].isEmpty
        else { return nil }
        path = String(fields[0])
        self.size = size
        self.modified = modified
        key = String(fields[3])
    }

    var line: String { "\(path)\t\(size)\t\(modified)\t\(key)\n" }

    /// The key stored for the resource at `url` in `directory`, if the file is still the same one.
    static func storedKey(for url: URL, in directory: URL) -> String? {
        let stampURL = directory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: stampURL), data.count < 8192,
            let stored = CatalogResourceStamp(line: String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)),
            let current = CatalogResourceStamp(of: url, key: stored.key), current == stored
        else { return nil }
        return stored.key
    }

    /// Remembers `key` for the resource at `url` (best effort, written atomically).
    static func store(key: String, for url: URL, in directory: URL) {
        guard let stamp = CatalogResourceStamp(of: url, key: key) else { return }
        try? Data(stamp.line.utf8).write(to: directory.appendingPathComponent(fileName), options: .atomic)
    }
}

extension SQLiteCatalog {
    /// The bundled cleaned catalog's location (`Resources/catalog.tsv`).
    static func bundledResourceURL() throws -> URL {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "tsv", subdirectory: "Resources")
            ?? Bundle.module.url(forResource: "catalog", withExtension: "tsv")
        else { throw OpenError.missingResource }
        return url
    }
}
