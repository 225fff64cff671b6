/// Waits until `condition` holds, asking again every `interval`, for at most `timeout`; returns
/// whether it held. For state only asking can see (another process's HTTP answers, a broker's
/// retained messages): an event that can be awaited (a log line, a stream) is awaited instead.
public func eventually(
    within timeout: Duration = .seconds(20), every interval: Duration = .milliseconds(20),
    _ condition: () async throws -> Bool
) async throws -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if try await condition() { return true }
        if clock.now >= deadline { return false }
        try await Task.sleep(for: interval)
    }
}
