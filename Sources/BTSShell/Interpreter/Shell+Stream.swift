import BTSLanguage
import BTSTerminal
import Foundation

extension Shell {
    /// Commands read from a pipe, run as they arrive, so another program can drive bts line by
    /// line (write a command, read its answer, write the next). The reader hands over one logical
    /// line at a time — it joins continuation lines itself while ``Parser/isComplete(_:)`` says the
    /// input is unfinished (an unclosed quote, a trailing `\`, an open block) — and each is checked
    /// and run before the next is read. Errors name the stream's line (`<stdin>:12:5`). Like a
    /// script, the first failure stops the run unless `--continue-on-error` / `set onerror
    /// continue`; the status is that failure's, else that of the last command. A script FILE is
    /// still checked whole before anything runs (``runFile(_:)``). A line that is not UTF-8 stops
    /// the run with status 2 and a sentence naming its line and byte offset, as a script's does.
    package func runStream(_ reader: any LineReader, name: String = "<stdin>") async -> Int32 {
        var nextLine = 1
        var last: Int32 = 0
        var remembered: Int32?
        while !Task.isCancelled {
            let result = await reader.readLine(prompt: "")
            guard case .line(var text) = result else {
                if result == .interrupted { return ExitStatus.interrupted.rawValue }
                if case .notUTF8(let line) = result {
                    // As a script file's bad byte is refused; the lines before it have run.
                    report(.notUTF8(line, in: name), in: nil, interactive: false)
                    return ExitStatus.usage.rawValue
                }
                break
            }
            // A UTF-8 byte-order mark before the first line is skipped, as in a script file (ScriptFile).
            if nextLine == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            let first = nextLine
            nextLine += text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            guard !text.allSatisfy(\.isWhitespace) else { continue }
            let status = await runSources([(text, name)], firstLine: first)
            if let exit = state.exitRequest { return exit }
            if outputFailed { return status }
            if status != 0 {
                if status == ExitStatus.interrupted.rawValue || stopsOnError { return status }
                if settings.onError == .stop { remembered = remembered ?? status }
            }
            last = status
        }
        if Task.isCancelled { return ExitStatus.interrupted.rawValue }
        return remembered ?? last
    }
}
