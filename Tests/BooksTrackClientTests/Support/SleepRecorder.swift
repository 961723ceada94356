import TestSupport

/// Records requested retry waits instead of sleeping (tests assert the computed wait, not wall time).
final class SleepRecorder: Sendable {
    private let state = SynchronizedBox<[Duration]>([])
    var delays: [Duration] { state.value }
    var sleep: @Sendable (Duration) async throws -> Void {
        { [state] d in
            state.mutate { $0.append(d) }
            try Task.checkCancellation()
        }
    }
}
