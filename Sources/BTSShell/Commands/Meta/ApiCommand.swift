import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `api [METHOD] PATH [-f KEY=VALUE]… [-H 'Name: value']… [--input FILE] [-i]`: one request to any
/// route of the session's server, through the same client as every command.
struct ApiCommand: ShellCommand {
    static let request = ArgumentSpec(
        "REQUEST", "[METHOD] PATH: METHOD is one of \(BooksTrackAPI.rawMethods.joined(separator: ", ")) (GET when left out); PATH starts with /",
        variadic: true, completion: .optionValue(BooksTrackAPI.rawMethods + knownPaths))
    static let field = OptionSpec("field", short: "f", type: .string, valueName: "KEY=VALUE",
                                  help: "A query parameter (GET, HEAD, DELETE) or a field of the JSON body (others); repeatable")
    static let header = OptionSpec("header", short: "H", type: .string, valueName: "'NAME: VALUE'",
                                   help: "A request header; repeatable")
    static let input = OptionSpec("input", type: .string, valueName: "FILE",
                                  help: "Send a regular file as the body, at most 1 MiB")
    static let include = OptionSpec("include", short: "i", type: .flag,
                                    help: "Print the status line and the response headers before the body")

    /// The routes the client knows, offered for PATH.
    static let knownPaths = [
        APIPath.health, APIPath.isbnSearch, APIPath.titleSearch, APIPath.authorSearch, APIPath.advancedSearch,
        APIPath.similarSearch, APIPath.search, APIPath.capabilities, APIPath.weekly, APIPath.enrich, APIPath.imports,
        APIPath.batchEnrichment, APIPath.bookshelfScan, APIPath.v3Capabilities, APIPath.v3Search, APIPath.v3Enrich,
        APIPath.v3Weekly, APIPath.v3Personalized, APIPath.v3Imports, APIPath.v3Scans,
    ]

    static let configuration = CommandSpec(
        "api", group: .meta,
        summary: "Send one request to any route of the server and print its answer",
        discussion: """
            A raw route, unlike the mission commands: the answer is not shaped into a result table and \
            nothing is saved to the library. The request goes through the session's client (its profile's \
            credentials, retries, the GET cache, --trace, ${_http.…} afterwards) and spends the budget its \
            path belongs to. A JSON answer is the result ($_: indented on a terminal, JSON in a pipe); any \
            other answer is printed as text. A status other than 2xx fails (exit 1) with the server's problem \
            in one sentence. Without -f or --input nothing is sent as the body. -f KEY=VALUE values that read as a JSON number, true, false or null stay typed \
            in a JSON body (quote one to keep it a string: -f 'isbn="9780340839935"'; query parameters are \
            text); --input sends a raw body instead and cannot be used \
            with -f. The body is sent as application/json. api takes its words as they are: the global \
            options (--output, --help, --no-cache) are not read.
            """,
        positionals: [request],
        options: [field, header, input, include],
        examples: ["api /v1/search/title -f q=dune", "api -i /health", "api POST /api/v2/books/enrich -f 'isbn=\"9780340839935\"'",
                   "api /api/v2/capabilities -H 'Accept: application/json'"],
        takesRawArguments: true)

    var method: String
    var path: String
    var query: [(name: String, value: String)]
    var fields: [(key: String, value: String)]
    var headers: [HeaderField]
    var input: String?
    var includesHeaders: Bool

    init(_ resolved: ResolvedCommand) throws(ShellError) {
        let words = resolved.values(Self.request)
        let range = BoundValue.range(of: words)
        var positionals: [String] = []
        var fields: [(key: String, value: String)] = []
        var headers: [HeaderField] = []
        var input: String?
        var includes = false
        var index = 0
        var optionsEnded = false
        func value(after name: String) throws(ShellError) -> String {
            index += 1
            guard index < words.count, let text = words[index].text else {
                throw ShellError(.usage, "missing value for '\(name)'", range: range)
            }
            return text
        }
        while index < words.count {
            let text = words[index].text ?? ""
            if optionsEnded || !text.hasPrefix("-") || text == "-" {
                positionals.append(text)
            } else {
                switch text {
                case "--": optionsEnded = true
                case "-f", "--field":
                    let item = try value(after: text)
                    guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                        throw ShellError(.usage, "'\(text)' takes KEY=VALUE, not '\(item)'", range: range)
                    }
                    fields.append((String(item[..<equals]), String(item[item.index(after: equals)...])))
                case "-H", "--header":
                    let item = try value(after: text)
                    guard let colon = item.firstIndex(of: ":"), colon != item.startIndex else {
                        throw ShellError(.usage, "'\(text)' takes 'Name: value', not '\(item)'", range: range)
                    }
                    let name = item[..<colon].trimmingCharacters(in: .whitespaces)
                    let headerValue = item[item.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }),
                          !headerValue.contains(where: { $0.isNewline || ($0.asciiValue.map { $0 < 0x20 && $0 != 0x09 } ?? false) })
                    else { throw ShellError(.usage, "'\(item)' is not a header 'Name: value'", range: range) }
                    headers.append(HeaderField(name: name, value: headerValue))
                case "--input": input = try value(after: text)
                case "-i", "--include": includes = true
                default:
                    throw ShellError(.usage, "unknown option '\(text)' for 'api' (see help api)", range: range)
                }
            }
            index += 1
        }
        guard (1...2).contains(positionals.count) else {
            throw ShellError(.usage, positionals.isEmpty ? "missing PATH for 'api'" : "'api' takes [METHOD] PATH, not \(positionals.count) words",
                             range: range)
        }
        let method = positionals.count == 2 ? positionals[0].uppercased() : "GET"
        guard BooksTrackAPI.rawMethods.contains(method) else {
            throw ShellError(.usage, "unknown method '\(positionals[0])': use one of \(BooksTrackAPI.rawMethods.joined(separator: ", "))",
                             range: range)
        }
        var target = positionals[positionals.count - 1]
        guard target.hasPrefix("/"), !target.hasPrefix("//") else {
            throw ShellError(.usage, "PATH must start with / (a route of the session's server, not '\(target)')", range: range)
        }
        var query: [(name: String, value: String)] = []
        if let question = target.firstIndex(of: "?") {
            for pair in target[target.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let decode = { (part: Substring) in String(part).removingPercentEncoding ?? String(part) }
                query.append((decode(parts[0]), parts.count > 1 ? decode(parts[1]) : ""))
            }
            target = String(target[..<question])
        }
        if input != nil, !fields.isEmpty {
            throw ShellError(.usage, "--input and -f cannot be used together (the body is one or the other)", range: range)
        }
        if input != nil, Self.sendsQuery(method) {
            throw ShellError(.usage, "\(method) sends no body: --input needs POST, PUT or PATCH", range: range)
        }
        self.method = method
        self.path = target
        self.query = query
        self.fields = fields
        self.headers = headers
        self.input = input
        includesHeaders = includes
    }

    /// Whether `method` sends fields as query parameters (no body).
    static func sendsQuery(_ method: String) -> Bool { ["GET", "HEAD", "DELETE"].contains(method) }

    /// A field's value in a JSON body: a JSON number, boolean, null or quoted string is that value,
    /// anything else is a string.
    static func typed(_ text: String) -> JSONValue {
        switch text {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default:
            if let first = text.first, first == "-" || first == "\"" || first.isNumber,
               let data = text.data(using: .utf8), let value = try? JSONDecoder().decode(JSONValue.self, from: data),
               value.isNumberOrString { return value }
            return .string(text)
        }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        var query = self.query
        var body: Data?
        if Self.sendsQuery(method) {
            query += fields.map { (name: $0.key, value: $0.value) }
        } else if let input {
            body = try Self.read(input, in: context)
        } else if !fields.isEmpty {
            let object = JSONValue.object(Dictionary(fields.map { ($0.key, Self.typed($0.value)) }, uniquingKeysWith: { _, last in last }))
            body = Data(object.compactJSON.utf8)
        }
        var policy = context.callPolicy
        policy.budget = BooksTrackAPI.rateLimitClass(method: method, path: path, mode: query.first { $0.name == "mode" }?.value,
                                                     query: query.first { $0.name == "q" }?.value)
        let (method, path, headers) = (self.method, self.path, self.headers)
        let sentQuery = query
        let sentBody = body
        let response: APIResponse<RawAnswer>
        do {
            response = try await context.call(as: policy) { api in
                try await api.raw(method: method, path: path, query: sentQuery, headers: headers, body: sentBody)
            }
        } catch let error as BooksTrackError where error.httpStatus != nil {
            // The server's refusal of a request the words described well: the command failed (exit 1),
            // it was not misused (2); a rate limit keeps its own status.
            var failure = ShellError(error)
            if failure.status == .usage { failure.status = .failure }
            throw failure
        }
        let answer = response.value
        if includesHeaders {
            var lines = ["HTTP \(answer.status)"]
            lines += answer.headers.map { "\($0.name): \($0.value)" }
            context.output.words(lines.joined(separator: "\n") + "\n\n")
        }
        guard !answer.body.isEmpty, method != "HEAD" else { return nil }
        let contentType = answer.headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
        let first = answer.body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if contentType.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
           let value = try? JSONDecoder().decode(JSONValue.self, from: answer.body) {
            return CommandOutput(value: value, view: .text(value.prettyJSON))
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        context.output.words(text.hasSuffix("\n") ? text : text + "\n")
        return nil
    }

    /// The body `--input` names: a regular file, at most ``BooksTrackAPI/maxRawRequestBodyBytes``
    /// (not standard input: it may be the script being run, or the terminal).
    static func read(_ name: String, in context: isolated any CommandContext) throws(ShellError) -> Data {
        let limit = BooksTrackAPI.maxRawRequestBodyBytes
        let url = context.resolvePath(name)
        let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
        guard type == .typeRegular else {
            let why = type == nil ? "no such file" : "not a regular file"
            throw ShellError(.failure, "\(name): cannot send it as the body (\(why))", code: .notFound)
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw ShellError(.failure, "\(name): cannot send it as the body (permission denied)")
        }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) else {
            throw ShellError(.failure, "\(name): cannot send it as the body (read failed)")
        }
        guard data.count <= limit else {
            throw ShellError(.failure, "\(name): the body is larger than \(limit / 1024 / 1024) MiB")
        }
        return data
    }
}

private extension JSONValue {
    var isNumberOrString: Bool {
        switch self {
        case .number, .string: return true
        default: return false
        }
    }
}
