import Testing

@testable import BTSShell

/// `library`'s subcommands are dispatched by their specs' names: every example of every subcommand
/// the parent lists becomes that subcommand's action, and only `library list` lists.
@Suite struct LibrarySubcommandTests {
    @Test func everyListedSubcommandReachesItsOwnAction() throws {
        let subcommands = LibraryCommand.configuration.subcommands
        #expect(subcommands.count > 1)
        for sub in subcommands {
            #expect(!sub.examples.isEmpty, "\(sub.name) has no example")
            for example in sub.examples {
                let resolved = try #require(registryResolved(example), "\(example)")
                let command = try LibraryCommand(resolved)
                var lists = false
                if case .list = command.action { lists = true }
                #expect(lists == (sub.name == LibraryCommand.listSpec.name), "\(example) → \(command.action)")
            }
        }
    }
}
