import Foundation
import Testing

/// The shell completion scripts of the `bts` command line, as the built binary generates them
/// (`bts --generate-completion-script SHELL`), exercised by bash, zsh and fish themselves:
/// bash by calling the completion function with `COMP_WORDS`, fish by
/// `complete -C`, zsh by pressing TAB in a tmux pane (its completion system runs only in the
/// line editor). Each shell finds `bts` on PATH (the scripts run it for profile names and the
/// server's flags) and a config file with a profile of its own.
///
/// The tests belong to the serialized terminal suite (InteractiveShellTests): run beside it, two
/// tmux drivers at once starved the cooperative pool, and in-process tests' requests timed out.
enum CompletionScripts {
    static func has(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }

    /// A directory with `bin/bts` (the binary), the three generated scripts, a config with the
    /// profile `mine`, and a work directory holding `tour.bts`, `notes.txt` and `lib/`.
    final class Sandbox: @unchecked Sendable {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bts-compl-\(UUID().uuidString.prefix(8))"
        )
        var bin: URL { root.appendingPathComponent("bin") }
        var work: URL { root.appendingPathComponent("work") }
        var scripts: URL { root.appendingPathComponent("scripts") }

        init() async throws {
            guard let binary = BTSExecutable.path else { throw BinaryTests.SkipError() }
            let manager = FileManager.default
            for directory in [
                bin, work, scripts, work.appendingPathComponent("lib"),
                root.appendingPathComponent("config/bts"),
            ] {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            try manager.createSymbolicLink(atPath: bin.appendingPathComponent("bts").path, withDestinationPath: binary)
            try Data("search dune\n".utf8).write(to: work.appendingPathComponent("tour.bts"))
            try Data("x\n".utf8).write(to: work.appendingPathComponent("notes.txt"))
            try Data("[profiles.mine]\nurl = \"http://127.0.0.1:9\"\n".utf8)
                .write(to: root.appendingPathComponent("config/bts/config.toml"))
            for (shell, file) in [("bash", "bts.bash"), ("zsh", "_bts"), ("fish", "bts.fish")] {
                let outcome = try await ChildProcess.run(
                    URL(fileURLWithPath: binary),
                    ["--generate-completion-script", shell],
                    environment: environment
                )
                #expect(outcome.status == 0, "\(outcome)")
                try Data(outcome.stdout.utf8).write(to: scripts.appendingPathComponent(file))
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        var environment: [String: String] {
            [
                "PATH": bin.path + ":/usr/local/bin:/usr/bin:/bin",
                "HOME": root.path,
                "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                "XDG_STATE_HOME": root.appendingPathComponent("state").path,
                "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                "LANG": "C.UTF-8",
                "TERM": "screen",
            ]
        }

        /// Runs `program ARGUMENTS` in the work directory; its stdout (a failure records stderr).
        func run(_ program: String, _ arguments: [String]) async throws -> String {
            let outcome = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                [program] + arguments,
                environment: environment,
                directory: work,
                timeout: .seconds(60)
            )
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.stderr.isEmpty, "\(outcome)")
            return outcome.stdout
        }

        /// bash's answer for the line `line` (the cursor at its end).
        func bash(_ line: String) async throws -> [String] {
            let script = """
                source \(scripts.appendingPathComponent("bts.bash").path)
                line=\(Self.quote(line))
                read -r -a COMP_WORDS <<< "$line"
                [[ "$line" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMP_LINE="$line"; COMP_POINT=${#line}
                _bts bts "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            return try await run("bash", ["--norc", "--noprofile", "-c", script]).split(separator: "\n").map(
                String.init
            )
        }

        /// An interactive `shell` in a tmux pane at 120×40, in the work directory, its prompt `PROMPT> `.
        func terminal(_ shell: [String], prompt: String) async throws -> TmuxSession {
            let session = try TmuxSession(command: shell, environment: environment, width: 120, height: 40)
            try await session.see(prompt, timeout: .seconds(30))
            return session
        }

        /// Types `line`, presses TAB, waits for `expected`; the screen then. The line is cleared after.
        func complete(_ session: TmuxSession, _ line: String, expecting expected: String) async throws -> String {
            try session.type(line)
            try session.press("Tab")
            let screen = try await session.see(expected, timeout: .seconds(30))
            // A shell busy with a completion function (fish runs `bts` for option values) can
            // take a Ctrl-C as the end of that function and keep the line: press it again until
            // the prompt is empty (a Ctrl-C at an empty prompt only draws a new one).
            var attempt = 0
            while true {
                attempt += 1
                try session.press("C-c")
                do {
                    try await session.waitForScreen(timeout: .seconds(5), description: "an empty prompt after Ctrl-C") {
                        TmuxSession.lastLine($0).hasSuffix(">")
                    }
                    break
                } catch is TmuxSession.Failure where attempt < 4 {
                    continue
                }
            }
            try session.type("clear")
            try session.press("Enter")
            try await session.waitForScreen(timeout: .seconds(10), description: "a cleared screen") {
                !$0.contains(expected) && TmuxSession.lastLine($0).hasSuffix(">")
            }
            return screen
        }

        static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    }

}

extension InteractiveShellTests {
    typealias Sandbox = CompletionScripts.Sandbox

    @Test(.enabled(if: CompletionScripts.has("bash"))) func bashCompletesServeFlagsProfilesAndScripts() async throws {
        let sandbox = try await Sandbox()
        let serve = try await sandbox.bash("bts serve --")
        #expect(serve.contains("--port"), "\(serve)")
        #expect(serve.contains("--rate-limit"), "\(serve)")
        #expect(!serve.contains("--api"), "bts serve offered bts's own options: \(serve)")
        let profiles = try await sandbox.bash("bts --profile ")
        #expect(Set(profiles).isSuperset(of: ["production", "staging", "local", "mine"]), "\(profiles)")
        let files = try await sandbox.bash("bts -f ")
        #expect(files.contains("tour.bts"), "\(files)")
        #expect(!files.contains("notes.txt"), "\(files)")
        let top = try await sandbox.bash("bts --")
        #expect(top.contains("--api") && top.contains("--profile"), "\(top)")
        // FILE.bts is offered where a script name goes; `bts help` offers the shell's commands.
        let script = try await sandbox.bash("bts to")
        #expect(script.contains("tour.bts"), "\(script)")
        #expect(!script.contains("notes.txt"), "\(script)")
        let topics = try await sandbox.bash("bts help se")
        #expect(Set(topics).isSuperset(of: ["search", "semantic", "set"]), "\(topics)")
    }

    /// fish by TAB in a tmux pane: fish 3.6's `complete -C` cannot run the scripts' custom
    /// completions (`commandline -C` fails outside the line editor).
    @Test(.enabled(if: CompletionScripts.has("fish")))
    func fishCompletesServeFlagsAndDescribesEachValue() async throws {
        let sandbox = try await Sandbox()
        let fish = sandbox.root.appendingPathComponent("config/fish")
        try FileManager.default.createDirectory(
            at: fish.appendingPathComponent("completions"),
            withIntermediateDirectories: true
        )
        try FileManager.default.copyItem(
            at: sandbox.scripts.appendingPathComponent("bts.fish"),
            to: fish.appendingPathComponent("completions/bts.fish")
        )
        try Data(
            """
            set fish_greeting
            function fish_prompt; echo -n 'fish> '; end
            cd \(sandbox.work.path)

            """.utf8
        ).write(to: fish.appendingPathComponent("config.fish"))
        let session = try await sandbox.terminal(["fish"], prompt: "fish> ")
        defer { session.close() }
        let serve = try await sandbox.complete(session, "bts serve --", expecting: "--rate-limit")
        #expect(serve.contains("--port"), "\(serve)")
        #expect(!serve.contains("--api"), "bts serve offered bts's own options: \(serve)")
        let profiles = try await sandbox.complete(session, "bts --profile ", expecting: "mine")
        #expect(profiles.contains("staging"), "\(profiles)")
        #expect(profiles.contains("(http://127.0.0.1:9)"), "\(profiles)")
        // Each value its own description, not the option's whole help text.
        let formats = try await sandbox.complete(session, "bts --output ", expecting: "ndjson")
        #expect(formats.contains("(one JSON object per line)"), "\(formats)")
        #expect(!formats.contains("table, json, ndjson, csv or markdown"), "\(formats)")
        let dialects = try await sandbox.complete(session, "bts --dialect ", expecting: "v3")
        #expect(!dialects.contains("(API dialect:"), "\(dialects)")
        let files = try await sandbox.complete(session, "bts -f ", expecting: "tour.bts")
        #expect(!files.contains("notes.txt"), "\(files)")
        // FILE.bts where a script name goes; the shell's commands after `bts help`.
        _ = try await sandbox.complete(session, "bts to", expecting: "bts tour.bts")
        let topics = try await sandbox.complete(session, "bts help sem", expecting: "semantic")
        #expect(!topics.contains("serve"), "\(topics)")
    }

    /// zsh printed `_arguments:comparguments:327: doubled rest argument definition` on every TAB.
    @Test(.enabled(if: CompletionScripts.has("zsh"))) func zshCompletesWithoutErrors() async throws {
        let sandbox = try await Sandbox()
        try Data(
            """
            PS1='zsh> '
            fpath=(\(sandbox.scripts.path) $fpath)
            autoload -U compinit && compinit -u -D
            cd \(sandbox.work.path)

            """.utf8
        ).write(to: sandbox.root.appendingPathComponent(".zshrc"))
        let session = try await sandbox.terminal(["env", "ZDOTDIR=\(sandbox.root.path)", "zsh", "-i"], prompt: "zsh> ")
        defer { session.close() }
        let serve = try await sandbox.complete(session, "bts serve --", expecting: "--rate-limit")
        #expect(serve.contains("--port"), "\(serve)")
        #expect(!serve.contains("--api"), "bts serve offered bts's own options: \(serve)")
        let profiles = try await sandbox.complete(session, "bts --profile ", expecting: "mine")
        #expect(profiles.contains("staging"), "\(profiles)")
        let formats = try await sandbox.complete(session, "bts --output ", expecting: "ndjson")
        #expect(formats.contains("one JSON object per line"), "\(formats)")
        let files = try await sandbox.complete(session, "bts -f ", expecting: "tour.bts")
        #expect(!files.contains("notes.txt"), "\(files)")
        // FILE.bts where a script name goes; the shell's commands after `bts help`.
        let script = try await sandbox.complete(session, "bts to", expecting: "bts tour.bts")
        let topics = try await sandbox.complete(session, "bts help sem", expecting: "semantic")
        for screen in [serve, profiles, formats, files, script, topics] {
            #expect(!screen.contains("_arguments"), "\(screen)")
            #expect(!screen.contains("doubled rest"), "\(screen)")
        }
    }

    /// `completions/` is what the binary generates (scripts/check-completions in CI says the same).
    @Test func committedScriptsAreCurrent() async throws {
        let sandbox = try await Sandbox()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        for file in ["bts.bash", "_bts", "bts.fish"] {
            let committed = try String(
                contentsOf: repository.appendingPathComponent("completions/\(file)"),
                encoding: .utf8
            )
            let generated = try String(contentsOf: sandbox.scripts.appendingPathComponent(file), encoding: .utf8)
            #expect(committed == generated, "completions/\(file) is stale: scripts/check-completions --update")
        }
    }
}
