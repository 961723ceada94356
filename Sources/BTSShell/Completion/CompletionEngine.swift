import BTSLanguage
import BTSTerminal
import Foundation

/// What TAB proposes, in UTF-8 byte offsets of the line (the pure form of ``CompletionProposal``).
package struct CompletionAnswer: Sendable, Equatable {
    /// The bytes a candidate replaces (the typed word, or an insertion point at the cursor).
    package var range: Range<Int>
    /// Full replacements for `range`, in listing order.
    package var candidates: [String]
    /// What the listing shows instead (same count), when it differs from the candidates.
    package var display: [String]?
    /// Whether a sole candidate is followed by a space (not after a directory or an open quote).
    package var appendSpace: Bool

    package init(range: Range<Int>, candidates: [String], display: [String]? = nil, appendSpace: Bool = true) {
        self.range = range
        self.candidates = candidates
        self.display = display
        self.appendSpace = appendSpace
    }

    /// No candidates.
    package static func none(at cursor: Int) -> CompletionAnswer {
        CompletionAnswer(range: cursor..<cursor, candidates: [])
    }
}

/// Context-aware TAB completion for bts: the registry's slot analysis (commands, subcommands,
/// options, option values, settings) plus the session's snapshot (job ids, ISBNs and titles seen
/// earlier, variables, profiles, unavailable commands) and file paths.
///
/// Pure apart from listing directories for file paths (injectable); never touches the network,
/// never waits on the interpreter. Lookups in the ISBN and title caches are binary searches.
///
/// Gated commands whose feature is off are still offered, marked `similar (unavailable)` in the
/// listing: the shell's design (docs/interactive.md) asks completion to *mark* them, hiding them would make a real command look
/// misspelt, and running one explains why it cannot run without sending a request.
package struct CompletionEngine: Sendable {
    /// Profiles `connect` always knows.
    package static let builtInProfiles = BackendProfile.builtIn.map(\.name).sorted()
    /// Above this many matches the listing shows the bare candidates (no titles next to ISBNs);
    /// the line editor lists at most 200 anyway.
    package static let annotationLimit = 200
    /// Marker added to unavailable commands in the listing.
    package static let unavailableMarker = " (unavailable)"

    package let registry: CommandRegistry
    package let context: any CompletionContextSource
    package let lister: DirectoryLister

    /// An engine over `registry` reading the session from `context`; `lister` lists directories
    /// for file paths (the real file system by default).
    package init(
        registry: CommandRegistry = .standard,
        context: any CompletionContextSource,
        lister: DirectoryLister? = nil
    ) {
        self.registry = registry
        self.context = context
        self.lister = lister ?? FileCompletion.systemLister
    }

    /// The hook for ``LineEditor/Configuration/completionProvider``.
    package var provider: CompletionProvider {
        let engine = self
        return { request in engine.completion(for: request) }
    }

    /// The answer for a line editor request, with the range as `String.Index`es of its line.
    package func completion(for request: CompletionRequest) -> CompletionProposal {
        let answer = answer(line: request.line, cursorOffset: request.cursorUTF8Offset)
        let utf8 = request.line.utf8
        guard let lower = utf8.index(utf8.startIndex, offsetBy: answer.range.lowerBound, limitedBy: utf8.endIndex),
            let upper = utf8.index(utf8.startIndex, offsetBy: answer.range.upperBound, limitedBy: utf8.endIndex),
            lower <= upper
        else { return .none(for: request) }
        return CompletionProposal(
            replacementRange: lower..<upper,
            candidates: answer.candidates,
            display: answer.display,
            appendSpace: answer.appendSpace
        )
    }

    /// What TAB proposes for `line` with the cursor at UTF-8 offset `cursorOffset`.
    package func answer(line: String, cursorOffset: Int) -> CompletionAnswer {
        let bytes = Array(line.utf8)
        var cursor = min(max(0, cursorOffset), bytes.count)
        // Never inside a UTF-8 sequence (a continuation byte is 10xxxxxx).
        while cursor > 0, cursor < bytes.count, bytes[cursor] & 0xC0 == 0x80 { cursor -= 1 }
        let snapshot = context.completionContext
        if let fields = exchangeAnswer(bytes: bytes, cursor: cursor, context: snapshot) { return fields }
        if let variables = variableAnswer(bytes: bytes, cursor: cursor, context: snapshot) { return variables }

        let slot = registry.completionSlot(forLine: line, cursorOffset: cursor)
        guard slot.range.offset <= cursor else { return .none(at: cursor) }
        let range = slot.range.offset..<min(slot.range.end, cursor)
        let typed = Substring(String(decoding: bytes[range], as: UTF8.self))
        let words = WordCompletion(partial: slot.partial, range: range)
        if slot.command == ApiCommand.configuration {
            return apiAnswer(slot: slot, range: range, bytes: bytes, context: snapshot)
        }
        switch slot.kind {
        case .none, .variable:
            return .none(at: cursor)
        case .command:
            return commandAnswer(slot.candidates, range: range, context: snapshot)
        case .subcommand:
            var answer = words.plain(slot.candidates)
            if let query = slot.command?.positionals.first, query.completion == .title {
                let books = bookAnswer(slot: slot, bytes: bytes, cursor: cursor, context: snapshot)
                answer = answer.merged(with: books)
            }
            return answer
        case .option, .optionValue, .settingValue, .provider, .outputFormat:
            return words.plain(slot.candidates)
        case .columnNames(let names):
            return columnAnswer(names, partial: slot.partial, range: range)
        case .setting:
            let variables = snapshot.variables.filter { $0.hasPrefix(slot.partial) && Parser.isVariableName($0) }
            let settings = Set(slot.candidates)
            return words.plain(slot.candidates + variables.filter { !settings.contains($0) }.sorted())
        case .profile:
            // `connect embedded` goes back to the embedded backend.
            let names = Set(Self.builtInProfiles + ["embedded"]).union(snapshot.profiles).filter {
                $0.hasPrefix(slot.partial)
            }
            return words.plain(names.sorted())
        case .jobID:
            return jobAnswer(words: words, context: snapshot)
        case .isbn:
            return isbnAnswer(partial: slot.partial, range: range, context: snapshot)
        case .title:
            return bookAnswer(
                slot: slot,
                bytes: bytes,
                cursor: cursor,
                context: snapshot,
                catalog: context.catalogLookup
            )
        case .author:
            return authorAnswer(
                slot: slot,
                bytes: bytes,
                cursor: cursor,
                context: snapshot,
                catalog: context.catalogLookup
            )
        case .shelf:
            return words.plain(snapshot.shelves.filter { $0.hasPrefix(slot.partial) })
        case .tag:
            return words.plain(snapshot.tags.filter { $0.hasPrefix(slot.partial) })
        case .filePath(let extensions):
            // `--from=FILE`: complete the part after `=` and keep the option in front.
            var partial = slot.partial
            var rawValue = typed
            var optionPrefix = ""
            if partial.hasPrefix("-"), let equals = partial.firstIndex(of: "="),
                let rawEquals = typed.firstIndex(of: "=")
            {
                optionPrefix = String(partial[...equals])
                partial = String(partial[partial.index(after: equals)...])
                rawValue = typed[typed.index(after: rawEquals)...]
            }
            let anyFile =
                !optionPrefix.isEmpty
                || Self.isOptionValue(bytes: bytes, wordStart: range.lowerBound, command: slot.command)
            let files = FileCompletion(
                partial: partial,
                quoting: .of(typed: rawValue),
                extensions: anyFile ? nil : extensions.map { $0.lowercased() },
                currentDirectory: snapshot.currentDirectory ?? FileManager.default.currentDirectoryPath,
                homeDirectory: snapshot.homeDirectory ?? ProcessInfo.processInfo.environment["HOME"],
                lister: lister
            )
            let found = files.candidates()
            return CompletionAnswer(
                range: range,
                candidates: found.candidates.map { optionPrefix + $0 },
                display: found.display,
                appendSpace: !found.soleIsDirectory
            )
        }
    }

    // MARK: kinds

    private func commandAnswer(_ names: [String], range: Range<Int>, context: CompletionContext) -> CompletionAnswer {
        let display = names.map { name in
            context.unavailableCommands[name] == nil ? name : name + Self.unavailableMarker
        }
        return CompletionAnswer(range: range, candidates: names, display: display == names ? nil : display)
    }

    private func jobAnswer(words: WordCompletion, context: CompletionContext) -> CompletionAnswer {
        var ids = ["last"]
        var display = ["last"]
        var seen: Set<String> = ["last"]
        for job in context.jobs where job.id.hasPrefix(words.partial) && seen.insert(job.id).inserted {
            ids.append(job.id)
            display.append(job.summary.isEmpty ? job.id : "\(job.id)  (\(job.summary))")
        }
        if !"last".hasPrefix(words.partial) {
            ids.removeFirst()
            display.removeFirst()
        }
        let answer = CompletionAnswer(
            range: words.range,
            candidates: ids.map { CompletionQuoting.bare.write($0, closed: true) },
            display: display
        )
        return answer.display == answer.candidates
            ? CompletionAnswer(range: words.range, candidates: answer.candidates) : answer
    }

    func isbnAnswer(partial: String, range: Range<Int>, context: CompletionContext) -> CompletionAnswer {
        guard let prefix = CompletionContext.isbnPrefix(partial) else { return .none(at: range.upperBound) }
        let matches = context.isbns.range(withPrefix: prefix)
        let candidates = Array(context.isbns.sortedKeys[matches])
        var display: [String]?
        if candidates.count <= Self.annotationLimit {
            let shown = zip(candidates, context.isbns.sortedPayloads[matches]).map { isbn, title in
                title.isEmpty ? isbn : "\(isbn)  \(title)"
            }
            if shown != candidates { display = shown }
        }
        return CompletionAnswer(range: range, candidates: candidates, display: display)
    }

    /// `-f`/`--from`-style values take any file; positionals (`import`, `source`) filter by extension.
    /// True when the word before `wordStart` is an option of `command` that takes a value.
    static func isOptionValue(bytes: [UInt8], wordStart: Int, command: CommandSpec?) -> Bool {
        let before = String(decoding: bytes[..<wordStart], as: UTF8.self)
        let (tokens, _) = Lexer.tokenize(SourceFile(name: "<completion>", text: before))
        guard let previous = tokens.last(where: { $0.word != nil })?.word, !previous.isQuoted,
            case .option(let syntax)? = try? Parser.classify(previous).get(), syntax.value == nil
        else { return false }
        let options = (command?.options ?? []) + CommandRegistry.globalOptions
        guard let option = CommandRegistry.option(matching: syntax, in: options) else { return false }
        return !option.isFlag
    }
}

/// Filtering and answer building for words that are offered as they are.
struct WordCompletion {
    var partial: String
    var range: Range<Int>

    /// `words` (already filtered by the registry or the caller) as the answer.
    func plain(_ words: [String]) -> CompletionAnswer {
        CompletionAnswer(range: range, candidates: words)
    }
}

extension CompletionAnswer {
    /// Both answers' candidates when they replace the same range (else the non-empty one).
    func merged(with other: CompletionAnswer) -> CompletionAnswer {
        if other.candidates.isEmpty { return self }
        if candidates.isEmpty { return other }
        guard range == other.range else { return self }
        let display: [String]?
        if self.display != nil || other.display != nil {
            display = (self.display ?? candidates) + (other.display ?? other.candidates)
        } else {
            display = nil
        }
        return CompletionAnswer(
            range: range,
            candidates: candidates + other.candidates,
            display: display,
            appendSpace: appendSpace && other.appendSpace
        )
    }
}
