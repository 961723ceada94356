import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell
@testable import BTSTerminal

/// Facts the help states about the registry are derived from it: which commands take `--output`,
/// the output formats, the settings of `set`, the built-in profiles. Each test probes the behaviour
/// (the resolver, the completion, the profile lookup) and checks the text against that.
@Suite struct RegistryFactsTests {
    /// The commands the resolver refuses an unknown `--output` value for are exactly those the help
    /// and the reference say take `--output` (`alias` was missing from both, and the overview said
    /// "every command").
    @Test func theHelpNamesExactlyTheCommandsWithoutOutput() {
        let registry = CommandRegistry.standard
        var without: [String] = []
        for spec in registry.commands {
            // A command with subcommands is probed through its first one (`library list --output xml`).
            let path = ([spec.name] + spec.subcommands.prefix(1).map(\.name)).joined(separator: " ")
            let refused = registryErrors("\(path) --output xml").contains { $0.contains("for '--output'") }
            if !refused { without.append(spec.name) }
        }
        #expect(!without.isEmpty)
        let exceptPlain =
            "Every command except " + EnglishList.joined(without.sorted(), "and") + " accepts --output FORMAT"
        let overview = HelpRenderer().overview().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(overview.contains(exceptPlain), "\(overview)")
        let exceptMarkdown = "Every command except " + EnglishList.joined(without.sorted().map { "`\($0)`" }, "and")
        #expect(CommandReference.markdown().contains(exceptMarkdown))
        for format in OutputFormat.allCases {
            #expect(overview.contains(format.rawValue))
            #expect(registryErrors("search dune --output \(format.rawValue)").isEmpty)
        }
    }

    /// `help set` lists every setting with its values (`pager`, `progress` and `offline` were missing).
    @Test func helpSetListsEverySetting() throws {
        let help = try #require(HelpRenderer().help(for: ["set"])).split(whereSeparator: \.isWhitespace).joined(
            separator: " "
        )
        for setting in CommandRegistry.standardSettings {
            #expect(registryErrors("set \(setting.name) xyz").contains { $0.contains("setting '\(setting.name)'") })
            #expect(help.contains(setting.synopsis), "\(setting.name) missing from help set")
        }
    }

    /// The built-in profiles are the contract's known backends: lookup, completion and the prompt's
    /// names follow them, and `local` is `bts serve`'s default port.
    @Test func builtInProfilesAreTheKnownBackends() throws {
        let config = ShellConfig()
        for known in KnownBackend.allCases {
            let profile = try #require(config.profile(named: known.rawValue))
            #expect(profile.url.absoluteString == known.address)
            let withSlash = try #require(URL(string: known.address + "/"))
            #expect(
                PromptRenderer.backendName(url: withSlash, builtIn: BackendProfile.builtInNamesByURL) == known.rawValue
            )
        }
        #expect(CompletionEngine.builtInProfiles == KnownBackend.allCases.map(\.rawValue).sorted())
        let local = try #require(config.profile(named: KnownBackend.local.rawValue))
        #expect(local.url.port == KnownBackend.localPort)
    }

    /// `search` and `more` take the page every search route takes (`SearchPageLimits`).
    @Test func searchPagesAreTheContracts() {
        #expect(SearchCommand.limit.spec.valueType == .int(SearchPageLimits.limit))
        #expect(SearchCommand.limit.defaultValue == SearchPageLimits.defaultLimit)
        #expect(SearchCommand.offset.valueType == .int(SearchPageLimits.offset))
        #expect(MoreCommand.limit.valueType == .int(SearchPageLimits.limit))
        #expect(V3Limits.searchPage == SearchPageLimits.limit)
    }
}
