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
            let stored = CatalogResourceStamp(line: String(decoding: data.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)),
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
    /// The bundled cleaned catalog's location (`Resources/catalog.tsv`): in the resource bundle
    /// beside the executable (SwiftPM names it `<package>_<target>.resources`; `scripts/install`
    /// copies it there too), found with one `stat`; else where `Bundle.module` finds it.
    /// Foundation's `Bundle` costs about 1 ms at its first use (CFURL and NSString set-up), which
    /// was every start of the embedded backend.
    static func bundledResourceURL() throws -> URL {
        if let directory = executableDirectory() {
            let path = directory + "/bts_BooksTrackCatalog.resources/Resources/catalog.tsv"
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                return URL(filePath: path, directoryHint: .notDirectory)
            }
        }
        return try moduleBundleResourceURL()
    }

    /// The resource as `Bundle.module` finds it.
    static func moduleBundleResourceURL() throws -> URL {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "tsv", subdirectory: "Resources")
            ?? Bundle.module.url(forResource: "catalog", withExtension: "tsv")
        else { throw OpenError.missingResource }
        return url
    }

    /// The directory of the running executable (`/proc/self/exe`, links resolved), or nil.
    static func executableDirectory() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { chars -> Int in
                guard let base = chars.baseAddress else { return -1 }
                return readlink("/proc/self/exe", base, chars.count - 1)
            }
        }
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[..<count], as: UTF8.self)
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        return String(path[..<slash])
    }
}
