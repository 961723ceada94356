import Foundation
import Synchronization

/// Why the sentence model cannot be used in this process (one plain sentence a user can act on).
package enum ModelUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// `vocab.txt` or `model.safetensors` is not in the model directory (nil: no directory, no $HOME).
    case notInstalled(directory: String?)
    /// The files are there but cannot be loaded.
    case unreadable(String)
    /// OpenBLAS (`library`, loaded at first use) cannot be loaded: `reason` is `dlerror`'s.
    case blasMissing(library: String, reason: String)

    /// The command that installs the model.
    package static let setupCommand = "scripts/setup"

    package var description: String {
        switch self {
        case .notInstalled(let directory):
            let place = directory.map { " in \($0)" } ?? ""
            return "semantic search needs the sentence model \(ModelLocation.name), which is not installed\(place): "
                + "run \(Self.setupCommand) (or set BTS_MODEL_DIR to where its files are)"
        case .unreadable(let why):
            return "semantic search needs the sentence model \(ModelLocation.name), which cannot be loaded (\(why)): "
                + "run \(Self.setupCommand) again"
        case .blasMissing(let library, let reason):
            return "semantic search needs the BLAS library \(library), which cannot be loaded (\(reason)): "
                + "run \(Self.setupCommand) (or set \(OpenBLAS.libraryVariable) to the library's path)"
        }
    }
}

extension SentenceEncoder {
    /// Encoders by model directory and BLAS library name.
    private static let loaded = Mutex<[String: SentenceEncoder]>([:])
    /// The keys of `loaded` whose load `prepare` has started (once per process).
    private static let prepared = Mutex<Set<String>>([])

    /// The process's encoder for the installed model (`ModelLocation`) over OpenBLAS
    /// (`OpenBLAS.load`), loaded at first use and kept; a missing model or library is looked for
    /// again at the next call (installing it needs no restart).
    package static func shared(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<SentenceEncoder, ModelUnavailable> {
        guard let directory = ModelLocation.installed(environment: environment) else {
            return .failure(.notInstalled(directory: ModelLocation.directory(environment: environment)?.path))
        }
        let key = cacheKey(directory, environment)
        return loaded.withLock { cache in
            if let encoder = cache[key] { return .success(encoder) }
            let result = load(directory: directory, environment: environment)
            if case .success(let encoder) = result { cache[key] = encoder }
            return result
        }
    }

    private static func cacheKey(_ directory: URL, _ environment: [String: String]) -> String {
        directory.path + "\n" + OpenBLAS.libraryName(environment: environment)
    }

    /// Starts loading the process's encoder (`shared`) on a thread of its own when the model is
    /// installed and not loaded yet, and returns at once; once loaded, that thread also takes the
    /// page faults of the layers' weights (`touchLayerWeights`). A caller that will embed a query
    /// soon (a one-shot `semantic`, told before its backend opens) overlaps all of it with its own
    /// start; its `shared` call then finds the encoder loaded, or waits for the load in progress.
    /// One thread, not one per step: on two cores, three loading threads beside the caller's slowed
    /// the caller itself. Not a Dispatch queue: a global queue's pool is as wide as the machine, and
    /// on two cores a queued item waited for libdispatch's monitor to add a thread, about a second.
    package static func prepare(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let directory = ModelLocation.installed(environment: environment) else { return }
        // Its own lock, not `loaded`'s: that one is held for the whole load, and a second caller
        // (the query itself, asking again) would wait there instead of going on with its work.
        guard prepared.withLock({ $0.insert(cacheKey(directory, environment)).inserted }) else { return }
        Thread.detachNewThread {
            if case .success(let encoder) = shared(environment: environment) { encoder.touchLayerWeights() }
        }
    }

    /// Whether the model's files are installed (two `stat`s; nothing is loaded).
    package static func availability(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ModelUnavailable? {
        ModelLocation.installed(environment: environment) == nil
            ? .notInstalled(directory: ModelLocation.directory(environment: environment)?.path) : nil
    }
}

extension SentenceEncoder {
    private static let ownsWeights = Mutex(false)

    /// Whether models loaded from now on read their weights into the process's own memory instead
    /// of using a mapping of `model.safetensors` (``MappedFile``). A long-running process (`bts
    /// serve`, an interactive session) sets it before the first load: a model file rewritten or
    /// truncated in place under it (`scripts/setup` of old, `cp` of a new model) then cannot take
    /// its pages away (SIGBUS). A one-shot command keeps the mapping, which costs no copy.
    package static var weightsInOwnMemory: Bool {
        get { ownsWeights.withLock { $0 } }
        set { ownsWeights.withLock { $0 = newValue } }
    }
}
