import BTSShell
import BooksTrackContract
import Foundation

/// The names a grammar needs, from the command registry (the caller fills it).
public struct EditorVocabulary: Sendable {
    /// Top-level command names, aliases included (`search`, `library`, `set`, `expect`, …).
    public var commands: [String]
    /// Subcommand names (`isbn`, `title`, `list`, …), highlighted right after a command name.
    public var subcommands: [String]
    /// Block keywords (`for`, `while`, `if`, `elif`, `else`, `end`, `break`, `continue`).
    public var keywords: [String]
    /// The words and operators of a condition (`not`, `exists`, `count`, `==`, `>=`, …).
    public var conditionWords: [String]
    /// The setting names `set` takes (`output`, `color`, `looplimit`, …).
    public var settings: [String]

    public init(commands: [String], subcommands: [String], keywords: [String], conditionWords: [String],
                settings: [String]) {
        self.commands = commands
        self.subcommands = subcommands
        self.keywords = keywords
        self.conditionWords = conditionWords
        self.settings = settings
    }
}

/// Editor support for `.bts` scripts: a Vim syntax and filetype detection, a TextMate grammar and a
/// VS Code extension. Each text depends only on the vocabulary's names, taken sorted and without
/// duplicates, so the same registry always gives the same files.
public enum EditorSyntax {
    /// The words of a `for` head after the loop variable: `in`, then `lines` or `words`.
    private static let loopWords = ["in", "lines", "words"]
    /// Keywords and commands whose words are a condition (`>` there is a comparison).
    private static let conditionKeywords = ["elif", "if", "while"]
    private static let conditionCommands = ["expect"]

    /// The vocabulary split by how each name is highlighted.
    private struct Plan {
        var commands: [String]
        var subcommands: [String]
        var settings: [String]
        var conditionWords: [String]
        var conditionKeywords: [String]
        var conditionCommands: [String]
        var otherKeywords: [String]
        var hasFor: Bool
        var hasSet: Bool

        init(_ v: EditorVocabulary) {
            func clean(_ names: [String]) -> [String] { Array(Set(names.filter { !$0.isEmpty })).sorted() }
            let commands = clean(v.commands), keywords = clean(v.keywords)
            hasSet = commands.contains("set")
            conditionCommands = commands.filter(EditorSyntax.conditionCommands.contains)
            self.commands = commands.filter { $0 != "set" && !EditorSyntax.conditionCommands.contains($0) }
            subcommands = clean(v.subcommands)
            settings = clean(v.settings)
            conditionWords = clean(v.conditionWords)
            conditionKeywords = keywords.filter(EditorSyntax.conditionKeywords.contains)
            hasFor = keywords.contains("for")
            otherKeywords = keywords.filter {
                $0 != "for" && !EditorSyntax.conditionKeywords.contains($0) && !EditorSyntax.loopWords.contains($0)
            }
        }
    }

    // MARK: Vim

    /// `syntax/bts.vim`: Vim syntax groups linked to the standard highlight groups.
    public static func vimSyntax(_ v: EditorVocabulary) -> String {
        let plan = Plan(v)
        // A command starts a line (not one a trailing `\` continues) or follows `;`.
        let start = #"%(\\\n\s*)@<!%(^\s*|;\s*)@<="#, end = #"%([ \t;|]|$)@="#, wordStart = #"%(^|[ \t;])@1<="#
        func words(_ names: [String]) -> String { "%(" + names.map(vimLiteral).joined(separator: "|") + ")" }
        func group(_ keyword: String) -> String {
            switch keyword {
            case "if", "elif", "else": "btsConditional"
            case "for", "while", "break", "continue": "btsRepeat"
            default: "btsKeyword"
            }
        }
        var lines = [
            "\" Vim syntax file",
            "\" Language: bts script (*.bts)",
            "\" Generated from the bts command registry: regenerate it rather than edit it.",
            "",
            "if exists(\"b:current_syntax\") | finish | endif",
            "let s:cpo_save = &cpo", "set cpo&vim", "",
            "syn case match",
            #"syn match btsEscape /\v\\%(.|$)/"#,
            #"syn match btsVariable /\v\$%(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@])/"#,
            #"syn region btsString start=/'/ end=/'/"#,
            #"syn region btsDString start=/"/ skip=/\v\\[\\"]/ end=/"/ contains=btsDEscape,btsVariable"#,
            #"syn match btsDEscape /\v\\%([\\"nt$]|$)/ contained"#,
            "syn match btsOption excludenl /\\v\(wordStart)%(--?[A-Za-z][-A-Za-z0-9]*|--)%([=]|[ \\t;|]|$)@=/",
            "syn match btsNumber excludenl /\\v\(wordStart)%([-+]?[0-9]+%(\\.[0-9]+)?|[0-9][-0-9]{8,15}[0-9Xx])\(end)/",
            "syn match btsComment excludenl /\\v\(wordStart)#.*$/ contains=btsTodo,@Spell",
            "syn keyword btsTodo TODO FIXME XXX contained",
            "syn match btsSeparator /;/",
            #"syn match btsRedirect /\v%([ \t])@1<=[>]{1,2}/ nextgroup=btsPath skipwhite"#,
            #"syn match btsPath /\v%([^ \t;|'"\\]|\\.|'[^']*'|"%([^"\\]|\\.)*")+/ contained contains=btsVariable,btsString,btsDString"#,
            #"syn match btsPipe /|/ nextgroup=btsPipeline"#,
            #"syn match btsPipeline excludenl /.*$/ contained"#,
        ]
        if !plan.commands.isEmpty {
            let next = plan.subcommands.isEmpty ? "" : " nextgroup=btsSubcommand skipwhite"
            lines.append("syn match btsCommand excludenl /\\v\(start)\(words(plan.commands))\(end)/\(next)")
        }
        if !plan.subcommands.isEmpty {
            lines.append("syn match btsSubcommand excludenl /\\v\(words(plan.subcommands))\(end)/ contained")
        }
        if plan.hasSet {
            let next = plan.settings.isEmpty ? "" : " nextgroup=btsSetting skipwhite"
            lines.append("syn match btsCommand excludenl /\\v\(start)set\(end)/\(next)")
            if !plan.settings.isEmpty { lines.append("syn match btsSetting excludenl /\\v\(words(plan.settings))\(end)/ contained") }
        }
        for keyword in plan.otherKeywords {
            lines.append("syn match \(group(keyword)) excludenl /\\v\(start)\(vimLiteral(keyword))\(end)/")
        }
        if plan.hasFor {
            lines += [
                "syn match btsRepeat excludenl /\\v\(start)for\(end)/ nextgroup=btsLoopVariable skipwhite",
                "syn match btsLoopVariable excludenl /\\v[A-Za-z_][A-Za-z0-9_]*\(end)/ contained nextgroup=btsLoopIn skipwhite",
                "syn match btsLoopIn excludenl /\\vin\(end)/ contained nextgroup=btsLoopKind skipwhite",
                "syn match btsLoopKind excludenl /\\v%(lines|words)\(end)/ contained",
            ]
        }
        let openers = plan.conditionKeywords.map { ($0, group($0)) } + plan.conditionCommands.map { ($0, "btsCommand") }
        if !openers.isEmpty {
            lines.append("syn cluster btsConditionItems contains=btsConditionWord,btsVariable,btsString,btsDString,"
                + "btsNumber,btsOption,btsEscape")
            if !plan.conditionWords.isEmpty {
                lines.append("syn match btsConditionWord excludenl /\\v\(wordStart)\(words(plan.conditionWords))\(end)/ contained")
            }
        }
        for (opener, matchGroup) in openers {
            lines.append("syn region btsCondition matchgroup=\(matchGroup) start=/\\v\(start)\(vimLiteral(opener))\(end)/"
                + #" end=/\v[;|]@=|%([ \t])@1<=#@=|\\@1<!$/ contains=@btsConditionItems"#)
        }
        lines += ["", "syn sync fromstart", ""]
        let links = [
            ("btsCommand", "Statement"), ("btsSubcommand", "Function"), ("btsConditional", "Conditional"),
            ("btsRepeat", "Repeat"), ("btsKeyword", "Keyword"), ("btsLoopIn", "Keyword"), ("btsLoopKind", "Keyword"),
            ("btsLoopVariable", "Identifier"), ("btsOption", "Special"), ("btsString", "String"),
            ("btsDString", "String"), ("btsEscape", "SpecialChar"), ("btsDEscape", "SpecialChar"),
            ("btsVariable", "Identifier"), ("btsComment", "Comment"), ("btsTodo", "Todo"), ("btsNumber", "Number"),
            ("btsPath", "Underlined"), ("btsPipe", "Operator"), ("btsRedirect", "Operator"),
            ("btsPipeline", "PreProc"), ("btsConditionWord", "Operator"), ("btsSetting", "Type"),
            ("btsSeparator", "Delimiter"),
        ]
        lines += links.map { "hi def link \($0.0) \($0.1)" }
        lines += ["", "let b:current_syntax = \"bts\"", "let &cpo = s:cpo_save", "unlet s:cpo_save"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `ftdetect/bts.vim`: the `bts` filetype for `*.bts` files and for a `#!…bts` first line.
    public static func vimFiletypeDetection() -> String {
        """
        " bts scripts: *.bts files, and files whose first line is a bts shebang (#!/usr/bin/env bts).
        au BufRead,BufNewFile *.bts setfiletype bts
        au BufRead,BufNewFile * if getline(1) =~# '^#!.*[/ ]bts\\%(\\s\\|$\\)' | setfiletype bts | endif

        """
    }

    /// A name as a very-magic Vim pattern: letters, digits and `_` as themselves, anything else
    /// as a one-character collection.
    private static func vimLiteral(_ name: String) -> String {
        name.map { c in
            if c.isLetter || c.isNumber || c == "_" { return String(c) }
            return "]^\\-".contains(c) ? "[\\\(c)]" : "[\(c)]"
        }.joined()
    }

    // MARK: TextMate

    /// `bts.tmLanguage.json`: a TextMate grammar (scope `source.bts`) for VS Code and other editors.
    public static func textMateGrammar(_ v: EditorVocabulary) -> String {
        let plan = Plan(v)
        let start = #"(?:^|(?<=;))\s*"#, end = #"(?=[\s;|]|$)"#, wordStart = #"(?:^|(?<=[\s;]))"#
        let regionEnd = #"(?=[;|])|(?<=\s)(?=#)|(?<!\\)$"#
        func words(_ names: [String]) -> String { "(" + names.map(onigLiteral).joined(separator: "|") + ")" }
        func name(_ scope: String) -> JSONValue { .members([("name", .string(scope))]) }
        func include(_ names: String...) -> JSONValue { .array(names.map { .members([("include", .string($0))]) }) }
        func match(_ regex: String, _ scope: String) -> JSONValue { .members([("match", .string(regex)), ("name", .string(scope))]) }
        func captured(_ regex: String, _ scopes: [(String, JSONValue)]) -> JSONValue {
            .members([("match", .string(regex)), ("captures", .members(scopes))])
        }
        func region(_ begin: String, _ captures: [(String, JSONValue)], _ patterns: JSONValue) -> JSONValue {
            .members([("begin", .string(begin)), ("beginCaptures", .members(captures)), ("end", .string(regionEnd)),
                     ("patterns", patterns)])
        }
        var repository: [(String, JSONValue)] = []
        var top: [String] = ["#comment"]
        func add(_ key: String, _ rule: JSONValue, topLevel: Bool = true) {
            repository.append((key, rule))
            if topLevel { top.append("#" + key) }
        }
        repository.append(("comment", captured(wordStart + "(#).*$", [("0", name("comment.line.number-sign.bts")),
                                                                     ("1", name("punctuation.definition.comment.bts"))])))
        if plan.hasFor {
            add("for", captured(start + "(for)" + end + #"(?:\s+([A-Za-z_][A-Za-z0-9_]*)"# + end + #"(?:\s+(in)"# + end
                                + #"(?:\s+(lines|words)"# + end + ")?)?)?",
                                [("1", name("keyword.control.bts")), ("2", name("variable.other.bts")),
                                 ("3", name("keyword.control.bts")), ("4", name("keyword.control.bts"))]))
        }
        if !plan.conditionKeywords.isEmpty {
            add("condition-keyword", region(start + words(plan.conditionKeywords) + end,
                                            [("1", name("keyword.control.bts"))], include("#condition-word", "#word")))
        }
        if !plan.conditionCommands.isEmpty {
            add("condition-command", region(start + words(plan.conditionCommands) + end,
                                            [("1", name("support.function.command.bts"))], include("#condition-word", "#word")))
        }
        if plan.hasSet {
            let setting = plan.settings.isEmpty ? "" : #"(?:\s+"# + words(plan.settings) + end + ")?"
            add("set", region(start + "(set)" + end + setting, [("1", name("support.function.command.bts")),
                                                              ("2", name("support.constant.setting.bts"))],
                              include("#redirection", "#word")))
        }
        if !plan.commands.isEmpty {
            let sub = plan.subcommands.isEmpty ? "" : #"(?:\s+"# + words(plan.subcommands) + end + ")?"
            add("command", region(start + words(plan.commands) + end + sub,
                                  [("1", name("support.function.command.bts")),
                                   ("2", name("entity.name.function.subcommand.bts"))],
                                  include("#redirection", "#word")))
        }
        if !plan.otherKeywords.isEmpty {
            add("keyword", captured(start + words(plan.otherKeywords) + end, [("1", name("keyword.control.bts"))]))
        }
        add("separator", match(";", "punctuation.separator.statement.bts"))
        add("pipeline", captured(#"(\|)(.*)$"#, [
            ("1", name("keyword.operator.bts")),
            ("2", .members([("name", .string("meta.pipeline.bts")), ("patterns", include("source.shell"))])),
        ]))
        add("redirection", captured(#"(?<=\s)(>>?)\s*((?:[^\s;|'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")*)"#, [
            ("1", name("keyword.operator.bts")),
            ("2", .members([("name", .string("string.unquoted.path.bts")), ("patterns", include("#variable"))])),
        ]))
        if !plan.conditionWords.isEmpty {
            add("condition-word", match(wordStart + words(plan.conditionWords) + end, "keyword.operator.condition.bts"),
                topLevel: false)
        } else {
            add("condition-word", .members([("patterns", .array([]))]), topLevel: false)
        }
        add("word", .members([("patterns", include("#string-double", "#string-single", "#variable", "#option",
                                                  "#number", "#escape"))]))
        add("string-double", .members([
            ("name", .string("string.quoted.double.bts")), ("begin", .string("\"")),
            ("beginCaptures", .members([("0", name("punctuation.definition.string.begin.bts"))])),
            ("end", .string("\"")), ("endCaptures", .members([("0", name("punctuation.definition.string.end.bts"))])),
            ("patterns", .array([match(#"\\(?:["\\nt$]|$)"#, "constant.character.escape.bts"),
                                 .members([("include", .string("#variable"))])])),
        ]), topLevel: false)
        add("string-single", .members([
            ("name", .string("string.quoted.single.bts")), ("begin", .string("'")),
            ("beginCaptures", .members([("0", name("punctuation.definition.string.begin.bts"))])),
            ("end", .string("'")), ("endCaptures", .members([("0", name("punctuation.definition.string.end.bts"))])),
        ]), topLevel: false)
        add("variable", match(#"\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@])"#, "variable.other.bts"), topLevel: false)
        add("option", match(wordStart + #"(?:--?[A-Za-z][-A-Za-z0-9]*|--)(?==|[\s;|]|$)"#, "variable.parameter.option.bts"),
            topLevel: false)
        add("number", match(wordStart + #"(?:[-+]?[0-9]+(?:\.[0-9]+)?|[0-9][-0-9]{8,15}[0-9Xx])"# + end,
                            "constant.numeric.bts"), topLevel: false)
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

    // MARK: VS Code

    /// `package.json`: a VS Code extension that contributes the `bts` language and its grammar.
    public static func vscodePackage() -> String {
        let manifest = JSONValue.members([
            ("name", .string("bts-language")), ("displayName", .string("bts scripts")),
            ("description", .string("Syntax highlighting for bts scripts (.bts)")), ("version", .string("0.1.0")),
            ("publisher", .string("bts")), ("private", .bool(true)),
            ("engines", .members([("vscode", .string("^1.60.0"))])),
            ("categories", .array([.string("Programming Languages")])),
            ("contributes", .members([
                ("languages", .array([.members([
                    ("id", .string("bts")), ("aliases", .array([.string("bts")])),
                    ("extensions", .array([.string(".bts")])), ("firstLine", .string(#"^#!.*\bbts\b"#)),
                    ("configuration", .string("./language-configuration.json")),
                ])])),
                ("grammars", .array([.members([
                    ("language", .string("bts")), ("scopeName", .string("source.bts")),
                    ("path", .string("./syntaxes/bts.tmLanguage.json")),
                    ("embeddedLanguages", .members([("meta.pipeline.bts", .string("shellscript"))])),
                ])])),
            ])),
        ])
        return manifest.prettyJSON + "\n"
    }

    /// `language-configuration.json`: `#` line comments, brackets, and closing pairs for quotes and `${ }`.
    public static func vscodeLanguageConfiguration() -> String {
        func pair(_ open: String, _ close: String, notIn: [String] = []) -> JSONValue {
            var fields: [(String, JSONValue)] = [("open", .string(open)), ("close", .string(close))]
            if !notIn.isEmpty { fields.append(("notIn", .array(notIn.map(JSONValue.string)))) }
            return .members(fields)
        }
        let configuration = JSONValue.members([
            ("comments", .members([("lineComment", .string("#"))])),
            ("brackets", .array([.array([.string("{"), .string("}")]), .array([.string("["), .string("]")])])),
            ("autoClosingPairs", .array([
                pair("${", "}"), pair("[", "]"),
                pair("\"", "\"", notIn: ["string", "comment"]), pair("'", "'", notIn: ["string", "comment"]),
            ])),
            ("surroundingPairs", .array([.array([.string("\""), .string("\"")]), .array([.string("'"), .string("'")]),
                                         .array([.string("{"), .string("}")]), .array([.string("["), .string("]")])])),
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
