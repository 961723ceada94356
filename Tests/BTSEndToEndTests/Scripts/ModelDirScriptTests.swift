import BooksTrackEmbedding
import Foundation
import Testing

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

    /// The script's output in exactly `environment` (`env -i`; nil when it exits non-zero).
    static func scriptSays(_ environment: [String: String]) throws -> String? {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)='\($0.value)'" }.joined(
            separator: " "
        )
        let run = try InstallScriptTests.sh("env -i PATH=/usr/bin:/bin \(assignments) scripts/model-dir")
        return run.status == 0 ? run.output.trimmingCharacters(in: .newlines) : nil
    }

    @Test(arguments: environments)
    func theScriptAndBtsAgree(_ environment: [String: String]) throws {
        #expect(
            try Self.scriptSays(environment) == ModelLocation.directory(environment: environment)?.path,
            "\(environment)"
        )
    }
}
