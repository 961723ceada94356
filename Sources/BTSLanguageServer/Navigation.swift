import BTSLanguage
import BTSShell
import BooksTrackContract

/// `textDocument/definition`, `references`, `prepareRename` and `rename`: where a document's
/// variables and aliases are set and read, over its ``ScriptBindings``; a rename is refused with
/// one sentence when it cannot be done (a reserved name, a setting, a clash).
enum Navigation {
    typealias Failure = LanguageServer.Failure

    /// The bindings of `index`'s text, read from what parses of it (a quote left open hides no
    /// line after it: ``DocumentSymbols/statements(_:)``).
    static func bindings(of index: LineIndex, registry: CommandRegistry) -> ScriptBindings {
        let statements = DocumentSymbols.statements(index.text)
        let script = Script(statements: statements, range: SourceRange(offset: 0, length: index.bytes.count))
        return ScriptBindings(script, vocabulary: ScriptChecker.bindingVocabulary(of: registry))
    }

    /// Where the variable or alias at `offset` is set (every `set` of a script's variable, a loop
    /// variable's `for`, every `alias`); nothing for a variable from outside or elsewhere.
    static func definition(
        _ bindings: ScriptBindings,
        at offset: Int,
        in index: LineIndex,
        uri: String
    ) -> [LanguageServerResults.Location]? {
        guard let occurrence = bindings.occurrence(at: offset) else { return nil }
        let found = bindings.definitions(of: occurrence)
        guard !found.isEmpty else { return nil }
        return found.map { location($0.range, in: index, uri: uri) }
    }

    /// Every read of the binding at `offset` (and its definitions with `includeDeclaration`), not
    /// those of the same name in another scope.
    static func references(
        _ bindings: ScriptBindings,
        at offset: Int,
        includeDeclaration: Bool,
        in index: LineIndex,
        uri: String
    ) -> [LanguageServerResults.Location]? {
        guard let occurrence = bindings.occurrence(at: offset) else { return nil }
        return bindings.references(of: bindings.binding(occurrence.binding), includeDeclaration: includeDeclaration)
            .map { location($0, in: index, uri: uri) }
    }

    /// The name at `offset` and its range when it is a variable or an alias the script binds; a
    /// reserved name or a setting is refused with a sentence; anything else (a command, a keyword,
    /// a literal) is nothing to rename (nil).
    static func prepareRename(
        _ bindings: ScriptBindings,
        at offset: Int,
        in index: LineIndex
    ) -> Result<LanguageServerResults.PrepareRename?, Failure> {
        if let occurrence = bindings.occurrence(at: offset) {
            let binding = bindings.binding(occurrence.binding)
            if binding.kind == .external { return .failure(fromOutside(binding.name)) }
            return .success(
                LanguageServerResults.PrepareRename(
                    range: index.range(occurrence.range.offset, occurrence.range.end),
                    placeholder: binding.name
                )
            )
        }
        if let read = bindings.otherReads.first(where: { $0.target.offset <= offset && offset <= $0.target.end }) {
            return .failure(Failure(code: .requestFailed, message: notRenamable(read.name)))
        }
        return .success(nil)
    }

    /// Every definition and read of the binding at `offset` renamed to `newName` (nothing else:
    /// not the same name in another loop, not text in quotes, not a command), or why not: a name
    /// that cannot be a variable's (an alias's), or one that would make another binding's reads see
    /// this one's values (``ScriptBindings/conflict(renaming:to:)``).
    static func rename(
        _ bindings: ScriptBindings,
        at offset: Int,
        to newName: String?,
        in index: LineIndex,
        uri: String,
        registry: CommandRegistry
    ) -> Result<LanguageServerResults.CodeAction.WorkspaceEdit?, Failure> {
        guard let occurrence = bindings.occurrence(at: offset) else {
            if let read = bindings.otherReads.first(where: { $0.target.offset <= offset && offset <= $0.target.end }) {
                return .failure(Failure(code: .requestFailed, message: notRenamable(read.name)))
            }
            return .success(nil)
        }
        guard let newName else { return .failure(Failure(code: .invalidParams, message: "newName is missing")) }
        let binding = bindings.binding(occurrence.binding)
        if let problem = nameProblem(newName, for: binding, registry: registry) {
            return .failure(Failure(code: .requestFailed, message: problem))
        }
        if let conflict = bindings.conflict(renaming: binding, to: newName) {
            let line = index.line(of: conflict.range.offset) + 1
            return .failure(
                Failure(
                    code: .requestFailed,
                    message: "cannot rename to '\(newName)': \(conflict.message) (line \(line))"
                )
            )
        }
        let edits = bindings.references(of: binding, includeDeclaration: true).map { range in
            LanguageServerResults.TextEdit(range: index.range(range.offset, range.end), newText: newName)
        }
        return .success(.init(changes: [uri: edits]))
    }

    /// Why `newName` cannot name `binding`, or nil.
    static func nameProblem(
        _ newName: String,
        for binding: ScriptBindings.Binding,
        registry: CommandRegistry
    ) -> String? {
        switch binding.kind {
        case .external:
            return fromOutside(binding.name).message
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
    static func notRenamable(_ name: String) -> String {
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

    private static func location(
        _ range: SourceRange,
        in index: LineIndex,
        uri: String
    ) -> LanguageServerResults.Location {
        .init(uri: uri, range: index.range(range.offset, range.end))
    }
}
