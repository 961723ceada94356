extension ScriptBindings {
    /// Why a rename would change what the script does: the name it would clash with, and where.
    package struct Conflict: Sendable, Hashable, Error {
        /// One sentence, without the place (``range``).
        package var message: String
        /// The other binding's definition or use, or the read whose value would change.
        package var range: SourceRange
    }

    /// Why renaming `binding` to `newName` would make a read see another value, or nil when every
    /// read keeps its value. (Whether `newName` is a valid variable or alias name is the caller's.)
    ///
    /// Refused: a name another binding of the same kind holds where this one is visible (a
    /// script's variable or alias of that name, or a loop of that name around or inside this loop),
    /// and a binding read after a loop of its name where the interpreter would read that loop's
    /// last item (the name links the two at run time).
    package func conflict(renaming binding: Binding, to newName: String) -> Conflict? {
        guard newName != binding.name else { return nil }
        for other in bindings where other.name == newName && other.id != binding.id {
            let place = other.definitions.first?.range ?? uses(of: other).first?.range ?? other.scope
            switch (binding.kind, other.kind) {
            case (.alias, .alias):
                return Conflict(message: "there is already an alias '\(newName)'", range: place)
            case (.alias, _), (_, .alias):
                continue
            case (.loop, .loop):
                guard overlaps(binding.scope, other.scope) else { continue }
                return Conflict(
                    message: "the loop variable '$\(newName)' is visible there: the new name would hide one of them",
                    range: place
                )
            default:
                return Conflict(
                    message: "'$\(newName)' is already a variable of this script: the two would become one",
                    range: place
                )
            }
        }
        return loopItemRead(linking: binding)
    }

    /// A read of `binding`'s name after a loop of that name, before anything assigns the name
    /// again (a `set` of it, another loop's head): at run time it reads that loop's last item, so
    /// the loop's binding and the read's are one variable there and neither can be renamed alone.
    private func loopItemRead(linking binding: Binding) -> Conflict? {
        guard binding.kind != .alias else { return nil }
        let name = binding.name
        let named = bindings.filter { $0.name == name && $0.kind != .alias }
        // Where the name is assigned: a `set`, or a loop's head once its items are read.
        let assignments = named.flatMap { other in
            other.kind == .loop ? [other.scope.offset] : other.definitions.map(\.range.offset)
        }.sorted()
        let namedIDs = Set(named.map(\.id))
        let reads = uses.filter { namedIDs.contains($0.binding) }
        for loop in named where loop.kind == .loop {
            let start = loop.scope.end
            let next = assignments.first { $0 >= start } ?? Int.max
            for use in reads where use.range.offset >= start && use.range.offset < next {
                guard use.binding == binding.id || loop.id == binding.id else { continue }
                return Conflict(
                    message: "'$\(name)' is read after its loop, where it holds the loop's last item: "
                        + "renaming one of them alone would change what that read sees",
                    range: use.range
                )
            }
        }
        return nil
    }

    private func overlaps(_ first: SourceRange, _ second: SourceRange) -> Bool {
        first.offset < second.end && second.offset < first.end
    }
}
