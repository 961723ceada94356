import BooksTrackClient
import NIOCore
import NIOPosix
import Testing

/// `Task.preferring` keeps a given executor preference and makes a plain task without one.
@Suite struct TaskPreferringTests {
    @Test func aTaskPreferringTheClientLoopRunsOnIt() async {
        let loop = ClientEventLoop.executor.loop
        let onLoop = await Task.preferring(ClientEventLoop.executor) { loop.inEventLoop }.value
        #expect(onLoop)
    }

    @Test func aTaskPreferringNothingRunsOffTheLoop() async {
        let loop = ClientEventLoop.executor.loop
        let onLoop = await Task.preferring(nil) { loop.inEventLoop }.value
        #expect(!onLoop)
    }
}
