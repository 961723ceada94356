import BTSLanguage
import BooksTrackClient
import Foundation

extension CompletionEngine {
    /// Request headers commonly sent with `api -H`, offered as `Name:` (the value may follow the
    /// colon at once: `-H Accept:text/plain`).
    static let apiHeaderNames = [
        "Accept", "Authorization", "Cache-Control", "Content-Type", "Idempotency-Key", "If-None-Match", "X-Request-Id",
    ]

    /// `api [METHOD] PATH [-f …] [-H …] [--input …] [-i]`: after `api`, a METHOD or a PATH; after a
    /// METHOD, a PATH that answers it; after `-H`, a header name; after `--input`, a file or `-`;
    /// a word starting with `-`, the options. PATHs are the session's ``CompletionContext/apiRoutes``
    /// (every known route before a backend is open); a route with an id in it is offered up to its
    /// first placeholder (`/v1/jobs/` for `/v1/jobs/{jobId}/status`).
    func apiAnswer(
        slot: CompletionSlot,
        range: Range<Int>,
        bytes: [UInt8],
        context: CompletionContext
    ) -> CompletionAnswer {
        let words = Self.apiWords(bytes: bytes, before: range.lowerBound)
        let partial = slot.partial
        let options = ApiCommand.configuration.options
        func spellings(_ option: OptionSpec) -> [String] { [option.spelling] + (option.short.map { ["-\($0)"] } ?? []) }
        var positionals: [String] = []
        var pending: OptionSpec?
        var optionsEnded = false
        for word in words {
            if pending != nil {
                pending = nil
                continue
            }
            if !optionsEnded, word.hasPrefix("-"), word != ApiCommand.standardInputName {
                if word == "--" { optionsEnded = true }
                pending = options.first { !$0.isFlag && spellings($0).contains(word) }
                continue
            }
            positionals.append(word)
        }
        if let pending {
            switch pending {
            case ApiCommand.header: return headerAnswer(partial: partial, range: range, bytes: bytes)
            case ApiCommand.input: return inputAnswer(partial: partial, range: range, bytes: bytes, context: context)
            default: return .none(at: range.upperBound)
            }
        }
        if !optionsEnded, partial.hasPrefix("-") {
            return CompletionAnswer(
                range: range,
                candidates: options.flatMap(spellings).filter { $0.hasPrefix(partial) }
            )
        }
        let routes = context.apiRoutes ?? KnownRoute.known(for: nil)
        switch positionals.count {
        case 0:
            let methods =
                partial.hasPrefix("/") ? [] : BooksTrackAPI.rawMethods.filter { $0.hasPrefix(partial.uppercased()) }
            let paths =
                partial.isEmpty || partial.hasPrefix("/")
                ? Self.pathAnswer(routes, partial: partial, range: range) : nil
            return CompletionAnswer(range: range, candidates: methods).merged(
                with: paths ?? .none(at: range.upperBound)
            )
        case 1 where BooksTrackAPI.rawMethods.contains(positionals[0].uppercased()):
            let method = positionals[0].uppercased()
            return Self.pathAnswer(routes.filter { $0.accepts(method) }, partial: partial, range: range)
        default:
            return .none(at: range.upperBound)
        }
    }

    /// The routes' paths (up to a placeholder) that start with `partial`, sorted; a sole one that
    /// stops at a placeholder takes no space after it.
    static func pathAnswer(_ routes: [KnownRoute], partial: String, range: Range<Int>) -> CompletionAnswer {
        var complete: [String: Bool] = [:]
        for route in routes where route.typedPrefix.hasPrefix(partial) {
            complete[route.typedPrefix] = (complete[route.typedPrefix] ?? false) || route.isComplete
        }
        let paths = complete.keys.sorted()
        let open = paths.count == 1 && complete[paths[0]] == false
        return CompletionAnswer(range: range, candidates: paths, appendSpace: !open)
    }

    /// `-H Acc` → `Accept:` (an opening quote typed is kept), no space after it.
    private func headerAnswer(partial: String, range: Range<Int>, bytes: [UInt8]) -> CompletionAnswer {
        guard !partial.contains(":") else { return .none(at: range.upperBound) }
        let quote =
            range.isEmpty ? nil : [UInt8(ascii: "'"), UInt8(ascii: "\"")].first { $0 == bytes[range.lowerBound] }
        let opening = quote.map { String(UnicodeScalar($0)) } ?? ""
        let names = Self.apiHeaderNames.filter { $0.lowercased().hasPrefix(partial.lowercased()) }
        return CompletionAnswer(
            range: range,
            candidates: names.map { opening + $0 + (quote == nil ? ":" : ": ") },
            display: names,
            appendSpace: false
        )
    }

    /// `--input ` → `-` (standard input) and the files there.
    private func inputAnswer(
        partial: String,
        range: Range<Int>,
        bytes: [UInt8],
        context: CompletionContext
    ) -> CompletionAnswer {
        let typed = Substring(String(decoding: bytes[range], as: UTF8.self))
        let files = FileCompletion(
            partial: partial,
            quoting: .of(typed: typed),
            extensions: nil,
            currentDirectory: context.currentDirectory ?? FileManager.default.currentDirectoryPath,
            homeDirectory: context.homeDirectory ?? ProcessInfo.processInfo.environment["HOME"],
            lister: lister
        )
        let found = files.candidates()
        let fileAnswer = CompletionAnswer(
            range: range,
            candidates: found.candidates,
            display: found.display,
            appendSpace: !found.soleIsDirectory
        )
        guard partial.isEmpty else { return fileAnswer }
        return CompletionAnswer(range: range, candidates: [ApiCommand.standardInputName]).merged(with: fileAnswer)
    }

    /// The literal words of the command `api` being typed, after `api` and before `offset`.
    static func apiWords(bytes: [UInt8], before offset: Int) -> [String] {
        let text = String(decoding: bytes[..<offset], as: UTF8.self)
        let (tokens, _) = Lexer.tokenize(SourceFile(name: "<completion>", text: text))
        var words: [String] = []
        for token in tokens {
            if let word = token.word {
                words.append(word.literalText ?? word.sourceForm)
            } else if token.kind != .end {
                words.removeAll()
            }
        }
        return Array(words.dropFirst())
    }
}
