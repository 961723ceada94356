import Foundation
import Testing

/// Prints the interactive shell's resident memory before and after 1,000 commands typed into a
/// real terminal (950 `echo`, 50 `search`). A measurement, not an assertion: opt in with
/// BTS_MEASURE_RSS=1.
@Suite("bts memory measurement",
       .enabled(if: BTSBinary.isAvailable && TmuxSession.isAvailable
                && ProcessInfo.processInfo.environment["BTS_MEASURE_RSS"] != nil,
                "set BTS_MEASURE_RSS=1 (and build bts) to measure"))
struct ShellMemoryMeasurement {
    static func residentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    static func lastLine(_ screen: String) -> String {
        screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
    }

    @Test("RSS after 1,000 interactive commands")
    func residentMemoryAfterThousandCommands() async throws {
        let sandbox = try TerminalSandbox()
        let session = try sandbox.startShell(["--local"])
        defer { session.close() }
        try await session.waitForScreen(containing: "bts:embedded>", timeout: .seconds(120))
        try await Task.sleep(for: .milliseconds(300))
        try session.type("search title dune --limit 5")
        try session.press("Enter")
        try await session.waitForScreen(containing: "Dune", timeout: .seconds(60))
        let pid = try session.programPID()
        let start = Self.residentKiB(pid) ?? -1
        let clock = ContinuousClock.now
        var done = 0
        for batch in 0..<20 {
            for index in 0..<50 {
                // One command at a time, each waited for (typeahead is a separate concern).
                let line = index == 0 ? "search title dune \(batch) --limit 5" : "echo m-\(batch)-\(index) end"
                try session.type(line)
                try session.press("Enter")
                let marker = index == 0 ? line : "\nm-\(batch)-\(index) end"
                try await session.waitForScreen(timeout: .seconds(30), description: marker) { screen in
                    screen.contains(marker) && Self.lastLine(screen) == "bts:embedded>"
                }
                done += 1
            }
        }
        print("commands run: \(done)")
        let elapsed = ContinuousClock.now - clock
        let end = Self.residentKiB(pid) ?? -1
        print("bts RSS: \(start) KiB after startup and one search, \(end) KiB after 1,000 more commands "
              + "(950 echo, 50 search) in \(elapsed)")
    }
}
