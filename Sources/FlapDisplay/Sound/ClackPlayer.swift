import FlapCore
import FlapHardware
import FlapTime
import FoundationEssentials
import Logging

/// Plays the clacks of each plan so every clack is heard when its flap lands.
///
/// It keeps its own account of the stream: the instant stream frame 0 is heard, and how many
/// frames have been written. Track frame k of a plan that starts at instant T is placed at the
/// stream position heard at T + k/rate. Writes run at most `lead` ahead of hearing, paced by the
/// clock; when the device reports a delay (a real sound card does; ALSA's null and file plugins
/// report none), the account is corrected from it, which compensates the output latency,
/// underruns and clock drift. A re-plan splices the new track in at its first frame; clacks that
/// began ring on. The device is opened when there is something to play and released after half
/// a second of silence. Sound never holds up motion: `play` returns at once, and a device that
/// fails leaves the board moving silently, with the reason in ``state``.
public actor ClackPlayer<C: Clock> where C.Duration == Duration {
    private let clock: C
    private let openOutput: @Sendable () async throws -> any AudioOutput
    private let sample: ClackSample
    private var settings: SoundSettings
    private let now: @Sendable () -> Date
    /// The local time zone quiet hours are read in, read once (at start, like the rest of the settings).
    private let zone: ZoneRules
    private let rate: Int
    private let periodFrames: Int
    /// How far ahead of hearing frames are written; under the shortest flap period (50 ms), so
    /// a re-plan never leaves a stale clack in frames already written.
    private let lead: Duration
    private let logger: Logger

    /// What the sound is doing now.
    public private(set) var state: SoundState = .idle
    /// Streams played to their end and released.
    public private(set) var streamsFinished = 0
    private var track: ClackTrack?
    private var origin: C.Instant?
    private var writer: Task<Void, Never>?
    private var retryAfter: C.Instant?
    /// The track frame the stream has written up to: a sound added before it starts there.
    private var trackWritten = 0

    /// Plays `sample` as `settings` say through the output `openOutput` opens, keeping time by `clock`.
    public init(
        clock: C, sample: ClackSample, settings: SoundSettings, now: @escaping @Sendable () -> Date, zone: ZoneRules = .current(),
        rate: Int = 48_000, periodFrames: Int = 480, lead: Duration = .milliseconds(20), logger: Logger,
        openOutput: @escaping @Sendable () async throws -> any AudioOutput
    ) {
        self.clock = clock
        self.sample = sample.rate == rate ? sample : sample.resampled(to: rate)
        self.settings = settings
        self.now = now
        self.zone = zone
        self.rate = rate
        self.periodFrames = periodFrames
        self.lead = lead
        self.logger = logger
        self.openOutput = openOutput
        if !settings.enabled { state = .disabled } else if settings.mute || settings.volume == 0 { state = .muted }
    }

    /// How loud the clacks of a plan starting now are, 0…1; nil when they are not heard (sound
    /// off, muted, in quiet hours). For browsers that play the board's clacks themselves.
    public var loudness: Double? {
        guard settings.enabled, !settings.mute, settings.volume > 0 else { return nil }
        if let quiet = settings.quietHours, quiet.contains(now(), zone: zone) { return nil }
        return Double(settings.volume) / 100
    }

    /// Plays `plan`'s clacks, its time zero being `start`. Returns at once.
    public func play(_ plan: FlipPlan, at start: C.Instant) {
        guard settings.enabled else { state = .disabled; return }
        guard !settings.mute, settings.volume > 0 else { state = .muted; return }
        if let quiet = settings.quietHours, quiet.contains(now(), zone: zone) {
            if writer == nil { state = .quietHours(quiet) }
            return
        }
        let next = ClackTrack(events: plan.clackEvents, sample: sample, rate: rate, volume: Float(settings.volume) / 100)
        if writer != nil, let track, let origin {
            self.track = track.splicing(next, at: ClackTrack.frame(of: origin.duration(to: start), rate: rate))
            return
        }
        if let retryAfter, clock.now < retryAfter { return }
        track = next
        origin = start
        writer = Task { await self.stream() }
    }

    /// Mixes `sound` (a chime) in with the clacks, heard at `instant`; the same rules as the
    /// clacks: nothing when sound is off, muted or in quiet hours. Returns at once.
    public func chime(_ sound: ClackSample, at instant: C.Instant) {
        guard settings.enabled, !settings.mute, settings.volume > 0 else { return }
        if let quiet = settings.quietHours, quiet.contains(now(), zone: zone) { return }
        if writer != nil, let track, let origin {
            // Frames already written cannot take it: it starts, whole, with the first that can.
            let frame = max(ClackTrack.frame(of: origin.duration(to: instant), rate: rate), trackWritten)
            self.track = track.adding(sound, at: frame)
            return
        }
        if let retryAfter, clock.now < retryAfter { return }
        track = ClackTrack(events: [], sample: sample, rate: rate, volume: Float(settings.volume) / 100).adding(sound, at: 0)
        origin = instant
        writer = Task { await self.stream() }
    }

    /// The settings in force: the configuration's, as changed by ``adjust(mute:volume:quietHours:)``.
    public var currentSettings: SoundSettings { settings }

    /// Mutes or unmutes, sets the volume (0–100) and the quiet hours. Muting silences a stream
    /// already playing at once; the next plan is heard with the new volume.
    public func adjust(mute: Bool, volume: Int, quietHours: QuietHours?) async {
        settings.mute = mute
        settings.volume = max(0, min(100, volume))
        settings.quietHours = quietHours
        guard settings.enabled else { return }
        let silent = mute || settings.volume == 0
        if silent || quietHours?.contains(now(), zone: zone) == true {
            await stop()
            if silent { state = .muted } else if let quietHours { state = .quietHours(quietHours) }
        } else if case .unavailable = state {
            return
        } else if writer == nil {
            state = .idle
        }
    }

    /// Stops at once and releases the device.
    public func stop() async {
        writer?.cancel()
        await writer?.value
    }

    private func duration(_ frames: Int) -> Duration { .nanoseconds(Int64(frames) * 1_000_000_000 / Int64(rate)) }

    private func stream() async {
        var output: (any AudioOutput)?
        defer {
            track = nil
            origin = nil
            writer = nil
            trackWritten = 0
        }
        do {
            let device = try await openOutput()
            output = device
            state = .playing
            // With nothing queued, the device's delay is its own latency: the time from a frame
            // starting to play to it being heard.
            let latency = try await device.delay()
            var streamOrigin = clock.now.advanced(by: latency)
            var written = 0
            let idleFrames = rate / 2
            // Frames that would be heard before the stream can play them are skipped, never played late.
            var next = max(0, ClackTrack.frame(of: (origin ?? streamOrigin).duration(to: streamOrigin), rate: rate))
            // A plan may arrive while the last frames are being heard: it is spliced into the
            // track, so the stream looks again before it lets the device go.
            repeat {
                while let track, let origin, next < track.length + idleFrames {
                    let position = ClackTrack.frame(of: streamOrigin.duration(to: origin), rate: rate) + next
                    if position < written {
                        next += written - position
                        continue
                    }
                    // The first write starts the device (it plays as soon as it has frames); later
                    // ones keep the queue `lead` ahead of what is playing.
                    if written > 0 {
                        try await clock.sleep(until: streamOrigin.advanced(by: duration(written) - latency - lead), tolerance: nil)
                    }
                    let frames: [Int16]
                    if position > written {
                        frames = [Int16](repeating: 0, count: min(position - written, periodFrames))
                    } else {
                        // Read the track again: a re-plan may have spliced it while we slept.
                        guard let current = self.track else { break }
                        frames = current.render16(from: next, count: periodFrames)
                        next += periodFrames
                        trackWritten = next
                    }
                    try await device.write(frames)
                    written += frames.count
                    let delay = try await device.delay()
                    if delay > .zero {
                        let heardEnd = clock.now.advanced(by: delay)
                        let expected = streamOrigin.advanced(by: duration(written))
                        let drift = expected.duration(to: heardEnd)
                        if drift > .milliseconds(2) || drift < .milliseconds(-2) {
                            streamOrigin = heardEnd.advanced(by: .zero - duration(written))
                        }
                    }
                }
                try await clock.sleep(until: streamOrigin.advanced(by: duration(written)), tolerance: nil)
            } while track.map { next < $0.length + idleFrames } == true
            await device.close()
            state = .idle
            streamsFinished += 1
        } catch is CancellationError {
            await output?.close()
            state = .idle
        } catch {
            await output?.close()
            state = .unavailable(String(describing: error))
            retryAfter = clock.now.advanced(by: .seconds(30))
            logger.warning("no sound; the board moves silently", metadata: ["error": "\(error)"])
        }
    }
}
