import BTSShell

#if canImport(Glibc)
import Glibc
#endif

/// Why a test file was stopped from outside before it ended: its time limit (`--file-timeout`)
/// or a signal to `bts test`. A stopped file is an error whose first failure says so.
package enum ScriptTestStop: Sendable, Hashable, Codable {
    /// It ran longer than `limit`.
    case timedOut(limit: Duration)
    /// `bts test` received `signal` (SIGINT, SIGTERM or SIGHUP) while it ran.
    case interrupted(signal: Int32)

    /// `timed out after 30s`, `interrupted by SIGTERM`.
    package var message: String {
        switch self {
        case .timedOut(let limit): "timed out after \(Self.spoken(limit))"
        case .interrupted(let signal): "interrupted by \(Self.signalName(signal))"
        }
    }

    /// The error code of the failure it becomes.
    package var code: String {
        switch self {
        case .timedOut: "TIMED_OUT"
        case .interrupted: "INTERRUPTED"
        }
    }

    /// The failure the stopped `file` reports first.
    func failure(in file: String) -> ScriptTestFailure {
        ScriptTestFailure(file: file, message: message, code: code)
    }

    /// A duration as `--file-timeout` takes it: `500ms`, `30s`, `1.5s`, `2m`, `1h` (the largest
    /// unit it is a whole number of; seconds with up to 3 decimals otherwise).
    package static func spoken(_ duration: Duration) -> String {
        let milliseconds = max(
            0,
            duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        )
        for (unit, size) in [("h", Int64(3_600_000)), ("m", 60_000), ("s", 1000)]
        where milliseconds >= size && milliseconds % size == 0 {
            return "\(milliseconds / size)\(unit)"
        }
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        var fraction = String(milliseconds % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(milliseconds / 1000).\(fraction)s"
    }

    /// `SIGTERM` for 15; `signal N` for one without a name here.
    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
