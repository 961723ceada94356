import BTSShell
import BTSTerminal
import Foundation
import Testing

@Suite("Interactive terminal setup")
struct InteractiveTerminalTests {
    @Test("the history filter drops sensitive lines (registry and built-in rules)")
    func historyFilter() {
        let filter = InteractiveTerminal.historyFilter()
        #expect(filter.allows("search title dune --limit 5"))
        #expect(filter.allows("echo café Günter"))
        #expect(!filter.allows("connect https://u:secret@host"))
        #expect(!filter.allows("connect https://host/?token=abc"))
        #expect(filter.allows("connect staging"))  // no secret in it
        #expect(!filter.allows("set api_token abc123"))
        #expect(!filter.allows("echo hi; set my_password x"))
        #expect(!filter.allows(" search hidden"))
    }

    @Test("history lives in $XDG_STATE_HOME/bts/history, loaded, secrets never written")
    func historyStore() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bts-hist-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["XDG_STATE_HOME": root.path, "HOME": "/nonexistent"]
        let store = try #require(InteractiveTerminal.makeHistory(environment: environment))
        #expect(store.fileURL.path == root.path + "/bts/history")
        #expect(store.record("echo one"))
        #expect(!store.record("connect https://u:secret@127.0.0.1:9"))
        store.flush()
        let reloaded = try #require(InteractiveTerminal.makeHistory(environment: environment))
        #expect(reloaded.entries == ["echo one"])
        let text = try String(contentsOf: store.fileURL, encoding: .utf8)
        #expect(!text.contains("secret"))
    }
}
