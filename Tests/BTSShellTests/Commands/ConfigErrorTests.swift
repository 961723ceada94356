import BTSShell
import Foundation
import Testing

/// A broken config file is reported as the file's path and line, not as a place in the
/// command that happened to read it (`-c:1:1` with a caret under `search dune`).
@Suite("config file errors")
struct ConfigErrorTests {
    static let cases: [(file: String, message: String)] = [
        (
            "default_profile = \"work\"\n\n[profiles.work]\nurl = \"http://x:1\"\ntoken = \n",
            "config.toml:5:9: not valid TOML: "
        ),
        ("\ndefault_profile = \"nope\"\n", "config.toml:2: default_profile 'nope' is not a profile"),
        ("[profiles.work]\nurl = 5\n", "config.toml:2: 'profiles.work.url' must be a string"),
        ("# mine\n[profiles.work]\ntoken = \"a\"\n", "config.toml:2: 'profiles.work.url' is missing"),
        ("[profiles.work]\nurl = \"ftp://x\"\n", "config.toml:2: profile 'work' has an unusable url: "),
    ]

    @Test(arguments: 0..<cases.count)
    func reportedAsTheFilesPathAndLine(_ index: Int) async throws {
        let (file, message) = Self.cases[index]
        try await withShell(backend: BackendRequest()) { harness in
            let config = harness.directory.appendingPathComponent("config/bts")
            try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
            let url = config.appendingPathComponent("config.toml")
            _ = FileManager.default.createFile(
                atPath: url.path,
                contents: Data(file.utf8),
                attributes: [.posixPermissions: 0o600]
            )
            #expect(await harness.run("search dune", name: "-c") == 2)
            #expect(harness.err.hasPrefix("error: " + url.path + ":"), "\(harness.err)")
            #expect(harness.err.contains(message), "\(harness.err)")
            #expect(!harness.err.contains("-c:1:1"), "\(harness.err)")
            #expect(!harness.err.contains("| search dune"), "no snippet of the command: \(harness.err)")
        }
    }
}
