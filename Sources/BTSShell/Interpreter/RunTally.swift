/// How a list of statements ended.
enum BlockFlow: Sendable, Equatable {
    case next, breakLoop, continueLoop, stop
}

/// The statuses seen while running (see ``ScriptRunner/execute(_:_:on:)``).
struct RunTally: Sendable, Equatable {
    var last: Int32 = 0
    var remembered: Int32?

    /// The status a run that ended with `flow` leaves with: the last command's when it stopped,
    /// else a failure passed over only because of `--continue-on-error`, else the last command's.
    func status(after flow: BlockFlow) -> Int32 {
        flow == .stop ? last : remembered ?? last
    }

    /// Books a command's status; the flow to leave with when it ends the run. `mustStop` says that
    /// everything ends now (an `exit`, an expansion nested too deeply, standard output failed).
    mutating func record(
        _ status: Int32,
        mustStop: Bool,
        stopsOnError: Bool,
        onError: ShellSettings.OnError
    ) -> BlockFlow? {
        last = status
        if mustStop { return .stop }
        if status != 0 {
            if status == ExitStatus.interrupted.rawValue || stopsOnError { return .stop }
            if onError == .stop { remembered = status }
        }
        return nil
    }
}
