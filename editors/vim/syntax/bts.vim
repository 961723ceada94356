" Vim syntax file
" Language: bts script (*.bts)
" Generated from the bts command registry: regenerate it rather than edit it.

if exists("b:current_syntax") | finish | endif
let s:cpo_save = &cpo
set cpo&vim

syn case match
syn match btsEscape /\v\\%(.|$)/
syn match btsVariable /\v\$%(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[?#@])/
syn region btsString start=/'/ end=/'/
syn region btsDString start=/"/ skip=/\v\\[\\"]/ end=/"/ contains=btsDEscape,btsVariable
syn match btsDEscape /\v\\%([\\"nt$]|$)/ contained
syn match btsOption excludenl /\v%(^|[ \t;])@1<=%(--?[A-Za-z][-A-Za-z0-9]*|--)%([=]|[ \t;|]|$)@=/
syn match btsNumber excludenl /\v%(^|[ \t;])@1<=%([-+]?[0-9]+%(\.[0-9]+)?|[0-9][-0-9]{8,15}[0-9Xx])%([ \t;|]|$)@=/
syn match btsComment excludenl /\v%(^|[ \t;])@1<=#.*$/ contains=btsTodo,@Spell
syn keyword btsTodo TODO FIXME XXX contained
syn match btsSeparator /;/
syn match btsRedirect /\v%([ \t])@1<=[>]{1,2}/ nextgroup=btsPath skipwhite
syn match btsPath /\v%([^ \t;|'"\\]|\\.|'[^']*'|"%([^"\\]|\\.)*")+/ contained contains=btsVariable,btsString,btsDString
syn match btsPipe /|/ nextgroup=btsPipeline
syn match btsPipeline excludenl /.*$/ contained
syn match btsCommand excludenl /\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=%([.]|[?]|alias|api|cache|cancel|caps|connect|echo|enrich|every|exit|help|history|import|jobs|library|limits|more|quit|recommend|results|save|scan|search|semantic|similar|sleep|source|status|timing|unalias|watch)%([ \t;|]|$)@=/ nextgroup=btsSubcommand skipwhite
syn match btsSubcommand excludenl /\v%(author|clear|entries|export|import|isbn|list|remove|search|set|shelves|show|stats|title)%([ \t;|]|$)@=/ contained
syn match btsCommand excludenl /\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=set%([ \t;|]|$)@=/ nextgroup=btsSetting skipwhite
syn match btsSetting excludenl /\v%(color|expanded|library|looplimit|offline|onerror|output|pager|progress|timing|wait)%([ \t;|]|$)@=/ contained
syn match btsRepeat excludenl /\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=break%([ \t;|]|$)@=/
syn match btsRepeat excludenl /\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=continue%([ \t;|]|$)@=/
syn match btsConditional excludenl /\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=else%([ \t;|]|$)@=/
syn match btsKeyword excludenl /\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=end%([ \t;|]|$)@=/
syn match btsRepeat excludenl /\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=for%([ \t;|]|$)@=/ nextgroup=btsLoopVariable skipwhite
syn match btsLoopVariable excludenl /\v[A-Za-z_][A-Za-z0-9_]*%([ \t;|]|$)@=/ contained nextgroup=btsLoopIn skipwhite
syn match btsLoopIn excludenl /\vin%([ \t;|]|$)@=/ contained nextgroup=btsLoopKind skipwhite
syn match btsLoopKind excludenl /\v%(lines|words)%([ \t;|]|$)@=/ contained
syn cluster btsConditionItems contains=btsConditionWord,btsVariable,btsString,btsDString,btsNumber,btsOption,btsEscape
syn match btsConditionWord excludenl /\v%(^|[ \t;])@1<=%([!][=]|[(]|[)]|[<]|[<][=]|[=][=]|[>]|[>][=]|and|contains|count|exists|matches|not|or)%([ \t;|]|$)@=/ contained
syn region btsCondition matchgroup=btsConditional start=/\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=elif%([ \t;|]|$)@=/ end=/\v[;|]@=|%([ \t])@1<=#@=|\\@1<!$/ contains=@btsConditionItems
syn region btsCondition matchgroup=btsConditional start=/\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=if%([ \t;|]|$)@=/ end=/\v[;|]@=|%([ \t])@1<=#@=|\\@1<!$/ contains=@btsConditionItems
syn region btsCondition matchgroup=btsRepeat start=/\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=while%([ \t;|]|$)@=/ end=/\v[;|]@=|%([ \t])@1<=#@=|\\@1<!$/ contains=@btsConditionItems
syn region btsCondition matchgroup=btsCommand start=/\v%(\\\n\s*)@<!%(^\s*|;\s*)@<=expect%([ \t;|]|$)@=/ end=/\v[;|]@=|%([ \t])@1<=#@=|\\@1<!$/ contains=@btsConditionItems

syn sync fromstart

hi def link btsCommand Statement
hi def link btsSubcommand Function
hi def link btsConditional Conditional
hi def link btsRepeat Repeat
hi def link btsKeyword Keyword
hi def link btsLoopIn Keyword
hi def link btsLoopKind Keyword
hi def link btsLoopVariable Identifier
hi def link btsOption Special
hi def link btsString String
hi def link btsDString String
hi def link btsEscape SpecialChar
hi def link btsDEscape SpecialChar
hi def link btsVariable Identifier
hi def link btsComment Comment
hi def link btsTodo Todo
hi def link btsNumber Number
hi def link btsPath Underlined
hi def link btsPipe Operator
hi def link btsRedirect Operator
hi def link btsPipeline PreProc
hi def link btsConditionWord Operator
hi def link btsSetting Type
hi def link btsSeparator Delimiter

let b:current_syntax = "bts"
let &cpo = s:cpo_save
unlet s:cpo_save
