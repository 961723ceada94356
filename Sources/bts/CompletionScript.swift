import ArgumentParser
import BTSShell
import Foundation

/// The shell completion scripts: swift-argument-parser's, plus what it cannot know: `FILE.bts` (the
/// script bts runs, split off the command line before parsing) and the shell's commands as the
/// topics of `bts help`. `bts --generate-completion-script SHELL` prints it; completions/ holds it.
enum CompletionScript {
    static func generate(for shell: CompletionShell) -> String {
        let script = BTSCommand.completionScript(for: shell)
        let topics = CommandRegistry.standard.commands.map(\.name)
        switch shell {
        case .bash:
            return bash(
                script,
                topics: topics,
                subcommands: BTSCommand.configuration.subcommands.compactMap {
                    $0.configuration.shouldDisplay ? $0.configuration.commandName : nil
                } + ["help"]
            )
        case .zsh: return zsh(script, topics: topics)
        case .fish: return fish(script, topics: topics)
        default: return script
        }
    }

    /// `subcommands`: the executable's visible subcommands, as the parser's script lists them.
    static func bash(_ script: String, topics: [String], subcommands: [String]) -> String {
        script
            .inserting(
                "        # FILE.bts: a script to run\n        __bts_add_completions -o plusdirs -fX '!*.@(bts)'\n",
                after: "        COMPREPLY+=($(compgen -W '\(subcommands.joined(separator: " "))' -- \"${cur}\"))\n"
            )
            .inserting(
                "    # The shell's commands\n    COMPREPLY+=($(compgen -W '\(topics.joined(separator: " "))' -- \"${cur}\"))\n",
                after:
                    "_bts_help() {\n    repeating_flags=()\n    non_repeating_flags=(--version)\n    repeating_options=()\n"
                    + "    non_repeating_options=()\n    __bts_offer_flags_options -1\n"
            )
    }

    static func zsh(_ script: String, topics: [String]) -> String {
        script
            .inserting(
                "        # FILE.bts: a script to run\n        _files -g '*.bts' && ret=0\n",
                after: "        _describe -V subcommand subcommands && ret=0\n"
            )
            .replacingOccurrences(
                of: "        '*:subcommands:'\n",
                with: "        '*:command:(\(topics.joined(separator: " ")))'\n"
            )
    }

    /// `FILE.bts`: only `.bts` files and directories, as zsh and bash offer (fish's
    /// `__fish_complete_suffix` lists every other file after them), with the expression the
    /// parser's own script uses for the `.bts` arguments of `bts test`, `check` and `fmt`.
    static let fishScriptFiles =
        #"(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'bts\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')"#

    static func fish(_ script: String, topics: [String]) -> String {
        script + (script.hasSuffix("\n") ? "" : "\n")
            + "# FILE.bts: a script to run\n"
            + "complete -c 'bts' -n '__bts_should_offer_completions_for_positional \"bts\" -eq 1' -fa '\(fishScriptFiles)'\n"
            + "# The shell's commands, as the topics of bts help\n"
            + "complete -c 'bts' -n '__bts_should_offer_completions_for_positional \"bts help\" -ge 1' -fa '\(topics.joined(separator: " "))'"
    }
}

extension String {
    /// The text with `addition` after each occurrence of `anchor` (where ArgumentParser's script
    /// leaves room for what bts adds).
    fileprivate func inserting(_ addition: String, after anchor: String) -> String {
        replacingOccurrences(of: anchor, with: anchor + addition)
    }
}
