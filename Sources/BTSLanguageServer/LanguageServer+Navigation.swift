import BTSLanguage
import BTSShell
import BooksTrackContract

extension LanguageServer {
    /// The document's bindings (``ScriptBindings``), read from what parses of it (a quote left open
    /// hides no line after it: ``symbolStatements(_:)``).
    func bindings(of document: Document) -> ScriptBindings {
        let statements = Self.symbolStatements(document.text)
        let script = Script(statements: statements, range: SourceRange(offset: 0, length: document.index.bytes.count))
        return ScriptBindings(script, settingNames: Set(registry.settings.map(\.name)))
    }

    /// `textDocument/definition`: where the variable or alias under the cursor is set (every `set`
    /// of a script's variable, a loop variable's `for`, every `alias`); nothing for a variable
    /// from outside or elsewhere.
    func definition(in document: Document, at offset: Int) -> [LanguageServerResults.Location]? {
        let bindings = bindings(of: document)
        guard let occurrence = bindings.occurrence(at: offset) else { return nil }
        let found = bindings.definitions(of: occurrence)
        guard !found.isEmpty else { return nil }
        return found.map { location($0.range, in: document) }
    }

    /// `textDocument/references`: every read of the binding under the cursor (and its
    /// definitions with `includeDeclaration`), not those of the same name in another scope.
    func references(
        in document: Document,
        at offset: Int,
        includeDeclaration: Bool
    ) -> [LanguageServerResults.Location]? {
        let bindings = bindings(of: document)
        guard let occurrence = bindings.occurrence(at: offset) else { return nil }
        return bindings.references(of: bindings.binding(occurrence.binding), includeDeclaration: includeDeclaration)
            .map { location($0, in: document) }
    }

    /// `textDocument/prepareRename`: the name under the cursor and its range when it is a
    /// variable or an alias the script binds; a reserved name or a setting is refused with a
    /// sentence; anything else (a command, a keyword, a literal) is nothing to rename (nil).
    func prepareRename(in document: Document, at offset: Int) -> Result<LanguageServerResults.PrepareRename?, Failure> {
        let bindings = bindings(of: document)
        if let occurrence = bindings.occurrence(at: offset) {
            let binding = bindings.binding(occurrence.binding)
            if binding.kind == .external { return .failure(Self.fromOutside(binding.name)) }
            return .success(
                LanguageServerResults.PrepareRename(
                    range: Self.range(occurrence.range.offset, occurrence.range.end, in: document.index),
                    placeholder: binding.name
                )
            )
        }
        if let read = bindings.otherReads.first(where: { $0.target.offset <= offset && offset <= $0.target.end }) {
            return .failure(Failure(code: .requestFailed, message: Self.notRenamable(read.name)))
        }
        return .success(nil)
    }

    /// `textDocument/rename`: every definition and read of the binding under the cursor renamed
    /// to `newName` (nothing else: not the same name in another loop, not text in quotes, not a
    /// command), or why not: a name that cannot be a variable's (an alias's), or one that would
    /// make another binding's reads see this one's values (``ScriptBindings/conflict(renaming:to:)``).
    func rename(
        in document: Document,
        at offset: Int,
        to newName: String?
    ) -> Result<LanguageServerResults.CodeAction.WorkspaceEdit?, Failure> {
        let bindings = bindings(of: document)
        guard let occurrence = bindings.occurrence(at: offset) else {
            if let read = bindings.otherReads.first(where: { $0.target.offset <= offset && offset <= $0.target.end }) {
                return .failure(Failure(code: .requestFailed, message: Self.notRenamable(read.name)))
            }
            return .success(nil)
        }
        guard let newName else { return .failure(Failure(code: .invalidParams, message: "newName is missing")) }
        let binding = bindings.binding(occurrence.binding)
        if let problem = nameProblem(newName, for: binding) {
            return .failure(Failure(code: .requestFailed, message: problem))
        }
        if let conflict = bindings.conflict(renaming: binding, to: newName) {
            let line = document.index.line(of: conflict.range.offset) + 1
            return .failure(
                Failure(
                    code: .requestFailed,
                    message: "cannot rename to '\(newName)': \(conflict.message) (line \(line))"
                )
            )
        }
        let edits = bindings.references(of: binding, includeDeclaration: true).map { range in
            LanguageServerResults.TextEdit(
                range: Self.range(range.offset, range.end, in: document.index),
                newText: newName
            )
        }
        return .success(.init(changes: [document.uri: edits]))
    }

    /// Why `newName` cannot name `binding`, or nil.
    private func nameProblem(_ newName: String, for binding: ScriptBindings.Binding) -> String? {
        switch binding.kind {
        case .external:
            return Self.fromOutside(binding.name).message
        case .alias:
            guard ScriptChecker.isAliasName(newName) else {
                return "'\(newName)' cannot be an alias name (letters, digits, '-' and '_')"
            }
            if Parser.keywords.contains(newName) || registry.command(named: newName) != nil {
                return "'\(newName)' is a bts command or keyword; an alias cannot replace it"
            }
            return nil
        case .variable, .loop:
            guard Parser.isVariableName(newName) else {
                return "'\(newName)' is not a variable name (a letter or '_', then letters, digits or '_'; "
                    + "not _, \(Parser.environmentName) or \(Parser.exchangeName))"
            }
            if registry.setting(named: newName) != nil {
                return "'\(newName)' is a setting: 'set \(newName) VALUE' would change it, not a variable"
            }
            return nil
        }
    }

    /// A variable the script reads but never sets: its name is what `--var` gives.
    private static func fromOutside(_ name: String) -> Failure {
        Failure(
            code: .requestFailed,
            message: "'$\(name)' is not set in this script: it comes from outside (--var, --vars), "
                + "so renaming it here would leave it unset"
        )
    }

    /// Why a read of a name that is no binding's cannot be renamed.
    private static func notRenamable(_ name: String) -> String {
        switch name {
        case "_": return "'$_' is the last result, not a variable: it cannot be renamed"
        case Parser.environmentName: return "'${env.NAME}' reads the environment: it cannot be renamed"
        case Parser.exchangeName: return "'$\(name)' is the last HTTP exchange, not a variable: it cannot be renamed"
        case "#", "@": return "'$\(name)' reads the script's arguments: it cannot be renamed"
        default:
            if name.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
                return "'$\(name)' is a script argument: it cannot be renamed"
            }
            return "'\(name)' is a setting, not a variable: it cannot be renamed"
        }
    }

    private func location(_ range: SourceRange, in document: Document) -> LanguageServerResults.Location {
        .init(uri: document.uri, range: Self.range(range.offset, range.end, in: document.index))
    }
}
