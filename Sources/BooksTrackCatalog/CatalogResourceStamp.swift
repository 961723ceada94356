import Foundation

/// The content key of the bundled resources without reading them: the key computed last time is
/// kept in the cache directory beside each file's identity (path, size, modification time). A
/// rebuilt or replaced resource has another identity and is read and hashed again. This spares
/// every start of bts reading and hashing the catalog and its shelves (CPU and pages a one-shot
/// lookup would otherwise pay).
struct CatalogResourceStamp: Equatable {
    static let fileName = "catalog-resource.stamp"

    /// One file's identity.
    struct Identity: Equatable {
        var path: String
        var size: UInt64
        var modified: Int64  // nanoseconds since 1970

        /// The identity of the file at `url`, or nil when it cannot be read.
        init?(of url: URL) {
            var info = stat()
            guard stat(url.path, &info) == 0 else { return nil }
            path = url.path
            size = UInt64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }

        init?<S: StringProtocol>(fields: ArraySlice<S>) {
            guard fields.count == 3, let size = UInt64(fields[fields.startIndex + 1]),
                let modified = Int64(fields[fields.startIndex + 2])
            else { return nil }
            path = String(fields[fields.startIndex])
            self.size = size
            self.modified = modified
        }
    }

    var files: [Identity]
    var key: String

    /// The identities of the files at `urls` with `key`, or nil when one cannot be read.
    init?(of urls: [URL], key: String) {
        var files: [Identity] = []
        for url in urls {
            guard let identity = Identity(of: url) else { return nil }
            files.append(identity)
        }
        self.files = files
        self.key = key
    }

    /// `path<TAB>size<TAB>modified` per file, then the key.
    init?(line: String) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count >= 4, fields.count % 3 == 1, let key = fields.last, !key.isEmpty else { return nil }
        var files: [Identity] = []
        for start in stride(from: 0, to: fields.count - 1, by: 3) {
            guard let identity = Identity(fields: fields[start..<(start + 3)]) else { return nil }
            files.append(identity)
        }
        self.files = files
        self.key = String(key)
    }

    var line: String {
        files.map { "\($0.path)\t\($0.size)\t\($0.modified)\t" }.joined() + key + "\n"
    }

    /// The key stored for the resources at `urls` in `directory`, if the files are still the same ones.
    static func storedKey(for urls: [URL], in directory: URL) -> String? {
        let stampURL = directory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: stampURL), data.count < 8192,
            let stored = CatalogResourceStamp(
                line: String(decoding: data.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
            ),
            let current = CatalogResourceStamp(of: urls, key: stored.key), current == stored
        else { return nil }
        return stored.key
    }

    /// Remembers `key` for the resources at `urls` (best effort, written atomically).
    static func store(key: String, for urls: [URL], in directory: URL) {
        guard let stamp = CatalogResourceStamp(of: urls, key: key) else { return }
        try? Data(stamp.line.utf8).write(to: directory.appendingPathComponent(fileName), options: .atomic)
    }
}
