import BTSLanguage
import BooksTrackClient
import BooksTrackContract
import Foundation
import Testing

@testable import BTSShell

/// A command is wholly one type: each subcommand is a type its parent lists, dispatch follows the
/// typed path, an option's default is declared once and read back typed, and the dispatcher's call
/// policy comes from the types.
@Suite struct CommandTypeTests {
    /// Every type with its path, parents before their subcommands.
    static var allTypes: [(path: [String], type: any ShellCommand.Type)] {
        func walk(_ type: any ShellCommand.Type, _ parent: [String]) -> [(path: [String], type: any ShellCommand.Type)]
        {
            let path = parent + [type.name]
            return [(path, type)] + type.subcommands.flatMap { walk($0, path) }
        }
        return CommandTable.all.flatMap { walk($0, []) }
    }

    /// Every command and subcommand the registry knows (help, completion, validation) routes to the
    /// type of that name, and every type is in the registry.
    @Test func everySpecIsAType() throws {
        func paths(_ spec: CommandSpec, _ parent: [String]) -> [[String]] {
            let path = parent + [spec.name]
            return [path] + spec.subcommands.flatMap { paths($0, path) }
        }
        let registryPaths = CommandRegistry.standard.commands.flatMap { paths($0, []) }
        #expect(registryPaths.count > CommandTable.all.count)
        for path in registryPaths {
            let route = CommandTable.route(path: path)
            #expect(route.count == path.count, "\(path) has no type")
            #expect(route.last?.name == path.last, "\(path) runs \(String(describing: route.last))")
        }
        #expect(Self.allTypes.map(\.path) == registryPaths)
    }

    /// Every example of a subcommand runs through that subcommand's type, and a command's examples
    /// run through it (all but those that set the scene: `search the --limit 10` before `more`);
    /// a leaf's examples run that type and no other (a misspelt subcommand cannot become another:
    /// the example would land elsewhere).
    @Test func everyExampleRunsThroughItsType() throws {
        for (path, type) in Self.allTypes {
            var examples = type.configuration.examples
            if path.count == 1 { examples = [examples.joined(separator: "; ")] }
            for example in examples {
                let parsed = Parser.parse(example, name: "example")
                #expect(parsed.diagnostics.isEmpty, "\(example)")
                var ran = false
                for command in parsed.script.commands {
                    let resolved = try CommandRegistry.standard.resolve(command).get()
                    let route = resolved.route.types.map { ObjectIdentifier($0) }
                    guard route.contains(ObjectIdentifier(type)) else { continue }
                    ran = true
                    if type.subcommands.isEmpty {
                        #expect(route.last == ObjectIdentifier(type), "\(example) does not run \(path)")
                        _ = try type.init(resolved)
                    }
                }
                #expect(ran, "\(example) does not run through \(path)")
            }
        }
    }

    /// A family without a form of its own (`library`, `cache`) needs a subcommand.
    @Test func familiesNeedASubcommand() {
        for family in ["library", "cache"] {
            #expect(registryErrors(family).contains { $0.contains("missing subcommand for '\(family)'") }, "\(family)")
        }
    }

    /// What help says an integer option defaults to is what the command reads when it is absent,
    /// and a given value wins.
    @Test func declaredDefaultsAreWhatHelpShowsAndWhatRuns() throws {
        func helpDefault(_ line: String) throws -> Int {
            let resolved = try #require(registryResolved(line), "\(line)")
            let option = try #require(resolved.spec.option(long: "limit"), "\(line)")
            let text = try #require(
                option.help.range(of: #"\(default (\d+)\)"#, options: .regularExpression),
                "\(line)"
            )
            let number = try #require(Int(option.help[text].filter(\.isNumber)))
            #expect(option.defaultValue == .int(number), "\(line)")
            return number
        }
        let cases: [(String, (ResolvedCommand) throws -> Int)] = [
            ("search dune", { try SearchCommand($0).search.limit }),
            ("search title dune", { try SearchCommand.ByTitle($0).search.limit }),
            ("search author herbert", { try SearchCommand.ByAuthor($0).search.limit }),
            ("cache entries", { CacheCommand.Entries($0).limit }),
            ("library search dune", { try LibraryCommand.Search($0).limit }),
            ("similar 9780439023481", { SimilarCommand($0).limit }),
            ("recommend", { RecommendCommand($0).limit }),
            ("semantic desert planet", { SemanticCommand($0).limit }),
        ]
        for (line, read) in cases {
            let resolved = try #require(registryResolved(line))
            #expect(try read(resolved) == helpDefault(line), "\(line)")
            let given = try #require(registryResolved(line + " --limit 3"))
            #expect(try read(given) == 3, "\(line) --limit 3")
        }
        // `--page` pages by the declared default.
        let paged = try #require(registryResolved("search title dune --page 3"))
        #expect(try SearchCommand.ByTitle(paged).search.skip == 2 * helpDefault("search title dune"))
    }

    /// The dispatcher's call policy agrees with what help says of each command's gate and budget;
    /// a gate scoped to some uses (`enrich`'s batch) is the command's to apply.
    @Test func callPolicyFollowsTheTypes() {
        for (path, _) in Self.allTypes {
            guard let spec = CommandRegistry.standard.spec(at: path) else {
                Issue.record("\(path) not in the registry")
                continue
            }
            let policy = CallPolicy(route: CommandTable.route(path: path), label: path.joined(separator: " "))
            #expect(policy.budget == spec.budgetClass, "\(path)")
            #expect(policy.gate == (spec.gate?.scope == nil ? spec.gate : nil), "\(path)")
        }
        let search = CallPolicy(route: CommandTable.route(path: ["search", "title"]), label: "search title")
        #expect(search.budget == .search)
        let enrich = CallPolicy(route: CommandTable.route(path: ["enrich"]), label: "enrich")
        #expect(enrich.gate == nil && enrich.budget == .enrich)
    }
}
