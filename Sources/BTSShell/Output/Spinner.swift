import Foundation
import Synchronization

/// A spinner on a terminal's stderr for a request slower than ``delay``: nothing is drawn for a
/// quick answer; after the delay `⠋ search…` turns in place until ``stop()``, which clears it.
/// Only where progress is redrawn (``ShellOutput/redrawsProgress``): never in a pipe, never with
/// `--quiet` or `set progress off`, never on stdout.
final class Spinner: Sendable {
    static let delay: Duration = .milliseconds(300)
    static let interval: Duration = .milliseconds(100)
    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private struct State {
        var task: Task<Void, Never>?
        var drawn = false
        var stopped = false
    }

    private let output: ShellOutput
    private let label: String
    private let state = Mutex(State())

    private init(output: ShellOutput, label: String) {
        self.output = output
        self.label = label
    }

    /// Starts a spinner for `label`, or nil where progress is not redrawn.
    static func start(output: ShellOutput, label: String) -> Spinner? {
        guard output.redrawsProgress else { return nil }
        let spinner = Spinner(output: output, label: label)
        let task = Task.detached { [spinner] in await spinner.spin() }
        spinner.state.withLock { $0.task = task }
        return spinner
    }

    private func spin() async {
        do { try await Task.sleep(for: Self.delay) } catch { return }
        var frame = 0
        while !Task.isCancelled {
            let text = "\(Self.frames[frame % Self.frames.count]) \(label)…"
            // Drawn under the lock, so `stop()` never clears before a frame that follows it.
            let drew = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                output.redraw(text)
                state.drawn = true
                return true
            }
            guard drew else { return }
            frame += 1
            do { try await Task.sleep(for: Self.interval) } catch { return }
        }
    }

    /// Stops the spinner and clears its line if it drew one.
    func stop() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            if state.drawn { output.redraw("") }
            return state.task
        }
        task?.cancel()
    }
}
