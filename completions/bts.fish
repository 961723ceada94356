function __bts_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __bts_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __bts_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __bts_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __bts_parse_tokens -S
    set -l unparsed_tokens (__bts_tokens -pc)
    switch $unparsed_tokens[1]
    case 'bts'
        __bts_parse_subcommand 0 'api=' 'profile=' 'local' 'o/output=' 'no-color' 'q/quiet' 'trace' 'timeout=' 'dialect=' 'limits=' 'no-cache' 'continue-on-error' 'no-wait' 'norc' 'var=+' 'vars=+' 'c=+' 'f=' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'serve'
            __bts_parse_subcommand -r 1 'version' 'h/help'
        case 'test'
            __bts_parse_subcommand -r 1 'api=' 'profile=' 'local' 'o/output=' 'no-color' 'q/quiet' 'trace' 'timeout=' 'dialect=' 'limits=' 'no-cache' 'continue-on-error' 'no-wait' 'var=+' 'vars=+' 'j/jobs=' 'fail-fast' 'filter=+' 'file-timeout=' 'user-library' 'report-junit=' 'report-tap=' 'report-json=' 'version' 'h/help'
        case 'check'
            __bts_parse_subcommand -r 1 'format=' 'no-color' 'version' 'h/help'
        case 'fmt'
            __bts_parse_subcommand -r 1 'check' 'diff' 'no-color' 'version' 'h/help'
        case 'lsp'
            __bts_parse_subcommand 0 'version' 'h/help'
        case 'help'
            __bts_parse_subcommand -r 1 'version'
        end
    end
end

function __bts_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __bts_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __bts_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __bts_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__bts_tokens -p)
    if test -z "$(__bts_tokens -t)"
        set -l index (count (__bts_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'bts' -f
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" api' -l 'api' -d 'Use the BooksTrack server at URL.' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" profile' -l 'profile' -d 'Use a profile (built in: production, staging, local; more in config.toml).' -rfka '(__bts_custom_completion ---completion -- --profile (count (__bts_tokens -pc)) (__bts_tokens -tC))'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" local' -l 'local' -d 'Use the embedded backend (an in-process server over the bundled catalog).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" o output' -l 'output' -s 'o' -d 'table, json, ndjson, csv or markdown (default: table on a terminal, json otherwise).' -rfka '(__bts_custom_completion ---completion -- --output (count (__bts_tokens -pc)) (__bts_tokens -tC))'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" no-color' -l 'no-color' -d 'Never colour the output (NO_COLOR does the same).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" q quiet' -l 'quiet' -s 'q' -d 'Silence progress, warnings and countdowns on stderr.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" trace' -l 'trace' -d 'Print every request and response on stderr (secrets masked).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" timeout' -l 'timeout' -d 'Deadline of each request (default 30).' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" dialect' -l 'dialect' -d 'API dialect: auto (ask the server: v3, else v1/v2), v1 or v3 (default: auto; v1 on the embedded backend).' -rfka '(__bts_custom_completion ---completion -- --dialect (count (__bts_tokens -pc)) (__bts_tokens -tC))'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" limits' -l 'limits' -d 'The embedded backend\'s rate-limit budgets: none (it runs on this machine: nothing to wait for) or production (rehearse production\'s budgets) (default: none).' -rfka 'none production'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" no-cache' -l 'no-cache' -d 'Neither read nor keep a remote server\'s answers on disk in this run (BTS_CACHE=off does the same; a command\'s own --no-cache skips it for that command).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" continue-on-error' -l 'continue-on-error' -d 'Keep running a script after a failing command.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" no-wait' -l 'no-wait' -d 'Fail with exit 5 instead of waiting when a rate-limit budget is spent.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" norc' -l 'norc' -d 'Do not run $XDG_CONFIG_HOME/bts/rc.bts at interactive start.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts"' -l 'var' -d 'Start with the variable NAME set to VALUE (read as $NAME; repeatable; wins over --vars; a script\'s own \'set\' wins over both).' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts"' -l 'vars' -d 'Start with the variables of FILE: NAME=VALUE lines, \'#\' comments, as a .env file (repeatable).' -rF
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts"' -s 'c' -d 'Run CMD (commands separated by \';\'), then exit. Repeatable.' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" f' -s 'f' -d 'Run the script FILE.bts (psql\'s -f); words after it are its $1..$n.' -rfa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'bts\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" version' -l 'version' -d 'Show the version.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts" -eq 1' -fa 'serve' -d 'Run the local BooksTrack-compatible server in the foreground (Ctrl-C stops it).'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts" -eq 1' -fa 'test' -d 'Run .bts files as tests: a summary on stderr, JUnit, TAP and JSON reports for CI.'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts" -eq 1' -fa 'check' -d 'Check .bts files without running them: every syntax and usage error, no request made.'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts" -eq 1' -fa 'fmt' -d 'Format .bts files in place in the one canonical layout (--check: list, --diff: show what would change).'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts" -eq 1' -fa 'lsp' -d 'Run the language server for .bts files on stdin and stdout (for an editor to start).'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts serve" -ge 1' -fka '(__bts_custom_completion ---completion serve -- positional@0 (count (__bts_tokens -pc)) (__bts_tokens -tC))'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts serve" version' -l 'version' -d 'Show the version.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts serve" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" api' -l 'api' -d 'Use the BooksTrack server at URL.' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" profile' -l 'profile' -d 'Use a profile (built in: production, staging, local; more in config.toml).' -rfka '(__bts_custom_completion ---completion test -- --profile (count (__bts_tokens -pc)) (__bts_tokens -tC))'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" local' -l 'local' -d 'Use the embedded backend (an in-process server over the bundled catalog).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" o output' -l 'output' -s 'o' -d 'table, json, ndjson, csv or markdown (default: table on a terminal, json otherwise).' -rfka '(__bts_custom_completion ---completion test -- --output (count (__bts_tokens -pc)) (__bts_tokens -tC))'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" no-color' -l 'no-color' -d 'Never colour the output (NO_COLOR does the same).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" q quiet' -l 'quiet' -s 'q' -d 'Silence progress, warnings and countdowns on stderr.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" trace' -l 'trace' -d 'Print every request and response on stderr (secrets masked).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" timeout' -l 'timeout' -d 'Deadline of each request (default 30).' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" dialect' -l 'dialect' -d 'API dialect: auto (ask the server: v3, else v1/v2), v1 or v3 (default: auto; v1 on the embedded backend).' -rfka '(__bts_custom_completion ---completion test -- --dialect (count (__bts_tokens -pc)) (__bts_tokens -tC))'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" limits' -l 'limits' -d 'The embedded backend\'s rate-limit budgets: none (it runs on this machine: nothing to wait for) or production (rehearse production\'s budgets) (default: none).' -rfka 'none production'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" no-cache' -l 'no-cache' -d 'Neither read nor keep a remote server\'s answers on disk in this run (BTS_CACHE=off does the same; a command\'s own --no-cache skips it for that command).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" continue-on-error' -l 'continue-on-error' -d 'Keep running a script after a failing command.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" no-wait' -l 'no-wait' -d 'Fail with exit 5 instead of waiting when a rate-limit budget is spent.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test"' -l 'var' -d 'Start with the variable NAME set to VALUE (read as $NAME; repeatable; wins over --vars; a script\'s own \'set\' wins over both).' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test"' -l 'vars' -d 'Start with the variables of FILE: NAME=VALUE lines, \'#\' comments, as a .env file (repeatable).' -rF
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts test" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'bts\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" j jobs' -l 'jobs' -s 'j' -d 'Run N files at once.' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" fail-fast' -l 'fail-fast' -d 'Start no more files after the first that fails or errors.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test"' -l 'filter' -d 'Run only the files whose path matches PATTERN, a glob whose * also matches / (repeatable: any match runs).' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" file-timeout' -l 'file-timeout' -d 'Stop a file that runs longer than DURATION (500ms, 30s, 2m; default: no limit): an error, and the run goes on.' -rfka ''
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" user-library' -l 'user-library' -d 'Let the tests use your library (default: a scratch library per file).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" report-junit' -l 'report-junit' -d 'Write a JUnit XML report to FILE.' -rF
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" report-tap' -l 'report-tap' -d 'Write a TAP (version 13) report to FILE.' -rF
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" report-json' -l 'report-json' -d 'Write a JSON report to FILE.' -rF
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" version' -l 'version' -d 'Show the version.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts test" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts check" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'bts\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts check" format' -l 'format' -d 'How to report: text on stderr, json (one document on stdout) or github (workflow commands on stdout).' -rfka 'text json github'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts check" no-color' -l 'no-color' -d 'Never colour the output (NO_COLOR does the same).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts check" version' -l 'version' -d 'Show the version.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts fmt" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'bts\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts fmt" check' -l 'check' -d 'Change nothing; list the files that are not formatted and exit 1 if there are any.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts fmt" diff' -l 'diff' -d 'Change nothing; print a unified diff of each file that would change and exit 1 if there are any.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts fmt" no-color' -l 'no-color' -d 'Never colour the output (NO_COLOR does the same).'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts fmt" version' -l 'version' -d 'Show the version.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts fmt" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts lsp" version' -l 'version' -d 'Show the version.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts lsp" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'bts' -n '__bts_should_offer_completions_for_flags_or_options "bts help" version' -l 'version' -d 'Show the version.'
# FILE.bts: a script to run
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts" -eq 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'bts\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
# The shell's commands, as the topics of bts help
complete -c 'bts' -n '__bts_should_offer_completions_for_positional "bts help" -ge 1' -fa 'search more similar semantic enrich import scan watch recommend library save help caps api limits jobs status results cancel connect set echo sleep every source expect alias unalias history timing cache exit'
