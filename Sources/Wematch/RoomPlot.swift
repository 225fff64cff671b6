/// What a kiosk draws of a room at one moment: each admitted member's heart where its point
/// lies (held inside the axes), the stars where they have drifted, and how many stars this room
/// has lit so far (a rise is a new synced pair: the kiosk's chime). Points are for drawing
/// only; a kiosk never shows them as numbers.
public struct RoomPlot: Sendable, Equatable {
    /// A member's heart.
    public struct Heart: Sendable, Equatable {
        /// Whose.
        public var id: MemberID
        /// `#rrggbb`.
        public var colour: String
        /// Where it is drawn.
        public var point: HeartPoint
        /// Whether the member has gone unheard (drawn faded).
        public var stale: Bool
        /// The sample the point came from; a new one starts the heart's glide.
        public var seq: Int

        /// The heart of `id` at `point`.
        public init(id: MemberID, colour: String, point: HeartPoint, stale: Bool, seq: Int) {
            self.id = id
            self.colour = colour
            self.point = point
            self.stale = stale
            self.seq = seq
        }
    }

    /// A star as it is drawn.
    public struct Light: Sendable, Equatable {
        /// Where it is now.
        public var position: HeartPoint
        /// 1 while it drifts, down to 0 as it fades.
        public var opacity: Double
    }

    /// The room's shape.
    public var state: RoomState
    /// In the order of `state.members`; members with no sample yet have no heart.
    public var hearts: [Heart]
    /// The stars shining.
    public var stars: [Light]
    /// Stars lit since the room was first watched.
    public var starsLit: Int
}

extension Room {
    /// The room brought to `now` (as ``update(now:)``), with what a kiosk draws of it.
    public mutating func plot(now: Instant) -> RoomPlot {
        let state = update(now: now)
        let points = plotPoints(state)
        let hearts = state.members.compactMap { member in
            points[member.id].map {
                RoomPlot.Heart(id: member.id, colour: member.colour, point: $0, stale: member.stale, seq: sequence(of: member.id))
            }
        }
        let lights = stars.map { RoomPlot.Light(position: $0.position(at: now), opacity: $0.opacity(at: now)) }
        return RoomPlot(state: state, hearts: hearts, stars: lights, starsLit: starsLit)
    }
}
