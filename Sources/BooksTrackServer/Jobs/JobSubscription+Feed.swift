extension JobEngine.Subscription {
    /// Feeds a watcher's input stream from two child tasks of `group` (both end with the group): the
    /// job's live events, then `ended` once the engine ends them (terminal event, shutdown); and
    /// `ticked` every `tick`, for heartbeats and timeouts. The v2 SSE stream, the v3 SSE stream and
    /// the WebSocket share it.
    func feed<Input: Sendable>(
        _ input: AsyncStream<Input>.Continuation,
        into group: inout ThrowingTaskGroup<Void, any Error>,
        tick: Duration,
        event: @escaping @Sendable (JobEvent) -> Input,
        ended: Input,
        ticked: Input
    ) {
        let live = self.live
        group.addTask {
            for await item in live { input.yield(event(item)) }
            input.yield(ended)
        }
        group.addTask {
            while !Task.isCancelled {
                try await Task.sleep(for: tick)
                input.yield(ticked)
            }
        }
    }
}
