import Foundation
import Testing

/// Scripts built to crash or flood bts, run by the real binary: blocks nested thousands deep
/// (SIGSEGV while checking, from `-c`, a file and stdin), an alias that calls itself three times
/// and a script that sources itself three times under `--continue-on-error` (3^16 errors).
@Suite("bts binary: hostile scripts")
struct HostileScriptTests {
    static let nested = String(repeating: "if 1 == 1\n", count: 3_600) + "echo deep\n" + String(repeating: "end\n", count: 3_600)

    /// Runs bts in a directory of its own (a private XDG environment, no server).
    static func run(_ arguments: [String], stdin: String = "", files: [String: String] = [:]) async throws -> ProcessOutcome {
        guard let binary = BTSExecutable.url else { throw BinaryTests.SkipError() }
        let home = try makeTempDirectory("bts-hostile")
        defer { try? FileManager.default.removeItem(at: home) }
        for (name, text) in files { try Data(text.utf8).write(to: home.appendingPathComponent(name)) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment.removeValue(forKey: "BTS_API_URL")
        return try await ChildProcess.run(binary, arguments, environment: environment, directory: home, stdin: stdin,
                                          timeout: .seconds(120))
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func deeplyNestedBlocksAreOneDiagnosticNotACrash() async throws {
        let outcomes = [
            ("-c", try await Self.run(["-c", Self.nested])),
            ("file", try await Self.run(["deep.bts"], files: ["deep.bts": Self.nested])),
            ("stdin", try await Self.run([], stdin: Self.nested)),
        ]
        for (how, outcome) in outcomes {
            #expect(outcome.status == 2, "\(how): \(outcome.status) \(outcome.stderr.prefix(400))")
            #expect(outcome.stderr.contains("blocks are nested more than 100 deep"), "\(how): \(outcome.stderr.prefix(400))")
            #expect(!outcome.stdout.contains("deep"), "\(how)")
        }
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func anAliasCallingItselfThriceStopsAtTheFirstError() async throws {
        let outcome = try await Self.run(["--continue-on-error", "-c", "alias a 'a; a; a'\na\necho after"])
        #expect(outcome.stderr.components(separatedBy: "nested too deeply").count - 1 == 1, "\(outcome.stderr.prefix(600))")
        #expect(outcome.stdout.contains("after"), "--continue-on-error goes on with the next top-level command")
        #expect(outcome.status == 2, "\(outcome)")
    }

    @Test(.enabled(if: BinaryTests.hasBinary, "bts binary not built: run swift build first"))
    func aScriptSourcingItselfThriceStopsAtTheFirstError() async throws {
        let script = "source self.bts\nsource self.bts\nsource self.bts\n"
        let outcome = try await Self.run(["--continue-on-error", "self.bts"], files: ["self.bts": script])
        // Once per command of the top level (which goes on past errors, as asked), not 3^16 times.
        #expect(outcome.stderr.components(separatedBy: "nested too deeply").count - 1 == 3, "\(outcome.stderr.prefix(600))")
        #expect(outcome.status == 2, "\(outcome)")
    }
}
