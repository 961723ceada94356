import BTSLanguage
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

@testable import BTSShell

/// Every command's capability gate is stated once, on its type; help, completion, the README's
/// reference and the handler itself must all agree with it.
@Suite struct GateAgreementTests {
    /// A line that reaches each gated command's gate check (valid arguments; `setup` runs first,
    /// with the feature still on).
    static let gatedInvocations: [String: (setup: String?, line: String)] = [
        "similar": (nil, "similar 9780441172719"),
        "semantic": (nil, "semantic desert planet politics"),
        "recommend": (nil, "recommend"),
        "import": (nil, "import books.csv"),
        "enrich": (nil, "enrich 9780441172719 9780553293357"),
        "cancel": ("import books.csv", "cancel last"),
        "scan": (nil, "scan back.webp"),
    ]

    static let csv = "Title,Author,ISBN\nDune,Frank Herbert,9780441172719\n"

    @Test func theRegistryCarriesEachTypesGate() {
        #expect(CommandTable.all.count == CommandRegistry.standard.commands.count)
        for type in CommandTable.all {
            let spec = CommandRegistry.standard.command(named: type.name)
            #expect(spec?.gate == type.gate, "\(type.name)")
            for sub in spec?.subcommands ?? [] { #expect(sub.gate == type.gate, "\(type.name) \(sub.name)") }
        }
        #expect(
            Set(CommandTable.gates.map(\.name)) == Set(Self.gatedInvocations.keys),
            "every gated command needs an invocation in this test"
        )
    }

    @Test func helpShowsEveryGate() {
        for type in CommandTable.all {
            let detail = HelpRenderer().help(for: [type.name]) ?? ""
            // With the gated feature off, the overview marks the command (or its gated part).
            let off = HelpRenderer { feature in feature != type.gate?.feature.rawValue }
            // An overview entry may wrap: its continuation lines are indented past the synopsis.
            let lines = off.overview().split(separator: "\n").map(String.init)
            let start = lines.firstIndex { $0.hasPrefix("  \(type.name) ") || $0 == "  \(type.name)" }
            var line = start.map { lines[$0] } ?? ""
            for next in lines[((start ?? lines.count - 1) + 1)...] {
                guard next.hasPrefix("      ") else { break }
                line += " " + next.trimmingCharacters(in: .whitespaces)
            }
            if let gate = type.gate {
                #expect(detail.contains("Needs the server feature '\(gate.feature.rawValue)'"), "\(type.name)")
                #expect(
                    line.contains("unavailable on this server: \(gate.feature.rawValue) is disabled"),
                    "\(type.name)"
                )
                if let scope = gate.scope { #expect(line.contains("(\(scope) unavailable"), "\(type.name)") }
            } else {
                #expect(!detail.contains("Needs the server feature"), "\(type.name)")
                #expect(!line.contains("unavailable"), "\(type.name)")
            }
        }
    }

    @Test func theReadmeReferenceShowsEveryGate() {
        let markdown = CommandReference.markdown()
        for type in CommandTable.all {
            let row = markdown.split(separator: "\n").first { $0.hasPrefix("| `\(type.name)") } ?? ""
            let section =
                markdown.components(separatedBy: "### `\(type.name)`").dropFirst().first?
                .components(separatedBy: "### ").first ?? ""
            if let gate = type.gate {
                #expect(row.contains("`\(gate.feature.rawValue)`"), "\(type.name)")
                #expect(section.contains("Gated by the server feature `\(gate.feature.rawValue)`"), "\(type.name)")
            } else {
                #expect(CapabilityFeature.documented.allSatisfy { !row.contains($0.rawValue) }, "\(type.name)")
                #expect(!section.contains("Gated by"), "\(type.name)")
            }
        }
    }

    /// With each gated feature switched off on the server in turn: completion marks exactly the
    /// commands gated as a whole, and the handler refuses (exit 1, no request) — also for a gate
    /// that covers only part of a command.
    @Test func completionAndHandlersFollowEveryGate() async throws {
        for (name, gate) in CommandTable.gates {
            guard let feature = ServerFeature(name: gate.feature.rawValue),
                let invocation = Self.gatedInvocations[name]
            else {
                Issue.record("\(name): no server feature or invocation for \(gate.feature.rawValue)")
                continue
            }
            let switchedOff = CommandTable.gates.filter { $0.gate.feature == gate.feature }.map(\.name)
            var server = ServerConfiguration()
            server.disabledFeatures = [feature]
            try await withShell(server: server) { harness in
                try harness.write("books.csv", Self.csv)
                // A WebP header (ASCII but for the size): the photo check passes, the gate refuses.
                try harness.write("back.webp", "RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ")
                if let setup = invocation.setup {
                    #expect(await harness.run(setup) == 0, "\(name) setup: \(harness.err)")
                }
                let status = await harness.run(invocation.line)
                #expect(status == ExitStatus.failure.rawValue, "\(name): \(harness.err)")
                #expect(harness.err.contains("'\(name)' is not available on this server"), "\(name): \(harness.err)")
                let store = CompletionContextStore()
                await harness.shell.updateCompletionContext(store)
                let marked = Set(store.completionContext.unavailableCommands.keys)
                let expected = Set(
                    CommandTable.gates.filter { switchedOff.contains($0.name) && $0.gate.scope == nil }.map(\.name)
                )
                #expect(marked == expected, "\(name)")
            }
        }
    }
}
