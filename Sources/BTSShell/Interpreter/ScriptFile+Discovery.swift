import Foundation

extension ScriptFile {
    /// The scripts that paths name, for `bts test`, `fmt` and `check`: a file as it is, a directory's
    /// `*.bts` files at any depth (hidden folders skipped), each directory's files in name order.
    /// A missing path, a named FIFO, device or socket (refused at once: reading one could block), or
    /// no script at all, is a usage error. A walk takes regular files and links to them only: a
    /// `*.bts` that is a FIFO, a device, a socket or a dangling link is passed over without a word
    /// (it is no script, as `notes.txt` is none).
    package static func discover(_ paths: [String]) throws(ShellError) -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ShellError(.usage, "no such file or directory: '\(path)'")
            }
            guard isDirectory.boolValue else {
                if let failure = refusal(of: path), case .notRegular = failure {
                    throw ShellError(.usage, failure.sentence(path))
                }
                found.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            guard let walker = FileManager.default.enumerator(atPath: path) else {
                throw ShellError(.usage, "cannot read the directory '\(path)'")
            }
            var inside: [String] = []
            while let relative = walker.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    walker.skipDescendants()
                    continue
                }
                let file = base + "/" + relative
                if name.hasSuffix(".bts"), refusal(of: file) == nil { inside.append(file) }
            }
            found += inside.sorted()
        }
        guard !found.isEmpty else {
            throw ShellError(.usage, "no .bts files in \(paths.map { "'\($0)'" }.joined(separator: ", "))")
        }
        return found
    }
}
