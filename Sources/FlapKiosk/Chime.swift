import FlapCore
import FoundationEssentials
import Glibc

/// The chime a kiosk sounds when two members become synced: two bell strikes a major sixth
/// apart (E6, then C♯7 90 ms later), each with the inharmonic partials of a small bell and a
/// decay of about a second. Synthesized, so it needs no file, and the same on every kiosk.
public enum Chime {
    /// The chime as a mono sample at `rate`, peaking at `peak` of full scale.
    public static func sample(rate: Int = 48_000, peak: Float = 0.5) -> ClackSample {
        let length = rate * 1400 / 1000
        var out = [Float](repeating: 0, count: length)
        // (start s, fundamental Hz, gain); partial ratios and decays of a small bell.
        let strikes: [(Double, Double, Double)] = [(0, 1318.5, 1), (0.09, 2217.5, 0.8)]
        let partials: [(ratio: Double, gain: Double, decay: Double)] = [(1, 1, 0.45), (2.76, 0.35, 0.18), (5.40, 0.15, 0.08), (0.5, 0.2, 0.6)]
        for i in 0..<length {
            let t = Double(i) / Double(rate)
            var value = 0.0
            for (start, frequency, gain) in strikes where t >= start {
                let local = t - start
                let attack = min(1, local / 0.002)  // 2 ms: a strike, not a click
                for partial in partials {
                    value += gain * partial.gain * attack * exp(-local / partial.decay) * sin(2 * .pi * frequency * partial.ratio * local)
                }
            }
            out[i] = Float(value)
        }
        let fade = rate / 20
        for i in 0..<fade { out[length - 1 - i] *= Float(i) / Float(fade) }
        let top = out.map(abs).max() ?? 1
        return ClackSample(rate: rate, samples: out.map { $0 / top * peak })
    }
}
