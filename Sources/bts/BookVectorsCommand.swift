import ArgumentParser
import BooksTrackCatalog
import BooksTrackEmbedding
import Foundation

/// `bts book-vectors --model-sha256 HEX OUT` (hidden): embeds every book of the bundled catalog
/// with the installed sentence model (`SQLiteCatalog.bookText`, the same encoder that embeds
/// queries) and writes the compact vectors (`QuantizedVectors`) to OUT (`scripts/build-book-vectors`).
struct BookVectorsCommand: StandaloneCommand {
    static let configuration = CommandConfiguration(
        commandName: "book-vectors",
        abstract: "Embed every catalog book with the sentence model into the bundled book vectors.",
        shouldDisplay: false
    )

    @Option(help: "sha256 of the installed model.safetensors, for the stamp")
    var modelSHA256: String

    @ArgumentParser.Argument(help: "Where to write the vectors")
    var output: String

    struct Report: CustomStringConvertible {
        var count: Int
        var bytes: Int
        var seconds: Double
        var description: String {
            String(format: "book-vectors: %d books, %d bytes, %.1f s", count, bytes, seconds)
        }
    }

    static func start(_ arguments: [String]) throws -> Int32 { try parse(arguments).execute() }

    func execute() -> Int32 {
        Self.report(Self.name) {
            let start = ContinuousClock.now
            let encoder = try SentenceEncoder.shared().get()
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("bts-book-vectors-\(getpid())")
            defer { try? FileManager.default.removeItem(at: scratch) }
            let catalog = try SQLiteCatalog.open(cacheDirectory: scratch)
            let texts = try catalog.bookTexts()
            var vectors: [[Float]] = []
            vectors.reserveCapacity(texts.count)
            for (index, item) in texts.enumerated() {
                vectors.append(encoder.encode(item.text))
                if index % 1000 == 999 {
                    FileHandle.standardError.write(Data("book-vectors: \(index + 1)/\(texts.count)\n".utf8))
                }
            }
            var info = stat()
            let modelPath = (ModelLocation.installed()?.appendingPathComponent("model.safetensors").path) ?? ""
            guard stat(modelPath, &info) == 0 else { throw ModelUnavailable.notInstalled(directory: modelPath) }
            let stamp = QuantizedVectors.Stamp(
                model: ModelLocation.name,
                modelSHA256: modelSHA256,
                modelBytes: Int(info.st_size),
                catalog: catalog.resourceHash,
                text: SQLiteCatalog.bookTextRecipe,
                count: texts.count,
                dimension: SentenceEncoder.dimension
            )
            let data = QuantizedVectors.encode(stamp: stamp, ids: texts.map { Int32($0.id) }, vectors: vectors)
            try data.write(to: URL(fileURLWithPath: output), options: .atomic)
            return Report(count: texts.count, bytes: data.count, seconds: (ContinuousClock.now - start) / .seconds(1))
        }
    }
}
