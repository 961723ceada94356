import Foundation
import ServiceLifecycle

/// Runs a server's service group once, on the first `listen()`; every caller waits for the same
/// outcome. `stop()` shuts it down gracefully (or just lets the reserved port go if it never ran).
actor ServerListener {
    private let makeGroup: @Sendable () -> ServiceGroup
    private let started: StartSignal
    private let reservation: PortReservation?
    private var group: ServiceGroup?
    private var runTask: Task<Void, Never>?
    private var stopped = false

    /// `makeGroup` is called once, at the first `listen()`.
    init(started: StartSignal, reservation: PortReservation?, makeGroup: @escaping @Sendable () -> ServiceGroup) {
        self.makeGroup = makeGroup
        self.started = started
        self.reservation = reservation
    }

    /// Opens the socket if it is not open yet and returns the port it listens on.
    func listen() async throws -> Int {
        guard !stopped else { throw LocalServerError(message: "the server was shut down") }
        if runTask == nil {
            let group = makeGroup()
            self.group = group
            let started = self.started
            runTask = Task {
                do {
                    try await group.run()
                    started.resolve(.failure(LocalServerError(message: "the server stopped before it was listening")))
                } catch {
                    started.resolve(.failure(error))
                }
            }
        }
        let port = try await started.value()
        reservation?.release()
        return port
    }

    /// Whether the reserved port is still held (a server that never listened, before `stop()`).
    var holdsReservedPort: Bool { reservation?.isHeld ?? false }

    func stop() async {
        stopped = true
        reservation?.release()
        guard let runTask, let group else { return }
        await group.triggerGracefulShutdown()
        await runTask.value
    }
}
