import Wematch

/// Where each heart is drawn between samples: a new point starts a glide from wherever the
/// heart is at that instant to the new point, eased on a cubic Bézier over ``duration``
/// (a little under the 1 s between samples, so a heart rests briefly at each point).
public struct HeartGlides<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration, Instant: Sendable {
    struct Glide: Sendable {
        var from: HeartPoint
        var to: HeartPoint
        var start: Instant
        var seq: Int
    }

    /// How long a heart takes to glide to its new place.
    public let duration: Duration
    /// How the glide speeds up and slows down.
    public let ease: CubicBezierEase
    private var glides: [MemberID: Glide] = [:]

    /// Glides of `duration`, eased by `ease`.
    public init(duration: Duration = .milliseconds(800), ease: CubicBezierEase = .easeInOut) {
        self.duration = duration
        self.ease = ease
    }

    /// Takes the room's hearts at `now`: new samples start glides, members gone are forgotten.
    public mutating func follow(_ hearts: [RoomPlot.Heart], at now: Instant) {
        var kept: [MemberID: Glide] = [:]
        for heart in hearts {
            if let glide = glides[heart.id] {
                kept[heart.id] =
                    glide.seq == heart.seq && glide.to == heart.point
                    ? glide
                    : Glide(from: position(glide, at: now), to: heart.point, start: now, seq: heart.seq)
            } else {
                // A heart appears where it is; it has nowhere to come from.
                kept[heart.id] = Glide(from: heart.point, to: heart.point, start: now, seq: heart.seq)
            }
        }
        glides = kept
    }

    /// Where `id`'s heart is at `now` (nil for a member not followed).
    public func position(of id: MemberID, at now: Instant) -> HeartPoint? {
        glides[id].map { position($0, at: now) }
    }

    /// Whether any heart is still on its way at `now`.
    public func isMoving(at now: Instant) -> Bool {
        glides.values.contains { $0.from != $0.to && $0.start.duration(to: now) < duration }
    }

    private func position(_ glide: Glide, at now: Instant) -> HeartPoint {
        let share = ease.progress(at: glide.start.duration(to: now) / duration)
        return HeartPoint(
            previous: glide.from.previous + (glide.to.previous - glide.from.previous) * share,
            current: glide.from.current + (glide.to.current - glide.from.current) * share)
    }
}
