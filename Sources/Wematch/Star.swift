import FlapPrimitives
import FoundationEssentials
import Glibc

/// A star lit by a pair that became synced: it appears between the two, drifts for
/// ``driftTime`` and fades over ``fadeTime``. Its place and drift come from the pair and the
/// samples that synced them, so every kiosk draws the same star.
public struct Star<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    /// How long a star drifts.
    public static var driftTime: Duration { .seconds(180) }
    /// How long it then takes to fade.
    public static var fadeTime: Duration { .seconds(5) }

    /// The pair that lit it.
    public let pair: SyncGraph.Pair
    /// The pair as one number, within the room that lit it.
    let key: UInt64
    /// When it was lit.
    public let born: Instant
    /// Where it appeared, in BPM on both axes.
    public let origin: HeartPoint
    /// Its drift in BPM a second on each axis.
    public let velocity: HeartPoint

    init(pair: SyncGraph.Pair, key: UInt64, between a: HeartPoint, and b: HeartPoint, seed: UInt64, born: Instant) {
        var random = SeededRandom(seed: seed)
        self.pair = pair
        self.key = key
        self.born = born
        origin = HeartPoint(
            previous: (a.previous + b.previous) / 2 + random.next(in: -3...3),
            current: (a.current + b.current) / 2 + random.next(in: -3...3))
        let angle = random.next(in: 0...(2 * Double.pi))
        // 0.1–0.3 BPM a second: 18–54 BPM over its three minutes, away from the hearts that lit it.
        let speed = random.next(in: 0.1...0.3)
        velocity = HeartPoint(previous: speed * cos(angle), current: speed * sin(angle))
    }

    /// Where it is at `now`.
    public func position(at now: Instant) -> HeartPoint {
        let seconds = age(now) / .seconds(1)
        return HeartPoint(previous: origin.previous + velocity.previous * seconds, current: origin.current + velocity.current * seconds)
    }

    /// 1 while it drifts, falling to 0 as it fades.
    public func opacity(at now: Instant) -> Double {
        let over = age(now) - Self.driftTime
        guard over > .zero else { return 1 }
        return max(0, 1 - over / Self.fadeTime)
    }

    /// Whether it has drifted and faded by `now`.
    public func isGone(at now: Instant) -> Bool { age(now) >= Self.driftTime + Self.fadeTime }

    private func age(_ now: Instant) -> Duration { born.duration(to: now) }
}
