import FlapPrimitives
import FoundationEssentials
import Glibc

/// The sound of one flap landing: mono samples in −1…1 at `rate` frames a second.
public struct ClackSample: Sendable, Equatable {
    /// Frames a second.
    public let rate: Int
    /// The samples, −1…1.
    public let samples: [Float]

    /// A sample of `samples` at `rate` frames a second.
    public init(rate: Int, samples: [Float]) {
        self.rate = rate
        self.samples = samples
    }

    /// How long it sounds.
    public var duration: Duration { .nanoseconds(Int64(samples.count) * 1_000_000_000 / Int64(rate)) }

    /// One sample at full scale: the test signal that keeps overlapping clacks separable.
    public static func impulse(rate: Int = 48_000) -> ClackSample { ClackSample(rate: rate, samples: [1]) }

    /// A synthesized clack of about 80 ms: the click of a plastic flap striking its stop, a
    /// smaller rebound a few milliseconds later, the ring of the flap and the thud of the drum
    /// housing, each a damped resonance. Deterministic for a seed.
    public static func synthesized(rate: Int = 48_000, seed: UInt64 = 0x5EED) -> ClackSample {
        let length = rate * 80 / 1000
        var random = SeededRandom(seed: seed)
        var out = [Float](repeating: 0, count: length)
        // (frequency Hz, amplitude, decay time constant s): flap ring, card modes, housing thud.
        let modes: [(Double, Double, Double)] = [
            (2150, 0.34, 0.008), (3420, 0.26, 0.005), (5230, 0.20, 0.003), (7800, 0.10, 0.002), (880, 0.12, 0.008), (240, 0.10, 0.010)
        ]
        let strikes: [(at: Double, gain: Double)] = [(0, 1), (0.0055, 0.35)]  // impact, then the rebound
        var previousNoise = 0.0
        for i in 0..<length {
            let t = Double(i) / Double(rate)
            var value = 0.0
            for strike in strikes where t >= strike.at {
                let local = t - strike.at
                // The impact itself: a very short burst of high-passed noise.
                let noise = random.unit() * 2 - 1
                value += strike.gain * 1.2 * (noise - previousNoise) * exp(-local / 0.0006)
                for (frequency, amplitude, decay) in modes {
                    let attack = min(1, local / 0.0003)  // no step in the resonances
                    value += strike.gain * amplitude * attack * exp(-local / decay) * sin(2 * .pi * frequency * local)
                }
                previousNoise = noise
            }
            out[i] = Float(value)
        }
        let fade = rate * 5 / 1000
        for i in 0..<fade { out[length - 1 - i] *= Float(i) / Float(fade) }
        let peak = out.map(abs).max() ?? 1
        return ClackSample(rate: rate, samples: out.map { $0 / peak * 0.6 })
    }

    /// The sample at another rate (windowed-sinc interpolation, low-passed when going down).
    public func resampled(to target: Int) -> ClackSample {
        guard target != rate, !samples.isEmpty else { return ClackSample(rate: target, samples: samples) }
        let ratio = Double(target) / Double(rate)
        let cutoff = min(1, ratio)  // of the source Nyquist
        let halfWidth = 16.0 / cutoff
        let count = Int((Double(samples.count) * ratio).rounded(.up))
        var out = [Float](repeating: 0, count: count)
        for j in 0..<count {
            let center = Double(j) / ratio
            let lo = max(0, Int((center - halfWidth).rounded(.up)))
            let hi = min(samples.count - 1, Int((center + halfWidth).rounded(.down)))
            guard lo <= hi else { continue }
            var sum = 0.0
            for k in lo...hi {
                let x = (Double(k) - center) * cutoff
                let sinc = x == 0 ? 1 : sin(.pi * x) / (.pi * x)
                let w = (Double(k) - center) / halfWidth
                let window = 0.42 + 0.5 * cos(.pi * w) + 0.08 * cos(2 * .pi * w)  // Blackman
                sum += Double(samples[k]) * sinc * window * cutoff
            }
            out[j] = Float(sum)
        }
        return ClackSample(rate: target, samples: out)
    }
}
