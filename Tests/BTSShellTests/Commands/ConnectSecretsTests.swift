import BTSShell
import BooksTrackContract
import BooksTrackServer
import Foundation
import Testing

/// Credentials in a `connect` URL never reach the screen or `$_`.
@Suite struct ConnectSecretsTests {
    @Test func connectMasksURLUserinfo() async throws {
        try await LiveServer.running { server in
            try await withShell { harness in
                let status = await harness.run("connect http://reader:hunter2secret@127.0.0.1:\(server.port)\ncaps")
                #expect(status == 0, "\(harness.err)")
                #expect(!harness.out.contains("hunter2secret"))
                #expect(!harness.err.contains("hunter2secret"))
                #expect(!"\(await harness.lastResult())".contains("hunter2secret"))
                #expect(harness.out.contains("127.0.0.1:\(server.port)"))
            }
        }
    }
}
