import BTSLanguageServer
import Foundation
import TestSupport
import Testing

/// The syntax files under editors/ are what the registry generates (BTS_UPDATE_EDITORS=1 rewrites
/// them), Vim colours a script with them, and the TextMate grammar is JSON whose patterns compile.
@Suite("editor files")
struct EditorFilesTests {
    static let editors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("editors")

    @Test func theCommittedFilesAreWhatTheRegistryGenerates() throws {
        let update = ProcessInfo.processInfo.environment["BTS_UPDATE_EDITORS"] == "1"
        for (path, text) in EditorVocabulary.files() {
            let url = Self.editors.appendingPathComponent(path)
            if update {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
                try Data(text.utf8).write(to: url)
            }
            let committed = String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
            #expect(
                committed == text,
                "editors/\(path) is stale: run BTS_UPDATE_EDITORS=1 swift test --filter EditorFilesTests"
            )
        }
    }

    @Test func aNewCommandNameComesFromTheRegistry() {
        let vocabulary = EditorVocabulary.standard
        #expect(vocabulary.commands.contains("search") && vocabulary.commands.contains("library"))
        #expect(vocabulary.subcommands.contains("title") && vocabulary.subcommands.contains("list"))
        #expect(vocabulary.keywords.contains("while"))
        #expect(vocabulary.settings.contains("looplimit"))
        var more = vocabulary
        more.commands.append("zzfrobnicate")
        #expect(EditorSyntax.vimSyntax(more).contains("zzfrobnicate"))
        #expect(EditorSyntax.textMateGrammar(more).contains("zzfrobnicate"))
    }

    @Test func theTextMateGrammarIsJSONAndItsPatternsCompile() throws {
        let data = try Data(contentsOf: Self.editors.appendingPathComponent("vscode/syntaxes/bts.tmLanguage.json"))
        let grammar = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(grammar["scopeName"] as? String == "source.bts")
        var patterns: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    if ["match", "begin", "end", "while"].contains(key), let pattern = inner as? String {
                        patterns.append(pattern)
                    }
                    collect(inner)
                }
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(grammar)
        #expect(patterns.count >= 10)
        for pattern in patterns {
            // ICU's syntax, close to Oniguruma's for what the grammar uses.
            #expect(throws: Never.self, "\(pattern)") { _ = try NSRegularExpression(pattern: pattern) }
        }
        for name in ["package.json", "language-configuration.json"] {
            let json = try Data(contentsOf: Self.editors.appendingPathComponent("vscode/\(name)"))
            #expect(throws: Never.self, "\(name)") { _ = try JSONSerialization.jsonObject(with: json) }
        }
    }

    /// The filetype, Vim's last error, then the syntax group Vim gives each (line, column) of `text`
    /// (1-based), through the files in editors/vim.
    static func vimGroups(_ text: String, at positions: [(Int, Int)]) async throws -> [String] {
        let directory = try makeTempDirectory("vim")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("sample.bts")
        try Data(text.utf8).write(to: file)
        let output = directory.appendingPathComponent("groups.txt")
        let probes = positions.map { "synIDattr(synID(\($0.0),\($0.1),1),'name')" }.joined(separator: ", ")
        let arguments = [
            "-Nu", "NONE", "-i", "NONE", "-es", "--cmd", "set rtp^=" + editors.appendingPathComponent("vim").path,
            "-c", "syntax on", "-c", "filetype on", "-c", "edit " + file.path,
            "-c", "call writefile([&filetype, v:errmsg, \(probes)], '\(output.path)')", "-c", "qa!",
        ]
        let outcome = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/vim"),
            arguments,
            environment: ["HOME": directory.path, "TERM": "dumb"]
        )
        #expect(outcome.status == 0, "\(outcome)")
        var lines = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }  // writefile ends the last line too
        return lines
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/vim")))
    func vimColoursACommandAStringACommentAndAKeyword() async throws {
        let text = """
            # a comment
            search title "the hunger games" --limit 3
            for book in ${_.results}
              echo 'single' a#b
            end
            """
        let groups = try await Self.vimGroups(
            text,
            at: [(1, 3), (2, 1), (2, 8), (2, 15), (2, 34), (3, 1), (3, 13), (4, 8), (4, 17), (5, 1)]
        )
        #expect(groups.first == "bts", "the filetype of a .bts file: \(groups)")
        #expect(groups.dropFirst().first == "", "no Vim error: \(groups)")
        let probed = Array(groups.dropFirst(2))
        #expect(probed.count == 10, "\(groups)")
        guard probed.count == 10 else { return }
        #expect(probed[0] == "btsComment", "a comment: \(probed)")
        #expect(probed[1] == "btsCommand", "a command: \(probed)")
        #expect(probed[2] == "btsSubcommand", "a subcommand: \(probed)")
        #expect(probed[3] == "btsDString", "a double-quoted string: \(probed)")
        #expect(probed[4] == "btsOption", "an option: \(probed)")
        #expect(probed[5] == "btsRepeat", "a keyword: \(probed)")
        #expect(probed[6] == "btsVariable", "a variable: \(probed)")
        #expect(probed[7] == "btsString", "a single-quoted string: \(probed)")
        #expect(probed[8] == "", "a # inside a word is no comment: \(probed)")
        #expect(probed[9] == "btsKeyword", "end: \(probed)")
    }
}
