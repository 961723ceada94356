import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation

/// `api [METHOD] PATH [-f KEY=VALUE]… [-H 'Name: value']… [--input FILE] [-i]`: one request to any
/// route of the session's server, through the same client as every command.
struct ApiCommand: ShellCommand {
    static let result: CommandResult = .serverAnswer

    static let request = ArgumentSpec(
        "REQUEST",
        "[METHOD] PATH: METHOD is one of \(BooksTrackAPI.rawMethods.joined(separator: ", ")) (GET when left out); PATH starts with /",
        variadic: true,
        completion: .optionValue(BooksTrackAPI.rawMethods)
    )
    static let field = OptionSpec(
        "field",
        short: "f",
        type: .string,
        valueName: "KEY=VALUE",
        help: "A query parameter (GET, HEAD, DELETE) or a field of the JSON body (others); repeatable"
    )
    static let header = OptionSpec(
        "header",
        short: "H",
        type: .string,
        valueName: "'NAME: VALUE'",
        help: "A request header; repeatable"
    )
    static let input = OptionSpec(
        "input",
        type: .string,
        valueName: "FILE",
        help:
            "Send a regular file, or standard input for -, as the body: at most \(BooksTrackAPI.maxRawRequestBodyBytes / 1024 / 1024) MiB"
    )
    static let include = OptionSpec(
        "include",
        short: "i",
        type: .flag,
        help: "Print the status line and the response headers before the body"
    )

    static let configuration = CommandSpec(
        "api",
        group: .meta,
        summary: "Send one request to any route of the server and print its answer",
        discussion: """
            A raw route, unlike the mission commands (search, similar, enrich, …): the server's body comes \
            back as it was sent, not shaped into a result table; one request is one page (no --all, and \
            more does not follow it); a query is sent as typed (no corrected or forgiving search, no \
            fallback to another route or dialect); nothing is saved to the library. The request goes \
            through the session's client (its profile's credentials, retries, the GET cache, --trace, \
            ${_http.…} afterwards) and spends the budget its path belongs to. A JSON answer is the result ($_: indented on a \
            terminal, JSON in a pipe); any other answer is printed as text. A status other than 2xx fails \
            (exit 1) with the server's problem in one sentence; $_ is then {error: {code, message, status}, \
            body}, body being the server's answer (${_.body.error.code} is the code the server sent). \
            Without -f or --input nothing is sent as the body. -f KEY=VALUE values that read as a JSON \
            number, true, false or null stay typed in a JSON body (quote one to keep it a string: \
            -f 'isbn="9780340839935"'; query parameters are text); --input sends a raw body instead and \
            cannot be used with -f: --input FILE a regular file, --input - standard input (piped in: \
            not a terminal, and not while bts reads its commands from it, as in bts < FILE). The body is \
            sent as application/json. api takes its words as they are: the global options (--output, \
            --help, --no-cache) are not read.
            """,
        positionals: [request],
        options: [field, header, input, include],
        examples: [
            "api /v1/search/title -f q=dune", "api -i /health",
            "api POST /api/v2/books/enrich -f 'isbn=\"9780340839935\"'",
            "api /api/v2/capabilities -H 'Accept: application/json'",
        ],
        takesRawArguments: true,
        runsFromCommandLine: true
    )

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
                    guard !name.isEmpty,
                        name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) }),
                        !headerValue.contains(where: {
                            $0.isNewline || ($0.asciiValue.map { $0 < 0x20 && $0 != 0x09 } ?? false)
                        })
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
            throw ShellError(
                .usage,
                positionals.isEmpty
                    ? "missing PATH for 'api'" : "'api' takes [METHOD] PATH, not \(positionals.count) words",
                range: range
            )
        }
        let method = positionals.count == 2 ? positionals[0].uppercased() : "GET"
        guard BooksTrackAPI.rawMethods.contains(method) else {
            throw ShellError(
                .usage,
                "unknown method '\(positionals[0])': use one of \(BooksTrackAPI.rawMethods.joined(separator: ", "))",
                range: range
            )
        }
        var target = positionals[positionals.count - 1]
        guard target.hasPrefix("/"), !target.hasPrefix("//") else {
            throw ShellError(
                .usage,
                "PATH must start with / (a route of the session's server, not '\(target)')",
                range: range
            )
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
            throw ShellError(
                .usage,
                "--input and -f cannot be used together (the body is one or the other)",
                range: range
            )
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
                value.isNumberOrString
            {
                return value
            }
            return .string(text)
        }
    }

    func run(in context: isolated any CommandContext) async throws -> CommandOutput? {
        var query = self.query
        var body: Data?
        if Self.sendsQuery(method) {
            query += fields.map { (name: $0.key, value: $0.value) }
        } else if let input {
            body = try await Self.body(from: input, in: context)
        } else if !fields.isEmpty {
            let object = JSONValue.object(
                Dictionary(fields.map { ($0.key, Self.typed($0.value)) }, uniquingKeysWith: { _, last in last })
            )
            body = Data(object.compactJSON.utf8)
        }
        var policy = context.callPolicy
        policy.budget = BooksTrackAPI.rateLimitClass(
            method: method,
            path: path,
            mode: query.first { $0.name == "mode" }?.value,
            query: query.first { $0.name == "q" }?.value
        )
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
            failure.answer = error.responseBody.flatMap(Self.answerValue)
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
        if let value = Self.json(answer.body, contentType: contentType) {
            return CommandOutput(value: value, view: .text(value.prettyJSON))
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        context.output.words(text.hasSuffix("\n") ? text : text + "\n")
        return nil
    }

    /// A body as JSON, when it says it is (its type) or looks it (an object or an array) and parses.
    static func json(_ body: Data, contentType: String = "") -> JSONValue? {
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard contentType.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return nil
        }
        return try? JSONDecoder().decode(JSONValue.self, from: body)
    }

    /// An error answer's body as `$_` keeps it: its JSON, else its text (nil when empty).
    static func answerValue(_ body: Data) -> JSONValue? {
        guard !body.isEmpty else { return nil }
        return json(body) ?? .string(String(decoding: body, as: UTF8.self))
    }
}

extension JSONValue {
    fileprivate var isNumberOrString: Bool {
        switch self {
        case .number, .string: return true
        default: return false
        }
    }
}
