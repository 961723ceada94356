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
        await ScriptRunner.runStream(reader, name: name, on: self)
    }
}
