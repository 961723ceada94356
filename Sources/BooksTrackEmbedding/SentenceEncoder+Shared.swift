import Foundation
import Synchronization

/// Why the sentence model cannot be used in this process (one plain sentence a user can act on).
public enum ModelUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// `vocab.txt` or `model.safetensors` is not in the model directory (nil: no directory, no $HOME).
    case notInstalled(directory: String?)
    /// The files are there but cannot be loaded.
    case unreadable(String)
    /// OpenBLAS (`library`, loaded at first use) cannot be loaded: `reason` is `dlerror`'s.
    case blasMissing(library: String, reason: String)

    /// The command that installs the model.
    public static let setupCommand = "scripts/setup"

    public var description: String {
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
    private static let loaded = Mutex<[String: SentenceEncoder]>([:])

    /// The process's encoder for the installed model (`ModelLocation`) over OpenBLAS
    /// (`OpenBLAS.load`), loaded at first use and kept; a missing model or library is looked for
    /// again at the next call (installing it needs no restart).
    public static func shared(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Result<SentenceEncoder, ModelUnavailable> {
        guard let directory = ModelLocation.installed(environment: environment) else {
            return .failure(.notInstalled(directory: ModelLocation.directory(environment: environment)?.path))
        }
        let blas: OpenBLAS
        switch OpenBLAS.load(environment: environment) {
        case .failure(let reason): return .failure(reason)
        case .success(let library): blas = library
        }
        return loaded.withLock { cache in
            if let encoder = cache[directory.path] { return .success(encoder) }
            do throws(SentenceEncoder.LoadError) {
                let encoder = try SentenceEncoder(directory: directory, blas: blas)
                cache[directory.path] = encoder
                return .success(encoder)
            } catch {
                return .failure(.unreadable(error.description))
            }
        }
    }

    /// Whether the model's files are installed (two `stat`s; nothing is loaded).
    public static func availability(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> ModelUnavailable? {
        ModelLocation.installed(environment: environment) == nil
            ? .notInstalled(directory: ModelLocation.directory(environment: environment)?.path) : nil
    }
}
