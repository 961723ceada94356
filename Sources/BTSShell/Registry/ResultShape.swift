import BTSLanguage

/// The declared shape of a result value (`$_` after a command, `$_http`, a failure's `{error, body}`):
/// its fields with their types, one line each and whether they may be missing. One shape per command
/// (``CommandResults``); the language server completes and explains `${_.…}` paths from it, and a test
/// runs every command and checks its value against it.
package struct ResultShape: Sendable, Hashable {
    /// What a field holds.
    package indirect enum Kind: Sendable, Hashable {
        case string
        case number
        case bool
        /// An array of values of one kind.
        case list(Kind)
        /// An object with declared fields.
        case record(ResultShape)
        /// An object whose keys are data, not declared (a response's headers by name).
        case object
        /// Whatever a server answered (`api`'s body): nothing is declared.
        case any

        /// `string`, `number`, `list of record`, …
        package var name: String {
            switch self {
            case .string: return "string"
            case .number: return "number"
            case .bool: return "bool"
            case .list(let element): return "list of \(element.name)"
            case .record: return "record"
            case .object: return "object"
            case .any: return "any value"
            }
        }

        /// The declared fields one step in (a list's: its elements'); nil when there are none.
        package var fields: ResultShape? {
            switch self {
            case .record(let shape): return shape
            case .list(let element): return element.fields
            default: return nil
            }
        }
    }

    /// One field of a record.
    package struct Field: Sendable, Hashable {
        package var name: String
        package var kind: Kind
        /// One line, no final period.
        package var summary: String
        /// Whether a value may leave it out.
        package var isOptional: Bool

        package init(_ name: String, _ kind: Kind, _ summary: String, optional: Bool = false) {
            self.name = name
            self.kind = kind
            self.summary = summary
            self.isOptional = optional
        }

        /// The field as a value may leave it out.
        package var optional: Field {
            var field = self
            field.isOptional = true
            return field
        }
    }

    package var fields: [Field]

    package init(_ fields: [Field]) {
        self.fields = fields
    }

    /// The field named `name`.
    package subscript(name: String) -> Field? {
        fields.first { $0.name == name }
    }

    /// The names of the fields, in declaration order.
    package var names: [String] { fields.map(\.name) }

    /// The fields of both shapes (a command that answers in two ways): a field that only one has
    /// becomes optional; a field both have keeps the first's kind (a record's fields merged).
    package func union(_ other: ResultShape) -> ResultShape {
        var merged = fields.map { field -> Field in
            guard let theirs = other[field.name] else { return field.optional }
            var field = field
            if case .record(let mine) = field.kind, case .record(let their) = theirs.kind {
                field.kind = .record(mine.union(their))
            } else if case .list(.record(let mine)) = field.kind, case .list(.record(let their)) = theirs.kind {
                field.kind = .list(.record(mine.union(their)))
            }
            field.isOptional = field.isOptional || theirs.isOptional
            return field
        }
        merged += other.fields.filter { self[$0.name] == nil }.map(\.optional)
        return ResultShape(merged)
    }

    /// The kind a path reaches from this record (`results`, `0`, `title` → string); nil when the
    /// path leaves the declared fields.
    package func kind(at path: [ValuePath.Component]) -> Kind? {
        Kind.record(self).descending(path[...])
    }
}

extension ResultShape.Kind {
    /// The kind `path` reaches from this one: a key a record's field, an index (or a number
    /// written as a key, `.0`) a list's element, `[*]` the list of what the rest reaches from each
    /// element; nil when the path leaves the declared fields.
    package func descending(_ path: ArraySlice<ValuePath.Component>) -> Self? {
        guard let step = path.first else { return self }
        let rest = path.dropFirst()
        switch (step, self) {
        case (.index, .list(let element)):
            return element.descending(rest)
        case (.all, .list(let element)):
            return element.descending(rest).map { .list($0) }
        case (.key(let key), .list(let element)) where !key.isEmpty && key.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }):
            return element.descending(rest)
        case (.key(let key), .record(let shape)):
            return shape[key]?.kind.descending(rest)
        default:
            return nil
        }
    }
}

extension ResultShape: ExpressibleByArrayLiteral {
    package init(arrayLiteral fields: Field...) {
        self.init(fields)
    }
}
