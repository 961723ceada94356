/// The session's service handles: the backend, the calls' bookkeeping, the running command's
/// call policy, the user's library and the jobs started. A ``Shell`` holds one (`services`).
struct SessionServices {
    /// The backend: chosen, opened, switched and closed.
    let backendSession: BackendSession
    /// The calls' bookkeeping (`timing`, deprecation warnings once).
    var calls = CallLedger()
    /// The running command's call policy (``Shell/perform(_:_:)`` sets it from the command's type).
    var callPolicy = CallPolicy(gate: nil, budget: nil, label: "")
    /// The user's library, once opened (``LibraryState``), and whether completion must reload it.
    var openedLibrary = LibraryState()
    /// Jobs started in this session, oldest first.
    var jobs = SessionJobs()
}
