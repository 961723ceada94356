import Foundation
import TestSupport
import Testing

/// `semantic` one-shot through the real binary on the embedded backend: with the sentence model it
/// finds a book from its plot; without the model's files (an empty `BTS_MODEL_DIR`) it exits 1 with
/// one sentence naming `scripts/setup` and prints no results (no fallback to title words).
@Suite(.serialized) struct SemanticBinaryTests {
    static func run(_ args: [String], modelDirectory: String? = nil, in dir: URL) async throws -> ProcessOutcome {
        let binary = try #require(BTSExecutable.url, "no bts binary: swift build --product bts")
        var env = ProcessInfo.processInfo.environment
        for (key, sub) in [
            ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"), ("XDG_CACHE_HOME", "cache"),
            ("XDG_DATA_HOME", "data"),
        ] {
            let path = dir.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            env[key] = path.path
        }
        try SharedCatalog.seed(cacheHome: dir.appendingPathComponent("cache"))
        env["BTS_API_URL"] = nil
        if let modelDirectory { env["BTS_MODEL_DIR"] = modelDirectory }
        return try await ChildProcess.run(
            binary,
            ["--local", "--no-color"] + args,
            environment: env,
            directory: dir,
            timeout: .seconds(120)
        )
    }

    @Test func themeQueryFindsTheBookAndAMissingModelIsOneSentence() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("bts-semantic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let found = try await Self.run(
            ["-c", "semantic dystopian young adult novel about a deadly televised competition --limit 10"],
            in: dir
        )
        #expect(
            found.status == 0 && found.stdout.contains("The Hunger Games"),
            "\(found.status)\n\(found.stdout)\n\(found.stderr)"
        )

        let empty = dir.appendingPathComponent("no-model")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let missing = try await Self.run(
            ["-c", "semantic a boy wizard at a school of magic"],
            modelDirectory: empty.path,
            in: dir
        )
        #expect(missing.status == 1, "\(missing.status)\n\(missing.stdout)\n\(missing.stderr)")
        #expect(missing.stdout.isEmpty, "\(missing.stdout)")
        // One error (the shell shows it with the command line and a caret below, as every error).
        #expect(missing.stderr.components(separatedBy: "error:").count == 2, "\(missing.stderr)")
        #expect(missing.stderr.split(separator: "\n").first?.contains("not installed") == true, "\(missing.stderr)")
        #expect(
            missing.stderr.contains("sentence model all-MiniLM-L6-v2") && missing.stderr.contains("scripts/setup")
                && missing.stderr.contains(empty.path),
            "\(missing.stderr)"
        )
        // Other commands are untouched.
        let title = try await Self.run(["-c", "search title dune --limit 1"], modelDirectory: empty.path, in: dir)
        #expect(title.status == 0 && title.stdout.contains("Dune"))
    }
}
