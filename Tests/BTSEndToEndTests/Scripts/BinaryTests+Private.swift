import Foundation

extension BinaryTests {
    /// Runs `executable ARGUMENTS` (default: bts itself) in a directory of its own holding `files`,
    /// with a private XDG environment, no server, and `$BTS` naming the binary (for `bash -c`).
    static func runPrivately(
        _ arguments: [String],
        executable: URL? = nil,
        stdin: String = "",
        files: [String: String] = [:]
    ) async throws -> ProcessOutcome {
        guard let binary else { throw SkipError() }
        let home = try makeTempDirectory("bts-private")
        defer { try? FileManager.default.removeItem(at: home) }
        for (name, text) in files { try Data(text.utf8).write(to: home.appendingPathComponent(name)) }
        var environment = ProcessInfo.processInfo.environment
        environment["BTS"] = binary.path
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["XDG_CACHE_HOME"] = try SharedCatalog.seed(cacheHome: home.appendingPathComponent("cache")).path
        environment.removeValue(forKey: "BTS_API_URL")
        environment.removeValue(forKey: "BTS_LIBRARY")
        return try await ChildProcess.run(
            executable ?? binary,
            arguments,
            environment: environment,
            directory: home,
            stdin: stdin,
            timeout: .seconds(120)
        )
    }

    /// Runs `bash -c command` that way.
    static func bash(_ command: String, files: [String: String] = [:]) async throws -> ProcessOutcome {
        try await runPrivately(["-c", command], executable: URL(fileURLWithPath: "/bin/bash"), files: files)
    }
}
