import BooksTrackClient
import BooksTrackContract

/// `connect`'s check before switching: a target that cannot be reached is not switched to.
enum ConnectCheck {
    /// The error to throw instead of switching, or nil when the target answered (or answered
    /// without publishing capabilities, which is not a reason to stay).
    static func refusal(_ result: ConnectResult, target: BackendTarget, current: BackendTarget?) -> ShellError? {
        guard let error = result.error, error.category == .network || error.kind == .invalidInput else { return nil }
        // "Still using the http://…" read as a typo: say what stays connected, a URL as it is.
        let stays =
            current.map { " Still connected to \($0 == .embedded ? "the " : "")\(SecretMasking.maskURL($0.label))." }
            ?? ""
        return ShellError(
            .network,
            "not switching to \(SecretMasking.maskURL(target.label)): \(error.message)\(stays) ('connect --force' switches anyway.)",
            code: error.code
        )
    }
}

/// Why the capabilities are unknown: the server could not be reached, or it did not publish them.
struct CapabilityAbsence {
    let failure: BooksTrackError?

    init(_ failure: BooksTrackError?) { self.failure = failure }

    var isUnreachable: Bool { failure?.category == .network }

    var shellError: ShellError {
        guard let failure else { return ShellError(.failure, "capabilities unknown: the server did not publish them") }
        if isUnreachable { return ShellError(.network, "capabilities unknown: \(what): \(failure.message)") }
        return ShellError(.failure, "capabilities unknown: the server did not publish them (\(failure.message))")
    }

    var limitsNote: String {
        "\(what) (\(failure?.message ?? "no answer")); these budgets are what this client knows, not the server's"
    }

    /// What became of the capabilities request: a timeout is a server that did not answer in time,
    /// not one that cannot be reached.
    private var what: String {
        failure?.kind == .timeout ? "the server did not answer in time" : "the server is unreachable"
    }
}
