import FlapPrimitives
import FoundationEssentials

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
    /// How close two points are to be synced, in BPM.
    public static var syncDistance: Double { 5 }
    /// How long a member may go unheard before it is stale.
    public static var staleAfter: Duration { .seconds(5) }
    /// How long a member may go unheard before it leaves.
    public static var leaveAfter: Duration { .seconds(10) }
    /// The plot's axes, in BPM.
    public static var axis: ClosedRange<Double> { 40...200 }
    /// Stars shining at once at most; a new one puts out the oldest.
    public static var mostStars: Int { 64 }

    /// The room's name.
    public let name: String
    /// The most members admitted at once.
    public let capacity: Int
    /// Everything known of each member ever seen, by slot; a slot's index is the member's
    /// serial number, so a synced pair is one integer to hash. Slots are kept for the room's
    /// life (a few hundred bytes each; members are straps, and a venue has a bounded number).
    private var slots: [MemberSlot] = []
    private var slotOf: [MemberID: Int] = [:]
    /// Slots with a join record in (joinedAt, id) order, kept as members join and leave.
    private var order: [Int] = []
    /// The instant times are counted from: a member's times are stored as durations, since a
    /// dictionary or array of the generic instant would go through generic metadata each look-up.
    private var origin: Instant?
    private var synced = SyncMemory()
    /// The stars shining, oldest first.
    public private(set) var stars: [Star<Instant>] = []
    /// The pairs whose stars still shine.
    private var lit: Set<UInt64> = []
    /// Stars lit since the room was made.
    public private(set) var starsLit = 0

    /// An empty room `name`, admitting `capacity` members.
    public init(name: String, capacity: Int = Self.defaultCapacity) {
        self.name = name
        self.capacity = capacity
    }

    /// A join record arrived (or changed); joining counts as being heard.
    public mutating func join(_ id: MemberID, _ record: MemberRecord, now: Instant) {
        let slot = slot(id)
        // Taken out by identity, not by where a search says it is: a search that lands on a
        // neighbour would leave this slot in the order without its record (a soak crashed so).
        if slots[slot].record != nil { order.removeAll { $0 == slot } }
        order.insert(slot, at: place(of: id, record))
        slots[slot].record = record
        if slots[slot].heard == nil { slots[slot].heard = since(now) }
    }

    /// A member left (its record was cleared, by itself or by its kiosk's will).
    public mutating func leave(_ id: MemberID) {
        guard let slot = slotOf[id] else { return }
        order.removeAll { $0 == slot }
        slots[slot] = MemberSlot(id: id)
    }

    /// A sample arrived. Samples older than the last (by `seq`) and implausible rates are
    /// refused; a sample may come before its member's record and is kept for it.
    @discardableResult
    public mutating func receive(_ sample: HeartSample, from id: MemberID, now: Instant) -> Bool {
        let slot = slot(id)
        guard sample.isPlausible, sample.seq > (slots[slot].sequence ?? Int.min) else { return false }
        slots[slot].sequence = sample.seq
        slots[slot].point = HeartPoint(previous: sample.previous, current: sample.current)
        slots[slot].heard = since(now)
        return true
    }

    /// The sequence number of `id`'s last sample (0 before any).
    func sequence(of id: MemberID) -> Int { slotOf[id].flatMap { slots[$0].sequence } ?? 0 }

    private mutating func slot(_ id: MemberID) -> Int {
        if let slot = slotOf[id] { return slot }
        slots.append(MemberSlot(id: id))
        slotOf[id] = slots.count - 1
        return slots.count - 1
    }

    /// Where a member `id` with `record` is (or belongs) in ``order``.
    private func place(of id: MemberID, _ record: MemberRecord) -> Int {
        var low = 0, high = order.count
        while low < high {
            let mid = (low + high) / 2
            let other = slots[order[mid]]
            if (other.record?.joinedAt ?? record.joinedAt, other.id) < (record.joinedAt, id) { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// `now` as time since the room's first instant.
    private mutating func since(_ now: Instant) -> Duration {
        let origin = self.origin ?? now
        self.origin = origin
        return origin.duration(to: now)
    }

    private func time(_ now: Instant) -> Duration { origin.map { $0.duration(to: now) } ?? .zero }

    /// Slots present at `time` (a record, heard within ``leaveAfter``), in (joinedAt, id) order.
    private func presentSlots(at time: Duration) -> [Int] {
        order.filter { slots[$0].record != nil && slots[$0].heard.map { time - $0 < Self.leaveAfter } == true }
    }

    /// The members present at `now` (a record, heard within ``leaveAfter``), in (joinedAt, id) order.
    public func present(at now: Instant) -> [MemberID] {
        presentSlots(at: time(now)).map { slots[$0].id }
    }

    /// Whether `id` is present but beyond the room's capacity.
    public func isWaiting(_ id: MemberID, at now: Instant) -> Bool {
        present(at: now).dropFirst(capacity).contains(id)
    }

    /// Brings the room to `now`: who is stale, who is synced, the stars new syncs light and the
    /// stars gone; and returns its state.
    public mutating func update(now: Instant) -> RoomState {
        let time = time(now)
        let present = presentSlots(at: time)
        let admitted = Array(present.prefix(capacity))
        let stale = admitted.map { slots[$0].heard.map { time - $0 >= Self.staleAfter } ?? true }
        // Places in `admitted` of the members that count for syncing: heard lately, with a point.
        let active = admitted.indices.filter { !stale[$0] && slots[admitted[$0]].point != nil }
        let edges = SyncGraph.edges(active.compactMap { slots[admitted[$0]].point }, within: Self.syncDistance)
        // One star a pair at a time: a pair flickering at the edge of 5 BPM does not fill the sky.
        let activeSlots = active.map { admitted[$0] }
        var lighting: [(key: UInt64, edge: SyncGraph.Edge)] = []
        for index in synced.advance(active: activeSlots, slotCount: slots.count, edges: edges) {
            let edge = edges[index]
            let x = UInt64(activeSlots[Int(edge.a)]), y = UInt64(activeSlots[Int(edge.b)])
            let key = x < y ? x << 32 | y : y << 32 | x
            if !lit.contains(key) { lighting.append((key, edge)) }
        }
        starsLit += lighting.count
        // Only the newest ``mostStars`` can shine: the ones before would be put out at once.
        for (key, edge) in lighting.suffix(Self.mostStars) {
            let a = slots[admitted[active[Int(edge.a)]]], b = slots[admitted[active[Int(edge.b)]]]
            guard let pointA = a.point, let pointB = b.point else { continue }
            let seed = FNV1a.hash("\(min(a.id, b.id))|\(max(a.id, b.id))|\(max(a.sequence ?? 0, b.sequence ?? 0))")
            stars.append(Star(pair: SyncGraph.Pair(a.id, b.id), key: key, between: pointA, and: pointB, seed: seed, born: now))
            lit.insert(key)
        }
        if stars.count > Self.mostStars {
            for star in stars.prefix(stars.count - Self.mostStars) { lit.remove(star.key) }
            stars.removeFirst(stars.count - Self.mostStars)
        }
        while let oldest = stars.first, oldest.isGone(at: now) {
            lit.remove(oldest.key)
            stars.removeFirst()
        }
        // A member gone (unheard for ``leaveAfter``) keeps no point: back, it waits for a new sample.
        for slot in slots.indices where slots[slot].point != nil && slots[slot].heard.map({ time - $0 >= Self.leaveAfter }) ?? true {
            slots[slot].point = nil
        }
        let place = active.map { Int32($0) }
        return RoomState(
            room: name, admitted: admitted.map { slots[$0].id }, waiting: present.dropFirst(capacity).map { slots[$0].id },
            records: admitted.compactMap { slots[$0].record }, stale: stale,
            synced: edges.map { SyncGraph.Edge(Int(place[Int($0.a)]), Int(place[Int($0.b)])) }, stars: stars.count)
    }

    /// Where each admitted member's heart is drawn: its point held inside the axes.
    public func plotPoints(_ state: RoomState) -> [MemberID: HeartPoint] {
        var result: [MemberID: HeartPoint] = [:]
        for member in state.members {
            if let point = slotOf[member.id].flatMap({ slots[$0].point }) { result[member.id] = point.clamped(to: Self.axis) }
        }
        return result
    }
}

/// What a room knows of one member. Outside ``Room`` so that it is not generic: an array of a
/// type nested in a generic one goes through runtime metadata on every access.
struct MemberSlot {
    let id: MemberID
    var record: MemberRecord?
    var point: HeartPoint?
    var sequence: Int?
    /// Since the room's origin.
    var heard: Duration?
}
