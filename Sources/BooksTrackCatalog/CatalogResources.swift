import Foundation

/// The files bundled with the catalog (`Resources/`): the cleaned catalog, its shelves and the
/// book vectors, found beside the executable or in the module's bundle.
enum CatalogResources {
    static let catalogName = "catalog"
    static let shelvesName = "shelves"

    /// A bundled resource's bytes (`Resources/<name>.tsv`).
    static func data(_ name: String = catalogName) throws -> Data {
        guard let data = FileManager.default.contents(atPath: try url(name).path) else {
            throw SQLiteCatalog.OpenError.missingResource
        }
        return data
    }

    /// A bundled resource's location (`Resources/<name>.tsv`; the cleaned catalog by default): in the resource bundle
    /// beside the executable (SwiftPM names it `<package>_<target>.resources`; `scripts/install`
    /// copies it there too), found with one `stat`; else where `Bundle.module` finds it.
    /// Foundation's `Bundle` is avoided: its first use sets up CFURL and NSString, which every start
    /// of the embedded backend would pay.
    static func url(_ name: String = catalogName, extension ext: String = "tsv") throws -> URL {
        if let directory = executableDirectory() {
            let path = directory + "/bts_BooksTrackCatalog.resources/Resources/\(name).\(ext)"
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG {
                return URL(filePath: path, directoryHint: .notDirectory)
            }
        }
        return try moduleBundleURL(name, extension: ext)
    }

    /// The resource as `Bundle.module` finds it.
    static func moduleBundleURL(_ name: String = catalogName, extension ext: String = "tsv") throws -> URL {
        guard
            let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Resources")
                ?? Bundle.module.url(forResource: name, withExtension: ext)
        else { throw SQLiteCatalog.OpenError.missingResource }
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
