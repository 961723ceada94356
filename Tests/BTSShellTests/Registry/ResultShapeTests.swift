import BTSLanguage
import BTSShell
import BooksTrackContract
import Foundation
import TestSupport
import Testing

/// Every command's declared result (``CommandResults``) against what it really leaves in `$_`,
/// run on the embedded backend: no key the shape does not declare, every key it requires, each
/// of the declared type, recursively into lists and records.
@Suite("ResultShape: declared results")
struct ResultShapeTests {
    /// What is wrong with `value` as a `kind` (each problem names its path).
    static func problems(_ value: JSONValue, _ kind: ResultShape.Kind, at path: String) -> [String] {
        switch (kind, value) {
        case (_, .null), (.any, _), (.string, .string), (.number, .number), (.bool, .bool), (.object, .object):
            return []
        case (.list(let element), .array(let items)):
            return items.enumerated().flatMap { problems($1, element, at: "\(path)[\($0)]") }
        case (.record(let shape), .object(let members)):
            var found = members.keys.sorted().filter { shape[$0] == nil }.map { "\(path).\($0) is not declared" }
            for field in shape.fields {
                guard let member = members[field.name] else {
                    if !field.isOptional { found.append("\(path).\(field.name) is missing") }
                    continue
                }
                found += problems(member, field.kind, at: "\(path).\(field.name)")
            }
            return found
        default:
            return ["\(path) is not a \(kind.name): \(value)"]
        }
    }

    /// The command paths of the registry: a command, or each subcommand of one that has them.
    static var paths: [String] {
        CommandRegistry.standard.commands.flatMap { spec in
            spec.subcommands.isEmpty ? [spec.name] : spec.subcommands.map { "\(spec.name) \($0.name)" }
        }
    }

    /// Every command type states its result (the protocol has no default); what is left to hold:
    /// each path the registry resolves finds a result, and only a command that runs through its
    /// subcommands defers to them.
    @Test func everyCommandPathHasADeclaredResult() {
        for spec in CommandRegistry.standard.commands {
            if case .ofSubcommand? = CommandResults.result(for: [spec.name]) {
                #expect(!spec.subcommands.isEmpty, "\(spec.name) defers to subcommands it does not have")
            }
        }
        for path in Self.paths {
            switch CommandResults.result(for: path.split(separator: " ").map(String.init)) {
            case nil: Issue.record("\(path): no command type")
            case .ofSubcommand?: Issue.record("\(path): a runnable command defers to a subcommand")
            default: break
            }
        }
        #expect(CommandResults.result(for: ["nonesuch"]) == nil)
        #expect(CommandResults.leavesResult(["echo"]) && !CommandResults.leavesResult(["search"]))
        #expect(CommandResults.shape(for: ["api"]) == nil)
        #expect(CommandResults.shape(for: ["library", "nonesuch"]) == nil)
    }

    /// The commands the live run below does not reach, and why.
    static let notRun: [String: String] = ["scan": "needs photos with barcodes"]

    @Test func everyCommandsValueHasItsDeclaredShape() async throws {
        try await withShell { harness in
            try harness.write("isbns.txt", "9780439023481\n9780439023498\n")
            try harness.write(
                "books.csv",
                "Title,Author,ISBN13\nThe Hunger Games,Suzanne Collins,=\"9780439023481\"\nNot A Real Book,Nobody,=\"9780000000002\"\n"
            )
            let runs: [(line: String, path: String)] = [
                ("search dune --limit 3", "search"),
                ("search title dune --limit 3", "search title"),
                ("more", "more"),
                ("search isbn 9780439023481", "search isbn"),
                ("search author \"suzanne collins\" --limit 2", "search author"),
                ("search --title hunger --author collins", "search"),
                ("similar 9780439023481 --limit 3", "similar"),
                ("recommend --limit 3", "recommend"),
                ("enrich 9780439023481", "enrich"),
                ("enrich --from isbns.txt", "enrich"),
                ("watch last", "watch"),
                ("enrich --from isbns.txt --watch", "enrich"),
                ("import books.csv", "import"),
                ("status last", "status"),
                ("import books.csv --watch", "import"),
                ("results last", "results"),
                ("jobs", "jobs"),
                ("cancel last", "cancel"),
                ("limits", "limits"),
                ("caps", "caps"),
                ("cache show", "cache show"),
                ("cache entries", "cache entries"),
                ("cache clear", "cache clear"),
                ("search isbn 9780439023481", "search isbn"),
                ("save", "save"),
                ("library list", "library list"),
                ("library search hunger", "library search"),
                ("library show 9780439023481", "library show"),
                ("library set 9780439023481 --shelf read --rating 5", "library set"),
                ("library shelves", "library shelves"),
                ("library stats", "library stats"),
                ("library export out.csv", "library export"),
                ("library remove 9780439023481", "library remove"),
                ("library import out.csv", "library import"),
                ("similar --library --limit 3", "similar"),
                ("recommend --library --limit 3", "recommend"),
                ("semantic a boy wizard at a school of magic --limit 2", "semantic"),
                ("connect --force http://127.0.0.1:\(closedPort())", "connect"),
            ]
            var ran = Set<String>()
            for (line, path) in runs {
                let before = await harness.lastResult()
                let status = await harness.run(line)
                #expect(status == 0, "\(line): \(harness.err)")
                let value = await harness.lastResult()
                let words = path.split(separator: " ").map(String.init)
                if CommandResults.leavesResult(words) {
                    #expect(value == before, "\(line) leaves $_ as it was")
                    continue
                }
                guard let shape = CommandResults.shape(for: words) else {
                    Issue.record("\(path) declares no result")
                    continue
                }
                #expect(
                    Self.problems(value, .record(shape), at: path).isEmpty,
                    "\(line): \(Self.problems(value, .record(shape), at: path))"
                )
                ran.insert(path)
            }
            let declared = CommandResults.declared.filter { $0.result.shape != nil }.map {
                $0.path.joined(separator: " ")
            }
            let unrun = Set(declared).subtracting(ran).subtracting(Self.notRun.keys)
            #expect(unrun.isEmpty, "every declared command ran: \(unrun.sorted())")

            // A failure's value, and `$_http`'s fields.
            #expect(await harness.run("library show 4321") == 1)
            let failure = await harness.lastResult()
            #expect(Self.problems(failure, .record(.failure), at: "failure").isEmpty, "\(failure)")
            let exists = ResultShape.exchange.names.map { "expect exists ${_http.\($0)}" }
            #expect(
                await harness.run((["search isbn 9780439023481"] + exists).joined(separator: "\n")) == 0,
                "\(harness.err)"
            )
        }
    }

    @Test func aShapeIsCheckedRecursively() {
        let shape = ResultShape.bookList
        let value: JSONValue = [
            "query": "dune", "kind": "title", "totalCount": 1, "count": 1,
            "results": [["isbn": "9780441172719", "title": "Dune", "colour": "red"]],
        ]
        #expect(Self.problems(value, .record(shape), at: "$_") == ["$_.results[0].colour is not declared"])
        let missing: JSONValue = ["query": "dune", "kind": "title", "count": 1, "results": []]
        #expect(Self.problems(missing, .record(shape), at: "$_") == ["$_.totalCount is missing"])
        #expect(shape.kind(at: [.key("results"), .index(0), .key("title")]) == .string)
        #expect(shape.kind(at: [.key("results"), .all, .key("isbn")]) == .list(.string))
        #expect(shape.kind(at: [.key("results"), .key("0"), .key("year")]) == .number)
        #expect(shape.kind(at: [.key("nothing")]) == nil)
    }
}
