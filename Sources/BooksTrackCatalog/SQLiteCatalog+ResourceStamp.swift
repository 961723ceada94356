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

extension SQLiteCatalog {
    static let catalogResourceName = "catalog"
    static let shelvesResourceName = "shelves"

    /// A bundled resource's location (`Resources/<name>.tsv`; the cleaned catalog by default): in the resource bundle
    /// beside the executable (SwiftPM names it `<package>_<target>.resources`; `scripts/install`
    /// copies it there too), found with one `stat`; else where `Bundle.module` finds it.
    /// Foundation's `Bundle` is avoided: its first use sets up CFURL and NSString, which every start
    /// of the embedded backend would pay.
    static func bundledResourceURL(_ name: String = catalogResourceName, extension ext: String = "tsv") throws -> URL {
        if let directory = executableDirectory() {
            let path = directory + "/bts_BooksTrackCatalog.resources/Resources/\(name).\(ext)"
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                return URL(filePath: path, directoryHint: .notDirectory)
            }
        }
        return try moduleBundleResourceURL(name, extension: ext)
    }

    /// The resource as `Bundle.module` finds it.
    static func moduleBundleResourceURL(
        _ name: String = catalogResourceName,
        extension ext: String = "tsv"
    ) throws -> URL {
        guard
            let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources")
                ?? Bundle.module.url(forResource: name, withExtension: ext)
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
