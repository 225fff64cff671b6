import FlapHardware

/// An audio output simulated as a playback queue: written frames are queued and played at the
/// sample rate on the clock, after a fixed hardware latency, as a sound card does. It records
/// when every frame is heard, and reports its delay (queued frames + latency) as ALSA does.
public actor SimulatedAudioOutput<C: Clock>: AudioOutput where C.Duration == Duration {
    /// Its name.
    public nonisolated let name = "simulated"
    /// Frames a second.
    public nonisolated let sampleRate: Int
    /// Mono.
    public nonisolated let channels = 1
    private let clock: C
    private let latency: Duration
    /// When the last queued frame finishes playing (before latency).
    private var queueEnd: C.Instant?
    /// Every frame written, in order.
    public private(set) var frames: [Int16] = []
    /// When each write's first frame is heard, with its index.
    public private(set) var writes: [(heard: C.Instant, firstFrame: Int, count: Int)] = []
    /// Whether it was closed.
    public private(set) var closed = false
    /// Writes that found the queue empty after it had started: an underrun.
    public private(set) var underruns = 0

    /// An output playing on `clock` at `sampleRate`, heard `latency` after it plays.
    public init(clock: C, sampleRate: Int = 48_000, latency: Duration = .zero) {
        self.clock = clock
        self.sampleRate = sampleRate
        self.latency = latency
    }

    /// Queues `frames` after what is queued, noting when they will be heard.
    public func write(_ frames: [Int16]) async throws {
        guard !closed else { throw HardwareError(device: name, problem: "closed") }
        let now = clock.now
        var start = queueEnd ?? now
        if start < now {
            if queueEnd != nil { underruns += 1 }
            start = now
        }
        writes.append((start.advanced(by: latency), self.frames.count, frames.count))
        self.frames += frames
        queueEnd = start.advanced(by: duration(frames.count))
    }

    /// The frames still queued, and the latency.
    public func delay() async throws -> Duration {
        let now = clock.now
        guard let queueEnd, queueEnd > now else { return latency }
        return now.duration(to: queueEnd) + latency
    }

    /// Closes it.
    public func close() async { closed = true }

    /// When frame `index` is heard.
    public func heard(frame index: Int) -> C.Instant? {
        guard let write = writes.last(where: { $0.firstFrame <= index }), index < write.firstFrame + write.count else { return nil }
        return write.heard.advanced(by: duration(index - write.firstFrame))
    }

    private func duration(_ frames: Int) -> Duration { .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(sampleRate)) }
}
