import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell
@testable import BTSTerminal

/// Facts the shell states are derived from their homes: the built-in profiles. Each test probes the
/// behaviour (the profile lookup, the completion, the prompt) and checks it against the home.
@Suite struct RegistryFactsTests {
    /// The built-in profiles are the contract's known backends: lookup, completion and the prompt's
    /// names follow them, and `local` is `bts serve`'s default port.
    @Test func builtInProfilesAreTheKnownBackends() throws {
        let config = ShellConfig()
        for known in KnownBackend.allCases {
            let profile = try #require(config.profile(named: known.rawValue))
            #expect(profile.url.absoluteString == known.address)
            let withSlash = try #require(URL(string: known.address + "/"))
            #expect(PromptRenderer.backendName(url: withSlash, builtIn: BackendProfile.builtInNamesByURL) == known.rawValue)
        }
        #expect(CompletionEngine.builtInProfiles == KnownBackend.allCases.map(\.rawValue).sorted())
        let local = try #require(config.profile(named: KnownBackend.local.rawValue))
        #expect(local.url.port == KnownBackend.localPort)
    }
}
