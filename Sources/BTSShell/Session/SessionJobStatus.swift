import BooksTrackContract

/// What the session last knew of a job: a state its server reported, or that the server no longer
/// has it (`jobs` asked and got 404).
package enum SessionJobStatus: Sendable, Hashable {
    case state(JobState)
    case gone

    package static let initialized = SessionJobStatus.state(.initialized)

    /// The word `jobs` shows and the job store keeps: the state's name, or `gone`.
    package var rawValue: String {
        switch self {
        case .state(let state): return state.rawValue
        case .gone: return "gone"
        }
    }

    /// Reads a stored word (a state under any of production's names, or `gone`).
    package init?(rawValue: String) {
        if rawValue == "gone" {
            self = .gone
        } else if let state = JobState(lenient: rawValue) {
            self = .state(state)
        } else {
            return nil
        }
    }

    /// Nothing will change it any more.
    package var isFinal: Bool {
        switch self {
        case .state(let state): return state.isTerminal
        case .gone: return true
        }
    }

    /// The job may still have results to take in: not failed, canceled or gone.
    package var mayBringResults: Bool {
        switch self {
        case .state(let state): return state != .failed && state != .canceled
        case .gone: return false
        }
    }
}

extension Pipeline {
    /// The command that starts this pipeline's jobs, the job's kind in `jobs` and in the job store.
    package var commandName: String {
        switch self {
        case .batchEnrichment: return "enrich"
        case .bookshelfScan: return "scan"
        default: return "import"
        }
    }

    /// The pipeline a command name stands for (the job store's `kind`).
    package init?(commandName: String) {
        guard
            let pipeline = [Pipeline.csvImport, .batchEnrichment, .bookshelfScan].first(where: {
                $0.commandName == commandName
            })
        else { return nil }
        self = pipeline
    }
}
