import BTSLanguage
import Testing

@testable import BTSShell

@Suite struct RegistryStructureTests {
    let registry = CommandRegistry.standard

    /// The registry is the command table, and every command in it has its whole structure. There is
    /// no second list of names here: Swift cannot discover the types that conform to `ShellCommand`,
    /// so `CommandTable.all` is the one list (a command dropped from it shows in the generated README,
    /// which `ReadmeReferenceTests` checks).
    @Test func everyShellCommandIsRegistered() {
        let names = CommandTable.all.map { $0.name }
        #expect(registry.commands.map(\.name) == names)
        #expect(Set(names).count == names.count)
        for type in CommandTable.all {
            let spec = type.spec
            #expect(spec.name == type.name)
            let dispatched = CommandTable.byName[type.name].map { ObjectIdentifier($0) }
            #expect(dispatched == ObjectIdentifier(type), "\(type.name)")
            #expect(registry.command(named: type.name)?.name == type.name)
            #expect(registry.commands(in: spec.group).contains { $0.name == type.name }, "\(type.name)")
            #expect(!spec.summary.isEmpty && !spec.examples.isEmpty, "\(type.name)")
        }
        #expect(registry.setting(named: "output") != nil)
        #expect(
            registry.settings.map(\.name) == [
                "output", "color", "timing", "wait", "onerror", "pager", "progress", "offline", "library", "looplimit",
                "expanded",
            ]
        )
    }

    @Test func namesAndAliasesAreUnique() {
        #expect(Set(registry.allNames).count == registry.allNames.count)
    }

    @Test func optionsAreUniquePerCommand() {
        func check(_ spec: CommandSpec) {
            let options = spec.options + CommandRegistry.globalOptions
            #expect(Set(options.map(\.long)).count == options.count, "\(spec.name)")
            let shorts = options.compactMap(\.short)
            #expect(Set(shorts).count == shorts.count, "\(spec.name)")
            let variadic = spec.positionals.filter(\.isVariadic)
            #expect(
                variadic.count <= 1 && (variadic.isEmpty || spec.positionals.last?.isVariadic == true),
                "\(spec.name)"
            )
            spec.subcommands.forEach(check)
        }
        registry.commands.forEach(check)
    }

    @Test func everyExampleResolves() {
        func check(_ spec: CommandSpec) {
            #expect(!spec.summary.isEmpty)
            for example in spec.examples {
                let result = Parser.parse(example)
                #expect(result.diagnostics.isEmpty, "\(example)")
                guard let command = result.script.commands.first else { continue }
                if case .failure(let diagnostics) = registry.resolve(command) {
                    Issue.record("\(example): \(diagnostics.messages)")
                }
            }
            spec.subcommands.forEach(check)
        }
        registry.commands.forEach(check)
        #expect(registry.commands.allSatisfy { !$0.examples.isEmpty })
    }

    @Test func gatingAndBudgets() {
        let gated = Dictionary(
            uniqueKeysWithValues: registry.commands.compactMap { spec in
                spec.gate.map { (spec.name, $0.description) }
            }
        )
        #expect(
            gated == [
                "similar": "similar_books", "semantic": "semantic_search",
                "recommend": "weekly_recommendations (weekly only)",
                "import": "csv_import", "enrich": "batch_enrichment (batch only)", "cancel": "job_cancellation",
                "scan": "bookshelf_scan",
            ]
        )
        #expect(registry.command(named: "connect")?.isSensitive == true)
        #expect(registry.commands.filter(\.isSensitive).map(\.name) == ["connect"])
    }

    @Test func completionKinds() {
        #expect(registry.command(named: "import")?.positionals.first?.completion == .filePath(extensions: ["csv"]))
        #expect(registry.command(named: "source")?.positionals.first?.completion == .filePath(extensions: ["bts"]))
        #expect(
            registry.command(named: "enrich")?.option(long: "from")?.completion
                == .filePath(extensions: ["txt", "csv"])
        )
        #expect(registry.command(named: "enrich")?.option(long: "provider")?.completion == .provider)
        for name in ["watch", "status", "results", "cancel"] {
            #expect(registry.command(named: name)?.positionals.first?.completion == .jobID)
        }
        #expect(CommandRegistry.globalOptions.first?.completion == .outputFormat)
        #expect(registry.spec(at: ["search", "isbn"])?.positionals.first?.completion == .isbn)
        #expect(registry.spec(at: ["search", "nope"]) == nil)
    }

    @Test func durations() {
        #expect(ValueType.parseDuration("250ms") == .milliseconds(250))
        #expect(ValueType.parseDuration("2S") == .seconds(2))
        #expect(ValueType.parseDuration("1h") == .seconds(3600))
        #expect(ValueType.parseDuration("0") == .zero)
        #expect(ValueType.parseDuration("25h") == nil)
        #expect(ValueType.parseDuration("ms") == nil)
        #expect(ValueType.parseDuration("nan") == nil)
        #expect(ArgumentValue.duration(.milliseconds(1500)).description == "1500ms")
        #expect(ArgumentValue.duration(.seconds(2)).description == "2s")
    }
}

@Suite struct RegistrySensitivityTests {
    @Test func sensitiveLines() {
        let registry = CommandRegistry.standard
        #expect(registry.isSensitive(line: "connect https://user:pw@api.example.com"))
        #expect(registry.isSensitive(line: "jobs; connect https://user:pw@api.example.com"))
        #expect(registry.isSensitive(line: "connect 'http://api.example.com/?token=abc'"))
        #expect(registry.isSensitive(line: "connect 'unterminated"))
        #expect(registry.isSensitive(line: "set api_token abc123"))
        #expect(registry.isSensitive(line: "set MyPassword x"))
        #expect(!registry.isSensitive(line: "set output json"))
        #expect(!registry.isSensitive(line: "search title dune"))
        #expect(!registry.isSensitive(line: "echo connect"))
        #expect(!registry.isSensitive(line: ""))
    }

    /// Issue 33 item 12: `connect local` and `connect http://localhost:8787` carry no secret and
    /// were dropped from history all the same.
    @Test func connectLinesWithoutSecretsAreKept() {
        let registry = CommandRegistry.standard
        #expect(!registry.isSensitive(line: "connect local"))
        #expect(!registry.isSensitive(line: "jobs; connect embedded"))
        #expect(!registry.isSensitive(line: "connect http://localhost:8787"))
        #expect(!registry.isSensitive(line: "connect --force http://127.0.0.1:8787/"))
    }

    @Test func sensitiveOptionsAreDetected() {
        let registry = CommandRegistry(commands: [
            CommandSpec(
                "login",
                group: .meta,
                summary: "Log in",
                options: [
                    OptionSpec("token", short: "k", type: .string, help: "API token", sensitive: true),
                    OptionSpec("user", type: .string, help: "User"),
                ]
            )
        ])
        #expect(registry.isSensitive(line: "login --token abc"))
        #expect(registry.isSensitive(line: "login -k abc"))
        #expect(registry.isSensitive(line: "login --token=abc"))
        #expect(!registry.isSensitive(line: "login --user bob"))
    }
}
