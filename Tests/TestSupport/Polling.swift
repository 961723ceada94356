/// Waits (in real time, by polling every `interval`) until `condition` holds; false if it never did
/// within `limit` (scaled by `TestTime`), which only bounds a hang: nothing asserts a duration.
package func eventually(
    within limit: Duration = .seconds(120),
    every interval: Duration = .milliseconds(50),
    _ condition: () async -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + limit.scaled
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try await Task.sleep(for: interval)
    }
    return await condition()
}
