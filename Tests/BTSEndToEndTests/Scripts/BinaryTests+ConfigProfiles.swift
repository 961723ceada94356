import Foundation
import Testing

/// A config-file profile with an impossible URL: the real binary, used with
/// `--profile NAME` and as `default_profile`, exits 2 with one plain sentence naming the port
/// range, never crashes (a signal would not be status 2), and never prints the URL's password.
extension BinaryTests {
    static let profilePassword = "Pr0fileSecret"

    static let badProfileURLs = [
        "http://127.0.0.1:65536",
        "http://user:\(profilePassword)@127.0.0.1:99999",
    ]

    @Test(
        .enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"),
        arguments: BinaryTests.badProfileURLs,
        [false, true]
    )
    func aProfileWithAnImpossiblePortIsAUsageError(url: String, asDefault: Bool) async throws {
        let config = (asDefault ? "default_profile = \"bad\"\n" : "") + "[profiles.bad]\nurl = \"\(url)\"\n"
        let arguments = (asDefault ? [] : ["--profile", "bad"]) + ["-c", "search dune"]
        let outcome = try await Self.run(arguments, config: config)
        let everything = outcome.stdout + outcome.stderr
        #expect(outcome.status == 2, "\(everything)")
        #expect(outcome.stderr.contains("profile 'bad'"), "\(outcome.stderr)")
        #expect(outcome.stderr.contains("a port is 1–65535"), "\(outcome.stderr)")
        #expect(!everything.contains(Self.profilePassword), "\(everything)")
        #expect(!everything.contains("Fatal error"), "\(everything)")
        #expect(outcome.stdout.isEmpty, "\(outcome.stdout)")
    }
}
