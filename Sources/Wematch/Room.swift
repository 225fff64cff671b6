import Foundation

/// A Wematch room as one kiosk sees it: members' join records and samples in, the room's shape
/// out. Pure and on an injected clock; every kiosk fed the same messages computes the same
/// members, points, syncs, clusters and chains.
///
/// - Two members are synced when their points are less than ``syncDistance`` BPM apart.
/// - 20 members at most (``capacity``), admitted in (joinedAt, id) order among those present; the others are
///   told the room is full, and come in as places free while they stay.
/// - A member not heard for ``staleAfter`` is stale (shown, synced with no one); after
///   ``leaveAfter`` it is gone from the room until it is heard again.
/// - Each pair that becomes synced lights a star, unless its last star still shines; at most
///   ``mostStars`` shine at once (a new one puts out the oldest).
/// - The plot's axes run 40–200 BPM. A point outside them is drawn at the edge (clamped) but
///   synced on its true place, so two hearts pinned to the same edge are not synced for it.
public struct Room<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    /// Members a room admits unless told otherwise.
    public static var defaultCapacity: Int { 20 }
    public static var syncDistance: Double { 5 }
    public static var staleAfter: Duration { .seconds(5) }
    public static var leaveAfter: Duration { .seconds(10) }
    public static var axis: ClosedRange<Double> { 40...200 }
    /// Stars shining at once at most; a new one puts out the oldest.
    public static var mostStars: Int { 64 }

    public let name: String
    public let capacity: Int
    private var records: [MemberID: MemberRecord] = [:]
    /// Members with a record in (joinedAt, id) order, kept as they join and leave.
    private var order: [MemberID] = []
    private var points: [MemberID: HeartPoint] = [:]
    private var sequence: [MemberID: Int] = [:]
    /// When each member was last heard, as time since ``origin``: a dictionary of the generic
    /// instant would go through generic metadata on every look-up.
    private var heard: [MemberID: Duration] = [:]
    private var origin: Instant?
    /// A number for each member ever seen, so a synced pair is one integer to hash.
    private var serials: [MemberID: UInt32] = [:]
    private var synced = PairSet()
    public private(set) var stars: [Star<Instant>] = []
    /// The pairs whose stars still shine.
    private var lit: Set<UInt64> = []
    /// Stars lit since the room was made.
    public private(set) var starsLit = 0

    public init(name: String, capacity: Int = Self.defaultCapacity) {
        self.name = name
        self.capacity = capacity
    }

    /// A join record arrived (or changed); joining counts as being heard.
    public mutating func join(_ id: MemberID, _ record: MemberRecord, now: Instant) {
        if let old = records[id] { order.remove(at: place(of: id, old)) }
        records[id] = record
        order.insert(id, at: place(of: id, record))
        if heard[id] == nil { heard[id] = since(now) }
        number(id)
    }

    /// Where `id` with `record` is (or belongs) in ``order``.
    private func place(of id: MemberID, _ record: MemberRecord) -> Int {
        var low = 0, high = order.count
        while low < high {
            let mid = (low + high) / 2
            let other = order[mid]
            if (records[other]?.joinedAt ?? record.joinedAt, other) < (record.joinedAt, id) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// `now` as time since the room's first instant.
    private mutating func since(_ now: Instant) -> Duration {
        if origin == nil { origin = now }
        return origin!.duration(to: now)
    }

    private func age(_ id: MemberID, at now: Duration) -> Duration? { heard[id].map { now - $0 } }

    /// A member left (its record was cleared, by itself or by its kiosk's will).
    public mutating func leave(_ id: MemberID) {
        if let record = records[id] { order.remove(at: place(of: id, record)) }
        records[id] = nil
        points[id] = nil
        sequence[id] = nil
        heard[id] = nil
    }

    /// A sample arrived. Samples older than the last (by `seq`) and implausible rates are
    /// refused; a sample may come before its member's record and is kept for it.
    @discardableResult
    public mutating func receive(_ sample: HeartSample, from id: MemberID, now: Instant) -> Bool {
        guard sample.isPlausible, sample.seq > (sequence[id] ?? Int.min) else { return false }
        sequence[id] = sample.seq
        points[id] = HeartPoint(previous: sample.previous, current: sample.current)
        heard[id] = since(now)
        number(id)
        return true
    }

    /// The sequence number of `id`'s last sample (0 before any).
    func sequence(of id: MemberID) -> Int { sequence[id] ?? 0 }

    private mutating func number(_ id: MemberID) {
        if serials[id] == nil { serials[id] = UInt32(truncatingIfNeeded: serials.count) }
    }

    /// The members present at `now` (a record, heard within ``leaveAfter``), in (joinedAt, id) order.
    public func present(at now: Instant) -> [MemberID] {
        guard let origin else { return [] }
        let time = origin.duration(to: now)
        return order.filter { age($0, at: time).map { $0 < Self.leaveAfter } == true }
    }

    /// Whether `id` is present but beyond the room's capacity.
    public func isWaiting(_ id: MemberID, at now: Instant) -> Bool {
        present(at: now).dropFirst(capacity).contains(id)
    }

    /// Brings the room to `now`: who is stale, who is synced, the stars new syncs light and the
    /// stars gone; and returns its state.
    public mutating func update(now: Instant) -> RoomState {
        let present = present(at: now)
        let time = origin.map { $0.duration(to: now) } ?? .zero
        let admitted = Array(present.prefix(capacity))
        let stale = Set(admitted.filter { id in age(id, at: time)! >= Self.staleAfter })
        let active = admitted.filter { !stale.contains($0) && points[$0] != nil }
        let edges = SyncGraph.edges(active.map { points[$0]! }, within: Self.syncDistance)
        var keys = PairSet(minimumCapacity: edges.count)
        // One star a pair at a time: a pair flickering at the edge of 5 BPM does not fill the sky.
        let numbers = active.map { UInt64(serials[$0]!) }
        for edge in edges {
            let x = numbers[Int(edge.a)], y = numbers[Int(edge.b)]
            let key = x < y ? x << 32 | y : y << 32 | x
            keys.insert(key)
            guard !synced.contains(key), !lit.contains(key) else { continue }
            let a = active[Int(edge.a)], b = active[Int(edge.b)]
            let seed = SeededRandom.hash("\(min(a, b))|\(max(a, b))|\(max(sequence[a] ?? 0, sequence[b] ?? 0))")
            stars.append(Star(pair: SyncGraph.Pair(a, b), key: key, between: points[a]!, and: points[b]!, seed: seed, born: now))
            lit.insert(key)
            starsLit += 1
        }
        synced = keys
        if stars.count > Self.mostStars {
            for star in stars.prefix(stars.count - Self.mostStars) { lit.remove(star.key) }
            stars.removeFirst(stars.count - Self.mostStars)
        }
        while let oldest = stars.first, oldest.isGone(at: now) {
            lit.remove(oldest.key)
            stars.removeFirst()
        }
        if points.count > present.count {
            let here = Set(present)
            for id in Array(points.keys) where !here.contains(id) && age(id, at: time).map({ $0 >= Self.leaveAfter }) ?? true {
                points[id] = nil
            }
        }
        return RoomState(room: name, admitted: admitted, waiting: Array(present.dropFirst(capacity)),
                         records: records, stale: stale, active: active, edges: edges, stars: stars.count)
    }

    /// Where each admitted member's heart is drawn: its point held inside the axes.
    public func plotPoints(_ state: RoomState) -> [MemberID: HeartPoint] {
        var result: [MemberID: HeartPoint] = [:]
        for member in state.members { if let point = points[member.id] { result[member.id] = point.clamped(to: Self.axis) } }
        return result
    }
}
