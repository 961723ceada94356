/// Vim and Neovim: the syntax file and the filetype detection (editors/vim/).
extension EditorSyntax {
    /// `syntax/bts.vim`: Vim syntax groups linked to the standard highlight groups.
    package static func vimSyntax(_ v: EditorVocabulary) -> String {
        let plan = Plan(v)
        // A command starts a line (not one a trailing `\` continues) or follows `;`.
        let start = #"%(\\\n\s*)@<!%(^\s*|;\s*)@<="#
        let end = #"%([ \t;|]|$)@="#
        let wordStart = #"%(^|[ \t;])@1<="#
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
            if !plan.settings.isEmpty {
                lines.append("syn match btsSetting excludenl /\\v\(words(plan.settings))\(end)/ contained")
            }
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
            lines.append(
                "syn cluster btsConditionItems contains=btsConditionWord,btsVariable,btsString,btsDString,"
                    + "btsNumber,btsOption,btsEscape"
            )
            if !plan.conditionWords.isEmpty {
                lines.append(
                    "syn match btsConditionWord excludenl /\\v\(wordStart)\(words(plan.conditionWords))\(end)/ contained"
                )
            }
        }
        for (opener, matchGroup) in openers {
            lines.append(
                "syn region btsCondition matchgroup=\(matchGroup) start=/\\v\(start)\(vimLiteral(opener))\(end)/"
                    + #" end=/\v[;|]@=|%([ \t])@1<=#@=|\\@1<!$/ contains=@btsConditionItems"#
            )
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
    package static func vimFiletypeDetection() -> String {
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
}
