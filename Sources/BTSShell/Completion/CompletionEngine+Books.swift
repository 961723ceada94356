import BTSLanguage
import BooksTrackCatalog
import Foundation

extension CompletionEngine {
    /// The most words before the cursor joined into one title query (`search title dune mes`).
    static let titleWordLimit = 8
    /// The most authors or titles one TAB takes from the catalog.
    static let catalogLimit = SQLiteCatalog.completionLimit

    /// ISBNs when the typed word looks like the start of one, else titles seen earlier,
    /// matched case- and accent-insensitively on their beginning. For a multi-word query
    /// (`search title dune mes`) the longest run of bare words before the cursor that still
    /// starts some title is replaced as a whole by the quoted title.
    func bookAnswer(
        slot: CompletionSlot,
        bytes: [UInt8],
        cursor: Int,
        context: CompletionContext,
        catalog: (any CatalogCompletionLookup)? = nil
    ) -> CompletionAnswer {
        let range = slot.range.offset..<min(slot.range.end, cursor)
        if let first = slot.partial.first, first.isASCII, first.isNumber,
            CompletionContext.isbnPrefix(slot.partial) != nil
        {
            return isbnAnswer(partial: slot.partial, range: range, context: context)
        }
        let runs = precedingQueryWords(bytes: bytes, partialRange: range, slot: slot)
        for start in runs.indices {
            let run = runs[start...]
            let query = (run.map(\.text) + [slot.partial]).joined(separator: " ")
            let replaced = (run.first?.range.offset ?? range.lowerBound)..<range.upperBound
            let answer = titleAnswer(query: query, range: replaced, context: context, catalog: catalog)
            if !answer.candidates.isEmpty { return answer }
        }
        return titleAnswer(query: slot.partial, range: range, context: context, catalog: catalog)
    }

    /// Titles seen in this session starting with `query`, then the catalog's titles starting with
    /// it, the most rated first (matched case- and accent-insensitively on their beginning alike).
    private func titleAnswer(
        query: String,
        range: Range<Int>,
        context: CompletionContext,
        catalog: (any CatalogCompletionLookup)?
    ) -> CompletionAnswer {
        let matches = context.titles.range(withPrefix: CompletionContext.foldTitle(query))
        var titles = Array(context.titles.sortedPayloads[matches])
        let typed = Self.unquoted(query)
        if let catalog, !typed.isEmpty {
            let folded = CompletionContext.foldTitle(typed)
            var seen = Set(titles)
            titles += catalog.titles(typed, limit: Self.catalogLimit).filter {
                CompletionContext.foldTitle($0).hasPrefix(folded) && seen.insert($0).inserted
            }
        }
        let candidates = titles.map(CompletionQuoting.title)
        let display = titles.count <= Self.annotationLimit && !titles.isEmpty ? titles : nil
        return CompletionAnswer(range: range, candidates: candidates, display: display)
    }

    /// Author names from the catalog (the most popular first), then those seen in results (on a
    /// remote backend, the only ones), for the typed word or, as for titles, the longest run of bare
    /// words before it (`search author j r r tolk`) that finds some; a name with blanks is inserted
    /// quoted.
    func authorAnswer(
        slot: CompletionSlot,
        bytes: [UInt8],
        cursor: Int,
        context: CompletionContext,
        catalog: (any CatalogCompletionLookup)?
    ) -> CompletionAnswer {
        let range = slot.range.offset..<min(slot.range.end, cursor)
        let runs = precedingQueryWords(bytes: bytes, partialRange: range, slot: slot)
        let queries =
            runs.indices.map { start in
                (
                    (runs[start...].map(\.text) + [slot.partial]).joined(separator: " "),
                    (runs[start].range.offset)..<range.upperBound
                )
            } + [(slot.partial, range)]
        for (query, replaced) in queries where !Self.unquoted(query).isEmpty {
            var names = catalog?.authors(Self.unquoted(query), limit: Self.catalogLimit) ?? []
            var seen = Set(names)
            names += context.authors(matching: Self.unquoted(query)).filter { seen.insert($0).inserted }
            names = Array(names.prefix(Self.catalogLimit))
            guard !names.isEmpty else { continue }
            let candidates = names.map { name in
                name.contains(where: { CompletionQuoting.needsEscapeInBareWord($0, atStart: false) })
                    ? CompletionQuoting.title(name) : CompletionQuoting.bare.write(name, closed: true)
            }
            return CompletionAnswer(range: replaced, candidates: candidates, display: names)
        }
        return .none(at: cursor)
    }

    /// The typed text without an opening quote (`"tolk` → `tolk`), blanks trimmed.
    static func unquoted(_ typed: String) -> String {
        var text = Substring(typed)
        if let first = text.first, first == "\"" || first == "'" { text = text.dropFirst() }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The bare words right before the typed one that belong to a variadic query positional,
    /// oldest first (empty when the typed word starts with a quote or nothing qualifies).
    private func precedingQueryWords(
        bytes: [UInt8],
        partialRange: Range<Int>,
        slot: CompletionSlot
    )
        -> [(text: String, range: SourceRange)]
    {
        guard let spec = slot.command,
            spec.positionals.contains(where: { $0.isVariadic && ($0.completion == .title || $0.completion == .author) }
            ),
            bytes[partialRange].first != UInt8(ascii: "\""), bytes[partialRange].first != UInt8(ascii: "'")
        else { return [] }
        let before = String(decoding: bytes[..<partialRange.lowerBound], as: UTF8.self)
        let (tokens, _) = Lexer.tokenize(SourceFile(name: "<completion>", text: before))
        var statement: [Word] = []
        for token in tokens {
            if let word = token.word { statement.append(word) } else if token.kind != .end { statement.removeAll() }
        }
        // Skip the command path (root and subcommands).
        guard let rootName = statement.first?.literalText, var current = registry.command(named: rootName) else {
            return []
        }
        var index = 1
        while index < statement.count, !current.subcommands.isEmpty, let text = statement[index].literalText,
            !statement[index].isQuoted, let sub = current.subcommand(named: text)
        {
            current = sub
            index += 1
        }
        let options = current.options + CommandRegistry.globalOptions
        var run: [(text: String, range: SourceRange)] = []
        var position = statement.count - 1
        while position >= index, run.count < Self.titleWordLimit {
            let word = statement[position]
            guard let text = word.literalText, !word.isQuoted, !text.hasPrefix("-") else { break }
            if position > index, let previous = statement[position - 1].literalText, previous.hasPrefix("-"),
                case .option(let syntax)? = try? Parser.classify(statement[position - 1]).get(),
                syntax.value == nil, let option = CommandRegistry.option(matching: syntax, in: options), !option.isFlag
            {
                break  // the value of an option such as `--limit 5`
            }
            run.insert((text, word.range), at: 0)
            position -= 1
        }
        return run
    }

    // MARK: variables

    /// `$na` → `$name`, `${na` → `${name}`, anywhere in the line (also inside double quotes);
    /// `$_h` → `$_http`, `${_h` → `${_http.` once there is an exchange (its fields follow:
    /// ``exchangeAnswer(bytes:cursor:context:)``).
    func variableAnswer(bytes: [UInt8], cursor: Int, context: CompletionContext) -> CompletionAnswer? {
        var start = cursor
        while start > 0, Self.isNameByte(bytes[start - 1]) { start -= 1 }
        let braced: Bool
        let dollar: Int
        if start >= 2, bytes[start - 1] == UInt8(ascii: "{"), bytes[start - 2] == UInt8(ascii: "$") {
            braced = true
            dollar = start - 2
        } else if start >= 1, bytes[start - 1] == UInt8(ascii: "$") {
            braced = false
            dollar = start - 1
        } else {
            return nil
        }
        if dollar > 0, bytes[dollar - 1] == UInt8(ascii: "\\") { return nil }
        let prefix = String(decoding: bytes[start..<cursor], as: UTF8.self)
        let names = context.variables.filter { $0.hasPrefix(prefix) && !$0.isEmpty }.sorted()
        let candidates = names.map { name in
            guard braced else { return "$\(name)" }
            return name == VariableScope.Exchange.name ? "${\(name)." : "${\(name)}"
        }
        let before = String(decoding: bytes[..<dollar], as: UTF8.self)
        let insideQuotes = !Parser.isLexicallyComplete(before)
        let open = candidates.count == 1 && candidates[0].hasSuffix(".")
        return CompletionAnswer(range: dollar..<cursor, candidates: candidates, appendSpace: !insideQuotes && !open)
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
    }
}
