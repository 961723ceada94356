import Foundation
import TestSupport

/// Headless Neovim (0.7, Debian's package) driving `bts lsp` from a Lua script, in a directory of
/// its own: Neovim reads no configuration of the user's and leaves nothing in their directories (its
/// LSP log goes to the private cache directory, and is part of ``report``).
struct NeovimSession {
    static let neovim = URL(fileURLWithPath: "/usr/bin/nvim")

    /// Whether Neovim and the bts binary are there (each suite's `.enabled(if:)`).
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: neovim.path) && BTSExecutable.url != nil
    }

    /// A Lua script sourced with `-S`: `body` defines `main()`, which may use `bts` (the binary),
    /// `dir` (the session's directory), `file` (the script opened), `timeout` (the bound of each
    /// wait, in ms), `emit(line)` (appends a line to the output file) and `attach()` (opens the
    /// script with `bts lsp` attached: the client's id, or nil); `main` runs protected, an
    /// error is written as "error: ...", and Neovim quits in every case.
    static func lua(_ body: String) -> String {
        """
        local bts = os.getenv('BTS_NVIM_BTS')
        local dir = os.getenv('BTS_NVIM_DIR')
        local file = os.getenv('BTS_NVIM_FILE')
        local out = os.getenv('BTS_NVIM_OUT')
        local timeout = tonumber(os.getenv('BTS_NVIM_TIMEOUT_MS'))

        local written = {}
        local function emit(line)
          table.insert(written, line)
          vim.fn.writefile(written, out)
        end

        -- Opens the script and attaches `bts lsp` to its buffer: the client's id, or nil (written
        -- as 'no client').
        local function attach()
          vim.cmd('edit ' .. vim.fn.fnameescape(file))
          local client_id = vim.lsp.start_client({ name = 'bts', cmd = { bts, 'lsp' }, root_dir = dir })
          if not client_id then
            emit('no client')
            return nil
          end
          vim.lsp.buf_attach_client(0, client_id)
          return client_id
        end

        \(body)

        local ok, err = pcall(main)
        if not ok then emit('error: ' .. tostring(err)) end
        vim.cmd('qa!')
        """
    }

    /// The script Neovim opened (it may have saved it).
    let script: URL
    let outcome: ProcessOutcome
    /// What the Lua script emitted.
    let written: String
    /// The output, Neovim's outcome and the LSP log: what a failing expectation shows.
    let report: String

    /// The emitted lines.
    var lines: [String] { written.split(separator: "\n").map(String.init) }

    /// Writes `text` to `scriptName` in `directory` and runs `lua` (made with ``lua(_:)``) there for
    /// `binary`, with `environment` added to the variables every script reads.
    static func run(
        _ binary: URL,
        in directory: URL,
        scriptName: String = "books.bts",
        text: String,
        lua: String,
        environment extra: [String: String] = [:]
    ) async throws -> NeovimSession {
        for sub in ["home", "config", "data", "state", "cache"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(sub),
                withIntermediateDirectories: true
            )
        }
        let script = directory.appendingPathComponent(scriptName)
        let luaFile = directory.appendingPathComponent("session.lua")
        let output = directory.appendingPathComponent("session.out")
        try Data(text.utf8).write(to: script)
        try Data(lua.utf8).write(to: luaFile)

        var environment = ProcessInfo.processInfo.environment
        for name in [
            "VIMINIT", "EXINIT", "MYVIMRC", "VIM", "VIMRUNTIME", "NVIM", "NVIM_LISTEN_ADDRESS",
            "NVIM_LOG_FILE", "NVIM_APPNAME", "BTS_API_URL",
        ] {
            environment.removeValue(forKey: name)
        }
        environment["HOME"] = directory.appendingPathComponent("home").path
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["XDG_DATA_HOME"] = directory.appendingPathComponent("data").path
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path
        environment["BTS_NVIM_BTS"] = binary.path
        environment["BTS_NVIM_DIR"] = directory.path
        environment["BTS_NVIM_FILE"] = script.path
        environment["BTS_NVIM_OUT"] = output.path
        // Each wait only bounds a hang; the whole run's bound covers them all.
        environment["BTS_NVIM_TIMEOUT_MS"] = String(TestTime.seconds(60) * 1000)
        environment.merge(extra) { _, new in new }

        let outcome = try await ChildProcess.run(
            neovim,
            ["--headless", "--clean", "-S", luaFile.path],
            environment: environment,
            directory: directory,
            timeout: .seconds(180)
        )
        let written = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        let log =
            (try? String(contentsOf: directory.appendingPathComponent("cache/nvim/lsp.log"), encoding: .utf8)) ?? ""
        return NeovimSession(
            script: script,
            outcome: outcome,
            written: written,
            report: "--- output\n\(written)--- nvim \(outcome)\n--- lsp.log\n\(log)"
        )
    }
}
