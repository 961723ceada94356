import BTSLanguage
import BooksTrackContract
import Foundation

extension VariableScope {
    /// What a `for` loop walks: words (lists give their elements), the words of a text, or the
    /// lines of a file.
    /// `resolvingPaths` makes a file's path absolute (relative to the running script).
    func loopItems(_ loop: ForLoop, resolvingPaths resolvePath: (String) -> URL) -> Result<[JSONValue], ShellError> {
        let scope = self
        switch loop.items {
        case .words(let words):
            var items: [JSONValue] = []
            for word in words {
                switch scope.items(of: word) {
                case .success(let found): items += found
                case .failure(let error): return .failure(error)
                }
            }
            return .success(items)
        case .split(let words):
            var text: [String] = []
            for word in words {
                switch scope.interpolate(word) {
                case .success(let found): text.append(found)
                case .failure(let error): return .failure(error)
                }
            }
            return .success(
                text.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                    .map { .string(String($0)) }
            )
        case .lines(let word):
            let path: String
            switch scope.interpolate(word) {
            case .success(let found): path = found
            case .failure(let error): return .failure(error)
            }
            let url = resolvePath(path)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
                let data = FileManager.default.contents(atPath: url.path)
            else {
                return .failure(
                    ShellError(.failure, "cannot read '\(path)': no such file or not readable", range: word.range)
                )
            }
            if (attributes[.type] as? FileAttributeType) == .typeDirectory {
                return .failure(ShellError(.failure, "cannot read '\(path)': it is a directory", range: word.range))
            }
            guard data.count <= ValueLimit.maxBytes else { return .failure(ValueLimit.tooLarge(data.count)) }
            // "\r\n" is one Character in Swift: split on both endings.
            var lines = String(decoding: data, as: UTF8.self)
                .split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                .map(String.init)
            if lines.last == "" { lines.removeLast() }
            return .success(lines.map(JSONValue.string))
        }
    }
}
