import BooksTrackEmbedding
import Foundation
import Testing
import TestSupport

/// `scripts/model-dir` (the scripts' statement of where the model is) says what
/// `ModelLocation.directory` (bts's) says, environment by environment.
@Suite struct ModelDirScriptTests {
    static let environments: [[String: String]] = [
        ["HOME": "/home/reader"],
        ["HOME": "/home/reader", "XDG_DATA_HOME": "/data"],
        ["HOME": "/home/reader", "XDG_DATA_HOME": "relative/data"],
        ["HOME": "/home/reader", "BTS_MODEL_DIR": "/models/minilm"],
        ["HOME": "/home/reader", "BTS_MODEL_DIR": "relative/minilm", "XDG_DATA_HOME": "/data"],
        ["HOME": "/home/reader", "BTS_MODEL_DIR": ""],
        ["HOME": "relative"],
        [:],
    ]

    /// The script's output in exactly `environment` (nil when it exits non-zero).
    static func scriptSays(_ environment: [String: String]) throws -> String? {
        let process = SpawnedProcess()
        process.executableURL = InstallScriptTests.root.appendingPathComponent("scripts/model-dir")
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { first, _ in first }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    @Test(arguments: environments)
    func theScriptAndBtsAgree(_ environment: [String: String]) throws {
        #expect(try Self.scriptSays(environment) == ModelLocation.directory(environment: environment)?.path, "\(environment)")
    }
}
