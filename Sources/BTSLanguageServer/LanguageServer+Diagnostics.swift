import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation

extension LanguageServer {
    /// `textDocument/publishDiagnostics` for a document: every diagnostic of the whole-script check
    /// at its range, its notes under the message ("did you mean" is in the message itself).
    func publishDiagnostics(_ uri: String) async -> JSONValue {
        guard let document = documents[uri] else { return Self.diagnosticsNotification(uri: uri, version: nil, []) }
        guard document.index.bytes.count <= Self.maxDocument else {
            let warning: JSONValue = [
                "range": Self.range(0, 0, in: document.index), "severity": 2, "source": "bts",
                "message": .string("this document is larger than \(Self.maxDocument >> 20) MB, the most a script may be: it is not checked"),
            ]
            return Self.diagnosticsNotification(uri: uri, version: document.version, [warning])
        }
        let found = await shell.diagnostics(of: document.text, name: Self.displayName(uri))
        let items = found.map { diagnostic -> JSONValue in
            let notes = diagnostic.notes.map(\.message)
            let message = ([diagnostic.message] + notes).joined(separator: "\n")
            return [
                "range": Self.range(diagnostic.range.offset, diagnostic.range.end, in: document.index),
                "severity": .number(Double(Self.severity(diagnostic.severity))),
                "source": "bts",
                "message": .string(message),
            ]
        }
        return Self.diagnosticsNotification(uri: uri, version: document.version, items)
    }

    static func diagnosticsNotification(uri: String, version: Int?, _ diagnostics: [JSONValue]) -> JSONValue {
        var params: [String: JSONValue] = ["uri": .string(uri), "diagnostics": .array(diagnostics)]
        if let version { params["version"] = .number(Double(version)) }
        return ["jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": .object(params)]
    }

    /// LSP's severities: 1 error, 2 warning, 3 information.
    static func severity(_ severity: Diagnostic.Severity) -> Int {
        switch severity {
        case .error: return 1
        case .warning: return 2
        case .note: return 3
        }
    }

    /// The file name of a `file://` URI (what diagnostics' own text calls the script).
    static func displayName(_ uri: String) -> String {
        guard let slash = uri.lastIndex(of: "/") else { return uri }
        return String(uri[uri.index(after: slash)...]).removingPercentEncoding ?? uri
    }
}
