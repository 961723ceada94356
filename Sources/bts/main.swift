import ArgumentParser
import BTSShell
import BTSTerminal
import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

// A write past `ulimit -f` fails with EFBIG, which is then named as the file-size limit, instead
// of SIGXFSZ killing the process ("File size limit exceeded") in the middle of a write.
signal(SIGXFSZ, SIG_IGN)
// Parse by hand so usage errors exit with 2 (docs/usage.md) instead of argument-parser's 64, and
// so every path shuts the backend down before exiting.
// A shell's completion request (`bts ---completion … -- …`) is the argument parser's whole.
let (arguments, scriptArguments) =
    CommandLine.arguments.dropFirst().first == "---completion"
    ? (Array(CommandLine.arguments.dropFirst()), [])
    : BTSCommand.splitScript(Array(CommandLine.arguments.dropFirst()))
if arguments.first == ServeCommand.name {
    // The server runs its request handlers on the event loops that read the requests, instead
    // of hopping to Swift's cooperative pool and back for each one (NIO's documented take-over,
    // effective where the runtime exports its hook; before any task runs). Not
    // EventLoopGlobalExecutor, which serves fewer requests a second under many connections.
    _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
} else {
    // The shell's work on NIO's event loops, before any task runs (EventLoopGlobalExecutor).
    _ = EventLoopGlobalExecutor.isInstalled
}
let status: Int32
do {
    // The parser accepts `--version` only on its own; answered here so that no other start reads
    // the build record.
    if arguments == ["--version"] {
        print(BTSVersion.full)
        exit(0)
    }
    // Shell completion scripts: the parser's, with FILE.bts and `bts help COMMAND` added.
    if arguments.count == 2, arguments[0] == "--generate-completion-script",
        let shell = CompletionShell(rawValue: arguments[1])
    {
        print(CompletionScript.generate(for: shell))
        exit(0)
    }
    // `bts serve …` and the hidden data builders run as themselves (StandaloneCommand).
    if let standalone = StandaloneCommands.named(arguments.first) {
        if standalone.watchesSignals { SignalWatcher.blockTerminationSignals() }
        do {
            exit(try await standalone.start(Array(arguments.dropFirst())))
        } catch {
            exit(standalone.exitStatusAsSubcommand(reporting: error))
        }
    }
    let command = try BTSCommand.parseAsRoot(arguments)
    switch command {
    case var root as BTSCommand:
        // The shell watches SIGINT/SIGTERM/SIGHUP: block them now, on the main thread before other
        // threads exist, so that none is lost on its way to the watcher
        // (SignalWatcher.blockTerminationSignals).
        SignalWatcher.blockTerminationSignals()
        if !scriptArguments.isEmpty || root.file != nil {
            guard root.commands.isEmpty else {
                throw ValidationError("give either -c commands or a script FILE, not both")
            }
            // `-f FILE.bts ARG...` is `FILE.bts ARG...`.
            root.script = (root.file.map { [$0] } ?? []) + scriptArguments
        }
        status = try await root.execute()
    case let serve as ServeCommand:
        status = await serve.execute()
    default:
        var other = command
        try other.run()
        status = 0
    }
} catch {
    status = BTSCommand.exitStatus(reporting: error)
}
// Flush, then _exit: exit()'s cleanup was seen to hang intermittently after an interactive session
// (the line editor's reader thread parked on the terminal); nothing else is left to run by now.
FileHandle.standardOutput.synchronizeFile()
fflush(nil)
_exit(status)
