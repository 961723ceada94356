import BTSLanguage

extension CommandResolver {
    /// The second step for commands with `$var` values: `interpolate` turns each deferred word
    /// into text (or a diagnostic, e.g. for an unknown variable); the text is then checked
    /// against the argument's type. After success no value is deferred.
    package func finish(
        _ resolved: ResolvedCommand,
        interpolate: (Word) -> Result<String, Diagnostic>
    ) -> Result<ResolvedCommand, Diagnostics> {
        var result = resolved
        var diagnostics: [Diagnostic] = []
        func complete(_ bound: BoundValue, label: String) -> BoundValue? {
            guard bound.isDeferred else { return bound }
            switch interpolate(bound.word) {
            case .failure(let diagnostic):
                diagnostics.append(diagnostic)
                return nil
            case .success(let text):
                switch check(text, word: bound.word, type: bound.type, label: label) {
                case .success(let value):
                    return BoundValue(word: bound.word, type: bound.type, value: value, text: text)
                case .failure(let diagnostic):
                    diagnostics.append(diagnostic)
                    return nil
                }
            }
        }
        for (name, values) in resolved.positionals {
            result.positionals[name] = values.compactMap { complete($0, label: name) }
        }
        for (long, option) in resolved.options {
            guard let value = option.value else { continue }
            result.options[long]?.value = complete(value, label: "'\(option.spec.spelling)'")
        }
        if diagnostics.isEmpty {
            diagnostics += checkNames(result.positionals, spec: resolved.spec)
        }
        if !diagnostics.isEmpty { return .failure(Diagnostics(diagnostics)) }
        return .success(result)
    }

    // MARK: Values

    func bind(_ word: Word, type: ValueType, label: String) -> Result<BoundValue, Diagnostic> {
        guard let text = word.literalText else {
            return .success(BoundValue(word: word, type: type, value: nil, text: nil))
        }
        return check(text, word: word, type: type, label: label).map {
            BoundValue(word: word, type: type, value: $0, text: text)
        }
    }

    /// Checks one value's text against its type; `label` is `'--limit'` or `CODE`.
    func check(_ text: String, word: Word, type: ValueType, label: String) -> Result<ArgumentValue, Diagnostic> {
        let origin = word.hasInterpolation ? " (from '\(word.sourceForm)')" : ""
        switch type.parse(text) {
        case .success(let value):
            return .success(value)
        case .failure(.outOfRange):
            return .failure(
                .error(
                    "value \(text) for \(label)\(origin) is out of range: expected \(type.expectation)",
                    rule: .invalidValue,
                    at: word.range
                )
            )
        case .failure(.invalid):
            return .failure(
                .error(
                    "invalid value '\(text)' for \(label)\(origin): expected \(type.expectation)",
                    rule: .invalidValue,
                    at: word.range
                )
            )
        case .failure(.unknownWord(let suggestion)):
            var message = "invalid value '\(text)' for \(label)\(origin): expected \(type.expectation)"
            var fixIt: Diagnostic.FixIt?
            var closest = suggestion
            if closest == nil, case .enumeration(let values) = type {
                closest = Suggest.closest(to: text, among: values)
            }
            if let guess = closest {
                message += " (did you mean '\(guess)'?)"
                if !word.hasInterpolation { fixIt = Diagnostic.FixIt(range: word.range, replacement: guess) }
            }
            return .failure(.error(message, rule: .invalidValue, at: word.range, fixIt: fixIt))
        }
    }
}
