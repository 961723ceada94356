/// Which open documents are due a check, and whether a finished check is still of a document's
/// newest text: changes come in faster than a big document checks, so only the newest text is
/// checked (and its diagnostics published), one check at a time, once the messages that came
/// before are handled. Pure: the server tells it what happened; it says what to do.
struct CheckSchedule: Sendable {
    /// A check of one document's text as it was after its `generation`th change.
    struct Ticket: Sendable, Hashable {
        var uri: String
        var generation: Int
    }

    /// Each open document's generation: it changes with every change of its text.
    private var generations: [String: Int] = [:]
    /// The documents whose newest text is not checked yet, oldest first.
    private var due: [String] = []
    /// The check under way, if any.
    private(set) var running: Ticket?
    /// The last generation given (unique across documents: a reopened document never reuses one).
    private var counter = 0

    /// Whether a document is due a check and none is under way: time to ask for ``start()``.
    var canStart: Bool { running == nil && !due.isEmpty }

    /// A document was opened or changed: its text's new generation (it is due a check).
    mutating func changed(_ uri: String) -> Int {
        counter += 1
        generations[uri] = counter
        if !due.contains(uri) { due.append(uri) }
        return counter
    }

    /// A document was closed: it is no longer due, and a check of it under way is stale.
    mutating func closed(_ uri: String) {
        generations[uri] = nil
        due.removeAll { $0 == uri }
    }

    /// The newest generation of an open document.
    func generation(of uri: String) -> Int? { generations[uri] }

    /// The next check to run (of the document due the longest, at its newest text), if none is
    /// under way.
    mutating func start() -> Ticket? {
        guard running == nil else { return nil }
        while !due.isEmpty {
            let uri = due.removeFirst()
            guard let generation = generations[uri] else { continue }
            let ticket = Ticket(uri: uri, generation: generation)
            running = ticket
            return ticket
        }
        return nil
    }

    /// A check finished: whether its diagnostics are to be published (its document is open and
    /// unchanged since; else a newer text is due, or the document is closed).
    mutating func finished(_ ticket: Ticket) -> Bool {
        if running == ticket { running = nil }
        return generations[ticket.uri] == ticket.generation
    }
}
