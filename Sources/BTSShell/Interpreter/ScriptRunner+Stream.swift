import BTSLanguage
import BTSTerminal
import Foundation

extension ScriptRunner {
    /// Commands read from a pipe, run as they arrive (``Shell/runStream(_:name:)``): each logical
    /// line `reader` hands over is checked and run before the next is read, errors naming the
    /// stream's line. The first failure stops the run unless errors are to be continued past; the
    /// status is that failure's, else that of the last command. A line that is not UTF-8 stops the
    /// run with status 2.
    static func runStream<Host: ScriptHost>(
        _ reader: any LineReader,
        name: String,
        on host: isolated Host
    ) async -> Int32 {
        var nextLine = 1
        var last: Int32 = 0
        var remembered: Int32?
        while !Task.isCancelled {
            let result = await reader.readLine(prompt: "")
            guard case .line(var text) = result else {
                if result == .interrupted { return ExitStatus.interrupted.rawValue }
                if case .notUTF8(let line) = result {
                    // As a script file's bad byte is refused; the lines before it have run.
                    host.report(.notUTF8(line, in: name), in: nil, interactive: false)
                    return ExitStatus.usage.rawValue
                }
                break
            }
            // A UTF-8 byte-order mark before the first line is skipped, as in a script file (ScriptFile).
            if nextLine == 1, text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            let first = nextLine
            nextLine += text.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            guard !text.allSatisfy(\.isWhitespace) else { continue }
            let status = await runSources(
                [(text, name)],
                directory: nil,
                interactive: false,
                firstLine: first,
                on: host
            )
            if let exit = host.state.exitRequest { return exit }
            if host.outputFailed { return status }
            if status != 0 {
                if status == ExitStatus.interrupted.rawValue || host.stopsOnError { return status }
                if host.settings.onError == .stop { remembered = remembered ?? status }
            }
            last = status
        }
        if Task.isCancelled { return ExitStatus.interrupted.rawValue }
        return remembered ?? last
    }
}
