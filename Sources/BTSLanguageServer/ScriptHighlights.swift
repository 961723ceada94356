import BTSLanguage
import BTSShell

/// What a script's words are, from the lexer's tokens (no parse: a broken script is highlighted
/// up to and around its mistakes): the pieces semantic tokens report, the block keywords at a
/// command's place and the comments (for folding). Only an unquoted keyword at a command's place
/// is a keyword, as for the parser and `bts fmt`.
struct ScriptHighlights {
    /// A piece of the text and its kind: bytes `offset..<end`.
    struct Piece: Equatable {
        var offset: Int
        var end: Int
        var type: SemanticTokenType
        /// ``SemanticTokenModifier/bit``s.
        var modifiers: Int = 0
    }

    /// A block keyword as a command's name, by what it does to the block around it.
    struct BlockWord: Equatable {
        enum Role { case open, divide, close }
        var role: Role
        var offset: Int
    }

    /// A comment: bytes `offset..<end` (trailing blanks left out); `alone` when no word is before it
    /// on its line.
    struct Comment: Equatable {
        var offset: Int
        var end: Int
        var alone: Bool
    }

    /// The names a script's commands are looked up in: each command's name and alias, with the
    /// names and aliases of its subcommands; the settings of `set`.
    struct Vocabulary: Sendable {
        var commands: [String: Set<String>]
        var settings: Set<String>

        init(_ registry: CommandRegistry) {
            var commands: [String: Set<String>] = [:]
            for spec in registry.commands {
                let subcommands = Set(spec.subcommands.flatMap { [$0.name] + $0.aliases })
                for name in [spec.name] + spec.aliases { commands[name, default: []].formUnion(subcommands) }
            }
            self.commands = commands
            settings = Set(registry.settings.map(\.name))
        }
    }

    /// The words and operators of a condition (`expect`'s, as the grammars colour them).
    static let conditionWords = Set(EditorVocabulary.standard.conditionWords)
    static let aliasCommand = "alias"
    static let setCommand = "set"
    static let expectCommand = "expect"

    private(set) var pieces: [Piece] = []
    private(set) var blockWords: [BlockWord] = []
    private(set) var comments: [Comment] = []
    /// Whether pieces were dropped at ``maxPieces``.
    private(set) var truncated = false
    private let vocabulary: Vocabulary
    private let maxPieces: Int
    /// The aliases the script defines so far.
    private var aliases: Set<String> = []

    /// The highlights of `source`, at most `maxPieces` pieces (the rest dropped).
    init(_ source: SourceFile, vocabulary: Vocabulary, maxPieces: Int = .max) {
        self.vocabulary = vocabulary
        self.maxPieces = maxPieces
        let bytes = source.bytes
        var command: [Word] = []
        var gapStart = 0
        var lineHasWord = false
        for token in Lexer.tokenize(source).tokens {
            let start = min(max(token.range.offset, gapStart), bytes.count)
            let comment = Self.comment(in: bytes, from: gapStart, to: start)
            gapStart = min(max(token.range.end, start), bytes.count)
            switch token.kind {
            case .word(let word):
                command.append(word)
                lineHasWord = true
            case .pipe:
                flush(&command)
                add(Piece(offset: start, end: min(start + 1, bytes.count), type: .operator))
                lineHasWord = true
            case .semicolon:
                flush(&command)
            case .newline, .end:
                flush(&command)
                if let comment {
                    comments.append(Comment(offset: comment.lowerBound, end: comment.upperBound, alone: !lineHasWord))
                    add(Piece(offset: comment.lowerBound, end: comment.upperBound, type: .comment))
                }
                lineHasWord = false
            }
        }
    }

    /// The comment in the text between two tokens (which runs to the line break, so is last), trailing
    /// blanks left out.
    private static func comment(in bytes: [UInt8], from start: Int, to end: Int) -> Range<Int>? {
        guard start < end, let hash = bytes[start..<end].firstIndex(of: UInt8(ascii: "#")) else { return nil }
        var last = end
        while last > hash, bytes[last - 1] == 32 || bytes[last - 1] == 9 || bytes[last - 1] == 13 { last -= 1 }
        return hash..<last
    }

    private mutating func add(_ piece: Piece) {
        guard piece.end > piece.offset else { return }
        guard pieces.count < maxPieces else {
            truncated = true
            return
        }
        pieces.append(piece)
    }

    /// The pieces of one command's words, which are then cleared.
    private mutating func flush(_ words: inout [Word]) {
        defer { words.removeAll(keepingCapacity: true) }
        guard !words.isEmpty else { return }
        command(words[...])
    }

    /// One command's words: a keyword's block, or a command's name, subcommand and arguments.
    private mutating func command(_ words: ArraySlice<Word>) {
        guard let name = words.first else { return }
        let text = name.literalText
        let keyword = name.isQuoted ? nil : text
        if let keyword, Parser.keywords.contains(keyword) {
            add(Piece(offset: name.range.offset, end: name.range.end, type: .keyword))
            if Parser.blockOpeners.contains(keyword) {
                blockWords.append(BlockWord(role: .open, offset: name.range.offset))
            } else if Parser.branchKeywords.contains(keyword) {
                blockWords.append(BlockWord(role: .divide, offset: name.range.offset))
            } else if keyword == Parser.blockEnd {
                blockWords.append(BlockWord(role: .close, offset: name.range.offset))
            }
            if keyword == "for" {
                forHead(words.dropFirst())
            } else {
                condition(words.dropFirst())
            }
            return
        }
        guard let text, vocabulary.commands[text] != nil || aliases.contains(text) else {
            // Not a command bts knows: its name gets no piece; its words are words.
            arguments(words.dropFirst())
            return
        }
        add(Piece(offset: name.range.offset, end: name.range.end, type: .function))
        var rest = words.dropFirst()
        if text == Self.expectCommand {
            condition(rest)
            return
        }
        if let first = rest.first, !first.isQuoted, let word = first.literalText {
            if let subcommands = vocabulary.commands[text], subcommands.contains(word) {
                add(Piece(offset: first.range.offset, end: first.range.end, type: .method))
                rest = rest.dropFirst()
            } else if text == Self.aliasCommand {
                // `alias NAME COMMAND…`: the name declared, then the command it stands for.
                aliases.insert(word)
                add(declaration(first, .function))
                command(rest.dropFirst())
                return
            } else if text == Self.setCommand, !vocabulary.settings.contains(word), Parser.isVariableName(word) {
                add(declaration(first, .variable))
                rest = rest.dropFirst()
            }
        }
        arguments(rest)
    }

    private func declaration(_ word: Word, _ type: SemanticTokenType) -> Piece {
        Piece(
            offset: word.range.offset,
            end: word.range.end,
            type: type,
            modifiers: SemanticTokenModifier.declaration.bit
        )
    }

    /// `for NAME in [lines|words] …`: the name declared, `in` and its word keywords.
    private mutating func forHead(_ words: ArraySlice<Word>) {
        var rest = words
        if let variable = rest.first, variable.literalText.map(Parser.isVariableName) == true {
            add(declaration(variable, .variable))
            rest = rest.dropFirst()
            if let word = rest.first, !word.isQuoted, word.literalText == EditorSyntax.loopWords[0] {
                add(Piece(offset: word.range.offset, end: word.range.end, type: .keyword))
                rest = rest.dropFirst()
                if let word = rest.first, !word.isQuoted, let text = word.literalText,
                    EditorSyntax.loopWords.dropFirst().contains(text)
                {
                    add(Piece(offset: word.range.offset, end: word.range.end, type: .keyword))
                    rest = rest.dropFirst()
                }
            }
        }
        arguments(rest)
    }

    /// A condition's words: its operators and words are operators (`>` there is a comparison).
    private mutating func condition(_ words: ArraySlice<Word>) {
        for word in words {
            if !word.isQuoted, let text = word.literalText, Self.conditionWords.contains(text) {
                add(Piece(offset: word.range.offset, end: word.range.end, type: .operator))
            } else {
                self.word(word)
            }
        }
    }

    /// A command's arguments: options, redirections and words.
    private mutating func arguments(_ words: ArraySlice<Word>) {
        for word in words {
            if case .literal(let text, let range, false)? = word.parts.first, text.hasPrefix(">") {
                let arrows = text.hasPrefix(">>") ? 2 : 1
                add(Piece(offset: range.offset, end: min(range.offset + arrows, word.range.end), type: .operator))
                parts(of: word, from: range.offset + arrows)
                continue
            }
            if case .success(.option(let option)) = Parser.classify(word) {
                add(Piece(offset: option.nameRange.offset, end: option.nameRange.end, type: .parameter))
                if let value = option.value { self.word(value) }
                continue
            }
            self.word(word)
        }
    }

    /// A word: a number, or a string and the references in it.
    private mutating func word(_ word: Word) {
        if !word.isQuoted, let text = word.literalText {
            if Self.isNumber(text) { add(Piece(offset: word.range.offset, end: word.range.end, type: .number)) }
            return
        }
        parts(of: word, from: word.range.offset)
    }

    /// The pieces of a word's references from byte `start` on, and (when it has quotes) of its text
    /// around them as strings.
    private mutating func parts(of word: Word, from start: Int) {
        let quoted = word.isQuoted
        var cursor = start
        for part in word.parts {
            switch part {
            case .literal:
                continue
            case .status(let range):
                if quoted { add(Piece(offset: cursor, end: range.offset, type: .string)) }
                add(
                    Piece(
                        offset: max(cursor, range.offset),
                        end: range.end,
                        type: .variable,
                        modifiers: SemanticTokenModifier.readonly.bit
                    )
                )
                cursor = max(cursor, range.end)
            case .variable(let reference):
                if quoted { add(Piece(offset: cursor, end: reference.range.offset, type: .string)) }
                let readonly = Parser.isVariableName(reference.name) ? 0 : SemanticTokenModifier.readonly.bit
                let nameEnd = max(cursor, reference.nameRange.end)
                add(
                    Piece(
                        offset: max(cursor, reference.range.offset),
                        end: nameEnd,
                        type: .variable,
                        modifiers: readonly
                    )
                )
                var step = nameEnd
                for component in reference.componentRanges where component.offset >= step {
                    add(Piece(offset: component.offset, end: component.end, type: .property))
                    step = component.end
                }
                cursor = max(cursor, reference.range.end)
            }
        }
        if quoted { add(Piece(offset: cursor, end: word.range.end, type: .string)) }
    }

    /// `12`, `-3`, `4.5`, `+6`.
    static func isNumber(_ text: String) -> Bool {
        var digits = Substring(text)
        if let sign = digits.first, sign == "-" || sign == "+" { digits = digits.dropFirst() }
        let halves = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        return !digits.isEmpty && halves.count <= 2
            && halves.allSatisfy { half in !half.isEmpty && half.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    }
}
