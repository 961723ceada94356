import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation

/// A check of one document's text, taken from the server to run away from it (so requests are
/// answered while it runs), then handed back to ``LanguageServer/finish(_:_:)``.
package struct PendingCheck: Sendable {
    enum Subject: Sendable {
        /// The text, to check.
        case text(LineIndex)
        /// A text larger than a script may be: not checked.
        case tooLarge(LineIndex)
        /// A document set aside: its text is not kept.
        case setAside(footprint: Int)
    }

    let ticket: CheckSchedule.Ticket
    let version: Int?
    let subject: Subject
    let checker: ScriptChecker
    /// Whether the client shows related places (``LanguageServer/showsRelatedInformation``).
    var showsRelatedInformation = false

    /// What the check found: the diagnostics to publish and their quick fixes.
    package struct Outcome: Sendable {
        let notification: LanguageServerResults.Notification<LanguageServerResults.PublishDiagnostics>
        let fixes: [QuickFix]
    }

    /// Runs the check (which runs nothing) and lays out what it found.
    package func run() -> Outcome {
        let uri = ticket.uri
        switch subject {
        case .setAside(let footprint):
            let warning = LanguageServer.documentWarning(
                "bts lsp set this document aside: the open documents may hold \(LanguageServer.openDocumentsBudget >> 20) MB "
                    + "together (text and line index) and this one (\(Self.megabytes(footprint))) would take them past that; "
                    + "it is not checked and nothing is offered for it until it is opened again with room for it"
            )
            return Outcome(
                notification: LanguageServer.diagnosticsNotification(uri: uri, version: version, [warning]),
                fixes: []
            )
        case .tooLarge:
            let warning = LanguageServer.documentWarning(
                "this document is larger than \(LanguageServer.maxDocument >> 20) MB, the most a script may be: it is not checked"
            )
            return Outcome(
                notification: LanguageServer.diagnosticsNotification(uri: uri, version: version, [warning]),
                fixes: []
            )
        case .text(let index):
            let text = String(decoding: index.bytes, as: UTF8.self)
            let found = checker.diagnostics(of: text, name: LanguageServer.displayName(uri))
            return LanguageServer.outcome(
                found,
                uri: uri,
                version: version,
                in: index,
                showsRelatedInformation: showsRelatedInformation
            )
        }
    }

    /// `2.3 MB`.
    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / Double(1 << 20))
    }
}

/// A diagnostic's `fixIt` as a quick fix: the diagnostic as published and its edit (in the bytes of
/// the text checked).
struct QuickFix: Sendable {
    var diagnostic: LanguageServerResults.Diagnostic
    /// The diagnostic's bytes (a code action request's range meets them).
    var range: SourceRange
    var fixIt: Diagnostic.FixIt
}

extension LanguageServer {
    /// The next check due, if none is under way (``LanguageServerTransport`` runs one at a time:
    /// it asks once the messages before are handled, so of several changes queued only the
    /// newest text is checked).
    package func startCheck() -> PendingCheck? {
        while let ticket = schedule.start() {
            if let document = documents[ticket.uri] {
                let subject: PendingCheck.Subject =
                    document.index.bytes.count <= Self.maxDocument
                    ? .text(document.index) : .tooLarge(document.index)
                return PendingCheck(
                    ticket: ticket,
                    version: document.version,
                    subject: subject,
                    checker: checker,
                    showsRelatedInformation: showsRelatedInformation
                )
            }
            if let aside = setAside[ticket.uri] {
                return PendingCheck(
                    ticket: ticket,
                    version: aside.version,
                    subject: .setAside(footprint: aside.footprint),
                    checker: checker
                )
            }
            _ = schedule.finished(ticket)
        }
        return nil
    }

    /// Whether a check is due and none is under way.
    package var checkIsDue: Bool { schedule.canStart }

    /// A check finished: its `textDocument/publishDiagnostics`, unless its document changed (a
    /// newer text is due) or closed since.
    package func finish(_ check: PendingCheck, _ outcome: PendingCheck.Outcome) -> JSONValue? {
        guard schedule.finished(check.ticket) else { return nil }
        quickFixes[check.ticket.uri] = (check.ticket.generation, outcome.fixes)
        return LanguageServerResults.json(outcome.notification)
    }

    /// Runs every check due, one after another, here: what they publish (for a client that sends
    /// one message and waits, as the tests do).
    package func checkDue() async -> [JSONValue] {
        var published: [JSONValue] = []
        while let check = startCheck() {
            let outcome = check.run()
            if let notification = finish(check, outcome) { published.append(notification) }
        }
        return published
    }

    /// The diagnostics of a check as LSP's (``published(_:uri:in:showsRelatedInformation:)``); the
    /// first ``maxDiagnostics``, then one that says how many more there are.
    static func outcome(
        _ found: [Diagnostic],
        uri: String,
        version: Int?,
        in index: LineIndex,
        showsRelatedInformation: Bool = false
    ) -> PendingCheck.Outcome {
        var items: [LanguageServerResults.Diagnostic] = []
        var fixes: [QuickFix] = []
        items.reserveCapacity(min(found.count, maxDiagnostics + 1))
        for diagnostic in found.prefix(maxDiagnostics) {
            let item = published(diagnostic, uri: uri, in: index, showsRelatedInformation: showsRelatedInformation)
            items.append(item)
            if let fixIt = diagnostic.fixIt {
                fixes.append(QuickFix(diagnostic: item, range: diagnostic.range, fixIt: fixIt))
            }
        }
        let rest = found.dropFirst(maxDiagnostics)
        if let first = rest.first {
            let worst =
                rest.contains { $0.severity == .error }
                ? Diagnostic.Severity.error
                : (rest.contains { $0.severity == .warning } ? .warning : .note)
            items.append(
                LanguageServerResults.Diagnostic(
                    range: range(first.range.offset, first.range.offset, in: index),
                    severity: severity(worst),
                    message:
                        "… \(rest.count) more not shown (bts lsp publishes the first \(maxDiagnostics) of a document)"
                )
            )
        }
        return PendingCheck.Outcome(
            notification: diagnosticsNotification(uri: uri, version: version, items),
            fixes: fixes
        )
    }

    /// A diagnostic of the check as LSP's: at its range, with its rule as the code, as `bts check`
    /// and `bts test` report it (``CheckFinding/rule(of:)``, e.g. `unknown-command`), its notes under the message ("did you mean" is in
    /// the message itself), except those about another place: those are its `relatedInformation` for
    /// a client that shows it, else lines of the message with their line and column (1-based).
    static func published(
        _ diagnostic: Diagnostic,
        uri: String,
        in index: LineIndex,
        showsRelatedInformation: Bool
    ) -> LanguageServerResults.Diagnostic {
        var lines = [diagnostic.message]
        var related: [LanguageServerResults.RelatedInformation] = []
        for note in diagnostic.notes {
            guard let place = note.range else {
                lines.append(note.message)
                continue
            }
            let at = range(place.offset, place.end, in: index)
            if showsRelatedInformation {
                related.append(
                    .init(location: .init(uri: uri, range: at), message: DiagnosticRenderer.visible(note.message))
                )
            } else {
                lines.append("\(note.message) (line \(at.start.line + 1), column \(at.start.character + 1))")
            }
        }
        return LanguageServerResults.Diagnostic(
            range: range(diagnostic.range.offset, diagnostic.range.end, in: index),
            severity: severity(diagnostic.severity),
            message: DiagnosticRenderer.visible(lines.joined(separator: "\n")),
            code: CheckFinding.rule(of: diagnostic),
            relatedInformation: related.isEmpty ? nil : related
        )
    }

    /// One warning at the document's start.
    static func documentWarning(_ message: String) -> LanguageServerResults.Diagnostic {
        LanguageServerResults.Diagnostic(
            range: .init(start: .zero, end: .zero),
            severity: severity(.warning),
            message: message
        )
    }

    static func diagnosticsNotification(
        uri: String,
        version: Int?,
        _ diagnostics: [LanguageServerResults.Diagnostic]
    )
        -> LanguageServerResults.Notification<LanguageServerResults.PublishDiagnostics>
    {
        .init(
            method: "textDocument/publishDiagnostics",
            params: .init(uri: uri, version: version, diagnostics: diagnostics)
        )
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
