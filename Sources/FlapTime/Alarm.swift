/// One wake-up at a time on a clock, for a loop that looks again when it wakes: `wakeups` yields
/// when the armed deadline comes or ``poke()`` asks. A cancelled sleep keeps its memory until
/// its deadline, so an alarm already armed no later than asked is kept (waking early only
/// means looking again).
public actor Alarm<C: Clock> where C.Duration == Duration {
    private let clock: C
    private var sleeper: Task<Void, Never>?
    private var armed: C.Instant?
    /// Which sleeper is the current one: one replaced may still report that it rang.
    private var generation = 0
    private let (stream, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))

    /// An alarm keeping time by `clock`, not yet armed.
    public init(clock: C) { self.clock = clock }

    /// Yields each time the loop should look again. One reader.
    public nonisolated var wakeups: AsyncStream<Void> { stream }

    /// Wakes the loop now, whatever is armed.
    public nonisolated func poke() { wake.yield() }

    /// Wakes the loop at `deadline`, unless it is armed for no later already.
    public func arm(_ deadline: C.Instant) {
        if sleeper != nil, let armed, armed <= deadline { return }
        sleeper?.cancel()
        armed = deadline
        generation += 1
        sleeper = Task { [clock, wake, generation] in
            guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
            self.rang(generation)
            wake.yield()
        }
    }

    /// Disarms it and ends ``wakeups``, once its sleeper has stopped.
    public func stop() async {
        let last = sleeper
        last?.cancel()
        sleeper = nil
        wake.finish()
        await last?.value
    }

    private func rang(_ ringing: Int) {
        guard ringing == generation else { return }
        sleeper = nil
        armed = nil
    }

    /// The deadline a sleeper waits for, if one does.
    var armedDeadline: C.Instant? { armed }
}
