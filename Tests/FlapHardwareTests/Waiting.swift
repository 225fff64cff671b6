/// Waits on `clock` until `condition` holds, or fails after `limit` with what was awaited.
func waitUntil<C: Clock>(_ clock: C, upTo limit: Duration, _ what: String, _ condition: () async -> Bool) async throws where C.Duration == Duration {
    let deadline = clock.now.advanced(by: limit)
    while !(await condition()) {
        guard clock.now < deadline else { throw RigError("timed out waiting for \(what)") }
        try await clock.sleep(for: .milliseconds(20), tolerance: nil)
    }
}
