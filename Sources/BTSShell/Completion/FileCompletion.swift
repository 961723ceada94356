import Foundation

/// One entry of a directory, as file completion needs it.
package struct DirectoryEntry: Sendable, Hashable {
    package var name: String
    /// A directory, or a symbolic link to one.
    package var isDirectory: Bool

    package init(name: String, isDirectory: Bool) {
        self.name = name
        self.isDirectory = isDirectory
    }
}

/// Lists the entries of a directory (absolute path) whose names start with a prefix (the
/// second argument), for completion; nil when the directory cannot be read.
package typealias DirectoryLister = @Sendable (_ directory: String, _ namePrefix: String) -> [DirectoryEntry]?

/// File-path completion: the pure part (splitting the typed path, `~`, filtering, quoting)
/// around an injectable directory listing.
struct FileCompletion {
    /// The most directory entries looked at (a huge directory must not stall TAB).
    static let entryLimit = 20_000

    /// The typed path (quotes and escapes removed).
    var partial: String
    /// How the typed word was quoted.
    var quoting: CompletionQuoting
    /// Lower-case extensions a file must have (directories always match); nil: any file.
    var extensions: [String]?
    var currentDirectory: String
    var homeDirectory: String?
    var lister: DirectoryLister

    /// The candidates (full replacements), their display names, and whether a sole candidate
    /// is a directory (no space after it then).
    func candidates() -> (candidates: [String], display: [String], soleIsDirectory: Bool) {
        if partial == "~", homeDirectory != nil {
            return ([quoting.write("~/", closed: false)], ["~/"], true)
        }
        let directoryPart: String
        let base: String
        if let slash = partial.lastIndex(of: "/") {
            directoryPart = String(partial[...slash])
            base = String(partial[partial.index(after: slash)...])
        } else {
            directoryPart = ""
            base = partial
        }
        guard let directory = resolve(directoryPart), let entries = lister(directory, base) else {
            return ([], [], false)
        }
        let showHidden = base.hasPrefix(".")
        var matches: [DirectoryEntry] = []
        for entry in entries.prefix(Self.entryLimit) {
            guard entry.name.hasPrefix(base), entry.name != ".", entry.name != ".." else { continue }
            if entry.name.hasPrefix("."), !showHidden { continue }
            if !entry.isDirectory, let extensions {
                let lower = entry.name.lowercased()
                guard extensions.contains(where: { lower.hasSuffix("." + $0) }) else { continue }
            }
            matches.append(entry)
        }
        matches.sort { $0.name < $1.name }
        let candidates = matches.map { entry in
            quoting.write(directoryPart + entry.name + (entry.isDirectory ? "/" : ""), closed: !entry.isDirectory)
        }
        let display = matches.map { $0.name + ($0.isDirectory ? "/" : "") }
        return (candidates, display, matches.count == 1 && matches[0].isDirectory)
    }

    /// The absolute directory for the typed directory part, with `~/` expanded.
    private func resolve(_ directoryPart: String) -> String? {
        if directoryPart.isEmpty { return currentDirectory }
        if directoryPart.hasPrefix("/") { return directoryPart }
        if directoryPart.hasPrefix("~/") {
            guard let home = homeDirectory else { return nil }
            return home + "/" + directoryPart.dropFirst(2)
        }
        if directoryPart.hasPrefix("~") { return nil }
        return currentDirectory + "/" + directoryPart
    }

    /// The real listing: `FileManager` names, directories (and links to them) marked by `stat`.
    /// Only names with the prefix are `stat`ed, so a large directory stays cheap.
    static let systemLister: DirectoryLister = { path, prefix in
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
        return names.prefix(entryLimit).filter { $0.hasPrefix(prefix) }.map { name in
            var isDirectory: ObjCBool = false
            let full = path.hasSuffix("/") ? path + name : path + "/" + name
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory)
            return DirectoryEntry(name: name, isDirectory: isDirectory.boolValue)
        }
    }
}
