import FoundationEssentials
import Glibc

/// The clacks of a plan as one PCM track: each clack at its landing time, scaled by its gain,
/// overlapping clacks summed and soft-limited. Any span of frames can be rendered on its own,
/// so a player can render as it goes and start a new track where a re-plan cuts the old one.
public struct ClackTrack: Sendable {
    /// Frames a second (the sample is resampled to it).
    public let rate: Int
    /// The clack, at the track's rate.
    public let sample: ClackSample
    /// Overall loudness, 0…1.
    public let volume: Float
    /// (onset frame, gain), sorted by onset.
    private let onsets: [(frame: Int, gain: Float)]
    /// Other sounds mixed in (a chime), each from its onset frame.
    private let sounds: [(frame: Int, samples: [Float])]

    /// The track of `events` (times from the track's frame 0).
    public init(events: [ClackEvent], sample: ClackSample, rate: Int = 48_000, volume: Float = 1) {
        self.rate = rate
        self.sample = sample.rate == rate ? sample : sample.resampled(to: rate)
        self.volume = volume
        onsets = events.map { (Self.frame(of: $0.time, rate: rate), Float($0.gain)) }.sorted { $0.frame < $1.frame }
        sounds = []
    }

    private init(rate: Int, sample: ClackSample, volume: Float, onsets: [(frame: Int, gain: Float)], sounds: [(frame: Int, samples: [Float])]) {
        self.rate = rate
        self.sample = sample
        self.volume = volume
        self.onsets = onsets
        self.sounds = sounds
    }

    /// This track with `sound` (resampled to the track's rate) mixed in from `frame`.
    public func adding(_ sound: ClackSample, at frame: Int) -> ClackTrack {
        let samples = sound.rate == rate ? sound.samples : sound.resampled(to: rate).samples
        return ClackTrack(rate: rate, sample: sample, volume: volume, onsets: onsets, sounds: sounds + [(frame, samples)])
    }

    /// The frame at which `time` falls (rounded to the nearest).
    public static func frame(of time: Duration, rate: Int) -> Int {
        let (seconds, atto) = time.components
        return Int(seconds) * rate + Int((Double(atto) * Double(rate) / 1e18).rounded())
    }

    /// Frames until the last clack has sounded.
    public var length: Int {
        let clacks = (onsets.last?.frame ?? 0) + (onsets.isEmpty ? 0 : sample.samples.count)
        return sounds.reduce(clacks) { max($0, $1.frame + $1.samples.count) }
    }

    /// This track up to `frame` (clacks that began before it ring on) followed by `next`
    /// starting at `frame`: what a re-plan at that frame should sound like.
    public func splicing(_ next: ClackTrack, at frame: Int) -> ClackTrack {
        let kept = onsets.filter { $0.frame < frame }
        let added = next.onsets.map { (frame: $0.frame + frame, gain: $0.gain) }
        // A chime that began rings on; one still to come stays, as the new plan does not cancel it.
        let sounds = self.sounds + next.sounds.map { (frame: $0.frame + frame, samples: $0.samples) }
        return ClackTrack(rate: rate, sample: sample, volume: volume, onsets: (kept + added).sorted { $0.frame < $1.frame }, sounds: sounds)
    }

    /// Frames `start..<start+count`, summed and soft-limited, in −1…1.
    public func render(from start: Int, count: Int) -> [Float] {
        var mix = [Float](repeating: 0, count: count)
        let span = sample.samples.count
        // The first clack that can still be sounding at `start`.
        var low = 0, high = onsets.count
        while low < high {
            let mid = (low + high) / 2
            if onsets[mid].frame + span <= start { low = mid + 1 } else { high = mid }
        }
        sample.samples.withUnsafeBufferPointer { clack in
            mix.withUnsafeMutableBufferPointer { out in
                var i = low
                while i < onsets.count, onsets[i].frame < start + count {
                    let (onset, gain) = onsets[i]
                    let from = max(start, onset), to = min(start + count, onset + span)
                    if from < to {
                        let g = gain * volume
                        for f in from..<to { out[f - start] += clack[f - onset] * g }
                    }
                    i += 1
                }
            }
        }
        for (onset, samples) in sounds where onset < start + count && onset + samples.count > start {
            for f in max(start, onset)..<min(start + count, onset + samples.count) { mix[f - start] += samples[f - onset] * volume }
        }
        for i in mix.indices { mix[i] = Self.softLimit(mix[i]) }
        return mix
    }

    /// 16-bit frames `start..<start+count`.
    public func render16(from start: Int, count: Int) -> [Int16] {
        render(from: start, count: count).map { Int16(($0 * 32767).rounded()) }
    }

    /// Linear up to ±0.5, then a tanh knee that approaches ±1 without ever clipping.
    @inline(__always)
    static func softLimit(_ x: Float) -> Float {
        let knee: Float = 0.5
        let magnitude = abs(x)
        guard magnitude > knee else { return x }
        let limited = knee + (1 - knee) * Float(tanh(Double((magnitude - knee) / (1 - knee))))
        return x < 0 ? -limited : limited
    }
}
