import BTSLanguage
import BTSShell
import BooksTrackContract

/// VS Code: the TextMate grammar (scope `source.bts`, read by other editors too), the extension's
/// manifest and its language configuration (editors/vscode/).
extension EditorSyntax {
    /// `bts.tmLanguage.json`: a TextMate grammar (scope `source.bts`) for VS Code and other editors.
    package static func textMateGrammar(_ v: EditorVocabulary) -> String {
        let plan = Plan(v)
        let start = #"(?:^|(?<=;))\s*"#
        let end = #"(?=[\s;|]|$)"#
        let wordStart = #"(?:^|(?<=[\s;]))"#
        let regionEnd = #"(?=[;|])|(?<=\s)(?=#)|(?<!\\)$"#
        func words(_ names: [String]) -> String { "(" + names.map(onigLiteral).joined(separator: "|") + ")" }
        func name(_ scope: String) -> JSONValue { .members([("name", .string(scope))]) }
        func include(_ names: String...) -> JSONValue { .array(names.map { .members([("include", .string($0))]) }) }
        func match(_ regex: String, _ scope: String) -> JSONValue {
            .members([("match", .string(regex)), ("name", .string(scope))])
        }
        func captured(_ regex: String, _ scopes: [(String, JSONValue)]) -> JSONValue {
            .members([("match", .string(regex)), ("captures", .members(scopes))])
        }
        func region(_ begin: String, _ captures: [(String, JSONValue)], _ patterns: JSONValue) -> JSONValue {
            .members([
                ("begin", .string(begin)), ("beginCaptures", .members(captures)), ("end", .string(regionEnd)),
                ("patterns", patterns),
            ])
        }
        var repository: [(String, JSONValue)] = []
        var top: [String] = ["#comment"]
        func add(_ key: String, _ rule: JSONValue, topLevel: Bool = true) {
            repository.append((key, rule))
            if topLevel { top.append("#" + key) }
        }
        repository.append(
            (
                "comment",
                captured(
                    wordStart + "(#).*$",
                    [
                        ("0", name("comment.line.number-sign.bts")),
                        ("1", name("punctuation.definition.comment.bts")),
                    ]
                )
            )
        )
        if plan.hasFor {
            add(
                "for",
                captured(
                    start + "(for)" + end + #"(?:\s+([A-Za-z_][A-Za-z0-9_]*)"# + end + #"(?:\s+(in)"# + end
                        + #"(?:\s+(lines|words)"# + end + ")?)?)?",
                    [
                        ("1", name("keyword.control.bts")), ("2", name("variable.other.bts")),
                        ("3", name("keyword.control.bts")), ("4", name("keyword.control.bts")),
                    ]
                )
            )
        }
        if !plan.conditionKeywords.isEmpty {
            add(
                "condition-keyword",
                region(
                    start + words(plan.conditionKeywords) + end,
                    [("1", name("keyword.control.bts"))],
                    include("#condition-word", "#word")
                )
            )
        }
        if !plan.conditionCommands.isEmpty {
            add(
                "condition-command",
                region(
                    start + words(plan.conditionCommands) + end,
                    [("1", name("support.function.command.bts"))],
                    include("#condition-word", "#word")
                )
            )
        }
        if plan.hasSet {
            let setting = plan.settings.isEmpty ? "" : #"(?:\s+"# + words(plan.settings) + end + ")?"
            add(
                "set",
                region(
                    start + "(set)" + end + setting,
                    [
                        ("1", name("support.function.command.bts")),
                        ("2", name("support.constant.setting.bts")),
                    ],
                    include("#redirection", "#word")
                )
            )
        }
        if !plan.commands.isEmpty {
            let sub = plan.subcommands.isEmpty ? "" : #"(?:\s+"# + words(plan.subcommands) + end + ")?"
            add(
                "command",
                region(
                    start + words(plan.commands) + end + sub,
                    [
                        ("1", name("support.function.command.bts")),
                        ("2", name("entity.name.function.subcommand.bts")),
                    ],
                    include("#redirection", "#word")
                )
            )
        }
        if !plan.otherKeywords.isEmpty {
            add("keyword", captured(start + words(plan.otherKeywords) + end, [("1", name("keyword.control.bts"))]))
        }
        add("separator", match(";", "punctuation.separator.statement.bts"))
        add(
            "pipeline",
            captured(
                #"(\|)(.*)$"#,
                [
                    ("1", name("keyword.operator.bts")),
                    ("2", .members([("name", .string("meta.pipeline.bts")), ("patterns", include("source.shell"))])),
                ]
            )
        )
        add(
            "redirection",
            captured(
                #"(?<=\s)(>>?)\s*((?:[^\s;|'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")*)"#,
                [
                    ("1", name("keyword.operator.bts")),
                    (
                        "2",
                        .members([("name", .string("string.unquoted.path.bts")), ("patterns", include("#variable"))])
                    ),
                ]
            )
        )
        if !plan.conditionWords.isEmpty {
            add(
                "condition-word",
                match(wordStart + words(plan.conditionWords) + end, "keyword.operator.condition.bts"),
                topLevel: false
            )
        } else {
            add("condition-word", .members([("patterns", .array([]))]), topLevel: false)
        }
        add(
            "word",
            .members([
                (
                    "patterns",
                    include(
                        "#string-double",
                        "#string-single",
                        "#variable",
                        "#option",
                        "#number",
                        "#escape"
                    )
                )
            ])
        )
        add(
            "string-double",
            .members([
                ("name", .string("string.quoted.double.bts")), ("begin", .string("\"")),
                ("beginCaptures", .members([("0", name("punctuation.definition.string.begin.bts"))])),
                ("end", .string("\"")),
                ("endCaptures", .members([("0", name("punctuation.definition.string.end.bts"))])),
                (
                    "patterns",
                    .array([
                        match(#"\\(?:["\\nt$]|$)"#, "constant.character.escape.bts"),
                        .members([("include", .string("#variable"))]),
                    ])
                ),
            ]),
            topLevel: false
        )
        add(
            "string-single",
            .members([
                ("name", .string("string.quoted.single.bts")), ("begin", .string("'")),
                ("beginCaptures", .members([("0", name("punctuation.definition.string.begin.bts"))])),
                ("end", .string("'")),
                ("endCaptures", .members([("0", name("punctuation.definition.string.end.bts"))])),
            ]),
            topLevel: false
        )
        add(
            "variable",
            match(#"\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@])"#, "variable.other.bts"),
            topLevel: false
        )
        add(
            "option",
            match(wordStart + #"(?:--?[A-Za-z][-A-Za-z0-9]*|--)(?==|[\s;|]|$)"#, "variable.parameter.option.bts"),
            topLevel: false
        )
        add(
            "number",
            match(
                wordStart + #"(?:[-+]?[0-9]+(?:\.[0-9]+)?|[0-9][-0-9]{8,15}[0-9Xx])"# + end,
                "constant.numeric.bts"
            ),
            topLevel: false
        )
        add("escape", match(#"\\(?:.|$)"#, "constant.character.escape.bts"), topLevel: false)
        let grammar = JSONValue.members([
            ("name", .string("bts")), ("scopeName", .string("source.bts")), ("fileTypes", .array([.string("bts")])),
            ("firstLineMatch", .string(#"^#!.*\bbts\b"#)),
            ("patterns", .array(top.map { .members([("include", .string($0))]) })),
            ("repository", .members(repository)),
        ])
        return grammar.prettyJSON + "\n"
    }

    /// A name as an Oniguruma pattern: ASCII punctuation escaped with a backslash.
    private static func onigLiteral(_ name: String) -> String {
        name.map { c in c.isASCII && !(c.isLetter || c.isNumber || c == "_") ? "\\\(c)" : String(c) }.joined()
    }

    /// `package.json`: a VS Code extension that contributes the `bts` language and its grammar.
    package static func vscodePackage() -> String {
        let manifest = JSONValue.members([
            ("name", .string("bts-language")), ("displayName", .string("bts scripts")),
            ("description", .string("Syntax highlighting for bts scripts (.bts)")), ("version", .string("0.1.0")),
            ("publisher", .string("bts")), ("private", .bool(true)),
            ("engines", .members([("vscode", .string("^1.60.0"))])),
            ("categories", .array([.string("Programming Languages")])),
            (
                "contributes",
                .members([
                    (
                        "languages",
                        .array([
                            .members([
                                ("id", .string("bts")), ("aliases", .array([.string("bts")])),
                                ("extensions", .array([.string(".bts")])), ("firstLine", .string(#"^#!.*\bbts\b"#)),
                                ("configuration", .string("./language-configuration.json")),
                            ])
                        ])
                    ),
                    (
                        "grammars",
                        .array([
                            .members([
                                ("language", .string("bts")), ("scopeName", .string("source.bts")),
                                ("path", .string("./syntaxes/bts.tmLanguage.json")),
                                ("embeddedLanguages", .members([("meta.pipeline.bts", .string("shellscript"))])),
                            ])
                        ])
                    ),
                ])
            ),
        ])
        return manifest.prettyJSON + "\n"
    }

    /// The patterns of a line that opens or divides a block (a line after it is indented one level
    /// more), and of one that divides or closes one (it sits one level out), as JavaScript regular
    /// expressions: from the parser's keywords, read at the start of a line as `bts fmt` reads them
    /// (a line that also closes its block, `if $x == 1; echo one; end`, indents nothing).
    static var indentationPatterns: (increase: String, decrease: String) {
        let wordEnd = #"(?=[\s;|]|$)"#
        func words(_ names: Set<String>) -> String { "(?:" + names.sorted().joined(separator: "|") + ")" }
        let closes = #"(?!.*;\s*"# + Parser.blockEnd + wordEnd + ")"
        return (
            #"^\s*"# + words(Parser.blockOpeners.union(Parser.branchKeywords)) + wordEnd + closes,
            #"^\s*"# + words(Parser.branchKeywords.union([Parser.blockEnd])) + wordEnd
        )
    }

    /// `language-configuration.json`: `#` line comments, brackets, closing pairs for quotes and
    /// `${ }`, and indentation: a line after `for`, `if`, `while`, `elif` or `else` is indented, and
    /// `elif`, `else` and `end` go one level out as they are typed.
    package static func vscodeLanguageConfiguration() -> String {
        func pair(_ open: String, _ close: String, notIn: [String] = []) -> JSONValue {
            var fields: [(String, JSONValue)] = [("open", .string(open)), ("close", .string(close))]
            if !notIn.isEmpty { fields.append(("notIn", .array(notIn.map(JSONValue.string)))) }
            return .members(fields)
        }
        let configuration = JSONValue.members([
            ("comments", .members([("lineComment", .string("#"))])),
            ("brackets", .array([.array([.string("{"), .string("}")]), .array([.string("["), .string("]")])])),
            (
                "autoClosingPairs",
                .array([
                    pair("${", "}"), pair("[", "]"),
                    pair("\"", "\"", notIn: ["string", "comment"]), pair("'", "'", notIn: ["string", "comment"]),
                ])
            ),
            (
                "indentationRules",
                .members([
                    ("increaseIndentPattern", .string(indentationPatterns.increase)),
                    ("decreaseIndentPattern", .string(indentationPatterns.decrease)),
                ])
            ),
            (
                "onEnterRules",
                .array([
                    .members([
                        ("beforeText", .string(indentationPatterns.increase)),
                        ("action", .members([("indent", .string("indent"))])),
                    ])
                ])
            ),
            (
                "surroundingPairs",
                .array([
                    .array([.string("\""), .string("\"")]), .array([.string("'"), .string("'")]),
                    .array([.string("{"), .string("}")]), .array([.string("["), .string("]")]),
                ])
            ),
        ])
        return configuration.prettyJSON + "\n"
    }
}

extension JSONValue {
    /// An object from its members (a grammar's rules, written in the order they are read).
    fileprivate static func members(_ pairs: [(String, JSONValue)]) -> JSONValue {
        .object(Dictionary(pairs, uniquingKeysWith: { _, last in last }))
    }
}
