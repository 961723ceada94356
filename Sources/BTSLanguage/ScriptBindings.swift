/// Every binding of a name in a parsed script and every use of it, scoped as an editor shows them:
/// variables (`set NAME …`), loop variables (`for NAME in …`), variables the script reads but never
/// sets (given from outside with `--var`/`--vars`, or read with a `${NAME:-default}`), and aliases
/// (`alias NAME TEXT…`). Pure: built from the AST alone, for definition, references, rename, hover
/// and the variables completion offers at a place.
///
/// Scopes: a loop variable is bound in its loop's body (from the end of the `for` header to its
/// `end`), where it hides a variable of the same name; a `set` inside that body assigns it. Every
/// other variable is the script's: a `set` anywhere (in a loop or a branch too) assigns the one
/// variable of that name, which is read everywhere outside the loops that bind the name. An alias is
/// the script's too: every `alias NAME TEXT…` defines the one alias, called as a command named NAME
/// (and named by `alias NAME` and `unalias NAME`). The interpreter keeps a loop variable's last item
/// after its loop; a read there is the script's variable of that name here (rename refuses to
/// change what such a read would see: ``conflict(renaming:to:)``).
///
/// Not bindings: `_`, `env`, `_http` (reserved), `$1…$n`, `$#`, `$@`, `$?`, and the settings
/// (`set output json`: their names are given, the language does not know them).
package struct ScriptBindings: Sendable {
    /// What made a binding.
    package enum Kind: String, Sendable, Hashable {
        /// `set NAME VALUE` (somewhere in the script).
        case variable
        /// `for NAME in …`.
        case loop
        /// Read but never set in the script: given with `--var`/`--vars` (or read with a default).
        case external
        /// `alias NAME TEXT…`.
        case alias
    }

    /// What a definition gives its name, as far as the text says.
    package enum Value: Sendable, Hashable {
        /// `set n 3`, `set q "a b"`: the text.
        case literal(String)
        /// `set i $i + 1`: the expression as written.
        case arithmetic(String)
        /// `set x ${_.jobId}`: the word as written (known when the line runs).
        case word(String)
        /// A loop variable: each item of its `for` (``ItemsForm``) over the words as written.
        case items(ItemsForm, text: String, range: SourceRange)
        /// An alias: its text as written.
        case aliasText(String)
    }

    /// How a `for` walks its words.
    package enum ItemsForm: Sendable, Hashable {
        /// `for NAME in WORD…`: each word, each element of a word that holds an array.
        case elements
        /// `for NAME in lines FILE`.
        case lines
        /// `for NAME in words TEXT…`.
        case words
    }

    /// One place that gives a binding a value.
    package struct Definition: Sendable, Hashable {
        /// The name as written (what a rename replaces).
        package var range: SourceRange
        /// The whole statement: the command, or the `for` header.
        package var statement: SourceRange
        package var value: Value?
    }

    /// One name in one scope.
    package struct Binding: Sendable, Hashable, Identifiable {
        package var id: Int
        package var name: String
        package var kind: Kind
        /// Where the name means this binding: a loop's body, else the whole script.
        package var scope: SourceRange
        /// In source order; none for ``Kind/external``.
        package var definitions: [Definition]
    }

    /// One read of a binding: `$NAME`, `${NAME}`, `${NAME.path}`, an alias called as a command, or
    /// named by `alias NAME` and `unalias NAME`.
    package struct Use: Sendable, Hashable {
        package var binding: Int
        /// The name as written (what a rename replaces).
        package var range: SourceRange
        /// From the `$` to the end of the name (where a cursor finds the use).
        package var target: SourceRange
        /// `${NAME:-TEXT}`'s TEXT.
        package var fallback: String?
    }

    /// A name under a cursor: a binding's definition or one of its uses.
    package struct Occurrence: Sendable, Hashable {
        package var binding: Int
        /// The name as written.
        package var range: SourceRange
        package var isDefinition: Bool
    }

    /// A read of a name that is no binding's: `$_`, `${env.HOME}`, `${_http.status}`, `$1`, `$#`,
    /// `$@`, a setting's name read outside the loops that bind it.
    package struct OtherRead: Sendable, Hashable {
        package var name: String
        /// From the `$` to the end of the name.
        package var target: SourceRange
    }

    /// In order of their first occurrence; a binding's `id` is its index.
    package private(set) var bindings: [Binding]
    /// In source order.
    package private(set) var uses: [Use]
    /// In source order.
    package private(set) var otherReads: [OtherRead]

    init(bindings: [Binding], uses: [Use], otherReads: [OtherRead]) {
        self.bindings = bindings
        self.uses = uses
        self.otherReads = otherReads
    }

    /// The names of the commands that bind names, and of the settings `set` changes (not
    /// variables): the registry's, handed down (this module knows no command).
    package struct Vocabulary: Sendable {
        /// `set NAME VALUE…`
        package var set: String
        /// `alias NAME TEXT…` (and `alias NAME`, which shows it)
        package var alias: String
        /// `unalias NAME…`
        package var unalias: String
        package var settingNames: Set<String>

        package init(set: String, alias: String, unalias: String, settingNames: Set<String>) {
            self.set = set
            self.alias = alias
            self.unalias = unalias
            self.settingNames = settingNames
        }
    }

    /// The bindings of `script`, its commands named as `vocabulary` names them.
    package init(_ script: Script, vocabulary: Vocabulary) {
        var builder = Builder(vocabulary: vocabulary, scriptRange: script.range)
        builder.collectAliases(script.commands)
        builder.walk(script.statements)
        self = builder.finish()
    }

    /// The binding with `id`.
    package func binding(_ id: Int) -> Binding { bindings[id] }

    /// The definition or use whose name (a use: from its `$`) holds `offset`, its end included (a
    /// cursor just after a name is on it).
    package func occurrence(at offset: Int) -> Occurrence? {
        for binding in bindings {
            for definition in binding.definitions where Self.holds(definition.range, offset) {
                return Occurrence(binding: binding.id, range: definition.range, isDefinition: true)
            }
        }
        for use in uses where Self.holds(use.target, offset) {
            return Occurrence(binding: use.binding, range: use.range, isDefinition: false)
        }
        return nil
    }

    /// Where the binding of `occurrence` is defined (none for a variable from outside).
    package func definitions(of occurrence: Occurrence) -> [Definition] {
        bindings[occurrence.binding].definitions
    }

    /// The ranges of every use of `binding`'s name (and, with `includeDeclaration`, of its
    /// definitions), in source order.
    package func references(of binding: Binding, includeDeclaration: Bool) -> [SourceRange] {
        var ranges = uses.filter { $0.binding == binding.id }.map(\.range)
        if includeDeclaration { ranges += binding.definitions.map(\.range) }
        return ranges.sorted { $0.offset < $1.offset }
    }

    /// The uses of `binding`, in source order.
    package func uses(of binding: Binding) -> [Use] {
        uses.filter { $0.binding == binding.id }
    }

    /// The variables and aliases that can be read at `offset`: the loops' variables whose body
    /// holds it (the innermost of a name), and the script's variables and aliases defined before it
    /// (a variable the loops there bind is theirs). Sorted by name, variables first.
    package func bindings(at offset: Int) -> [Binding] {
        var loops: [String: Binding] = [:]
        for binding in bindings where binding.kind == .loop && Self.inside(binding.scope, offset) {
            if let found = loops[binding.name], found.scope.offset > binding.scope.offset { continue }
            loops[binding.name] = binding
        }
        let defined = bindings.filter { binding in
            (binding.kind == .variable || binding.kind == .alias) && loops[binding.name] == nil
                && binding.definitions.contains { $0.statement.end <= offset }
        }
        return (Array(loops.values) + defined).sorted {
            ($0.kind == .alias ? 1 : 0, $0.name) < ($1.kind == .alias ? 1 : 0, $1.name)
        }
    }

    /// The variable `name` means at `offset` (a loop's there, else the script's), if the script
    /// binds or reads it.
    package func variable(named name: String, at offset: Int) -> Binding? {
        let loops = bindings.filter { $0.kind == .loop && $0.name == name && Self.inside($0.scope, offset) }
        if let innermost = loops.max(by: { $0.scope.offset < $1.scope.offset }) { return innermost }
        return bindings.first { ($0.kind == .variable || $0.kind == .external) && $0.name == name }
    }

    /// Whether `range` holds `offset`, its end included.
    static func holds(_ range: SourceRange, _ offset: Int) -> Bool {
        range.offset <= offset && offset <= range.end
    }

    /// Whether a scope holds `offset` (a body starts after its header: not at its end).
    static func inside(_ scope: SourceRange, _ offset: Int) -> Bool {
        scope.offset < offset && offset <= scope.end
    }
}
