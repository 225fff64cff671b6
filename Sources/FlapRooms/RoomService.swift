import FlapHardware
import FlapHeartRate
import FlapMQTTClient
import FoundationEssentials
import Logging
import Wematch

/// A kiosk taking part in rooms: in at most one room at a time, which it watches, hosting a
/// member there for each of its straps and sending each one's sample about once a second (its
/// previous and current BPM, numbered). A strap unheard for 10 s leaves; it joins again when
/// heard. It starts in its standing room, if it has one; people move it to another room by
/// code, or to a new room for two, and back. Heart rates only go to the room's topic: never
/// logged above debug, never stored.
///
/// Every change (a move asked for, a second's samples) is carried out by ``run()``, one at a
/// time and to its end: a change awaits the broker and the room, and two changes interleaved at
/// those awaits once left a room's watcher running beside the next, or hosted a member in a room
/// the kiosk had just left.
public actor RoomService<C: Clock<Duration>> where C.Instant: Sendable {
    /// The standing room, if configured.
    public nonisolated let settings: RoomSettings?
    let kiosk: String
    let hub: HeartRateHub?
    let connect: @Sendable (String) -> MQTTOptions
    let clock: C
    let today: @Sendable () -> Date
    let logger: Logger
    let directory: RoomDirectory<C>
    let (changes, change) = AsyncStream.makeStream(of: Change.self)
    /// The directory's connection, opened when first needed: a kiosk that never uses a room
    /// keeps no connection for it.
    var directoryReading: Task<Void, Never>?
    var current: Membership?
    var latest: [StrapIdentity: (bpm: Int, at: C.Instant)] = [:]
    var hosted: [StrapIdentity: (member: HostedMember, task: Task<Void, Never>, previous: Int?, seq: Int)] = [:]
    /// Hosted members told the room is full, until they get a place.
    var waiting: Set<MemberID> = []
    var rooms = 0
    var lastTick: C.Instant?
    /// Rooms watched now (a membership's watcher running): one at most.
    private(set) var watching = 0

    /// The room this kiosk is in.
    struct Membership {
        let listing: RoomListing
        let code: RoomCode
        let watcher: RoomWatcher<C>
        let task: Task<Void, Never>
    }

    /// What ``run()`` carries out, one at a time.
    enum Change: Sendable {
        case tick
        case request(@Sendable (isolated RoomService) async -> Void)
    }

    /// Takes part as `kiosk` (the first part of its members' ids), in `settings`' standing room
    /// to begin with (none: in no room until asked), with a member for each strap `hub` reads
    /// (none: it watches). `connect` gives the options of a connection for a client id; `clock`
    /// times the samples and the rooms' rules, `today` dates a member's joining.
    public init(
        settings: RoomSettings?, kiosk: String, hub: HeartRateHub?, clock: C, today: @escaping @Sendable () -> Date = { Date() },
        logger: Logger, connect: @escaping @Sendable (String) -> MQTTOptions
    ) throws(MQTTError) {
        self.settings = settings
        self.kiosk = kiosk
        self.hub = hub
        self.connect = connect
        self.clock = clock
        self.today = today
        self.logger = logger
        directory = try RoomDirectory(options: connect("wematch-\(kiosk)-codes"), clock: clock)
    }

    /// Takes part until cancelled, then leaves. Requests made before it runs wait for it; those
    /// made after it has stopped are refused.
    public func run() async {
        if let settings { try? await enter(.standing(settings.name), code: settings.code ?? RoomCode.standing(settings.name)) }
        await withDiscardingTaskGroup { group in
            group.addTask { [hub] in
                guard let hub else { return }
                for await sample in await hub.readings() { await self.heard(sample.strap, sample.bpm) }
            }
            group.addTask { [clock, change] in
                var next = clock.now
                while !Task.isCancelled {
                    next = next.advanced(by: .seconds(1))
                    guard (try? await clock.sleep(until: next, tolerance: nil)) != nil else { return }
                    change.yield(.tick)
                }
            }
            for await next in changes {
                switch next {
                case .tick: await tick()
                case .request(let carryOut): await carryOut(self)
                }
            }
            group.cancelAll()
        }
        change.finish()
        // Requests that came as it stopped are answered (refused) by their own closures.
        for await case .request(let carryOut) in changes { await carryOut(self) }
        await leaveCurrent()
        directoryReading?.cancel()
        await directoryReading?.value
    }

    /// `work` carried out by ``run()`` after every change before it, its answer returned.
    func serially<T: Sendable>(
        _ work: @escaping @Sendable (isolated RoomService) async throws(RoomRequestError) -> T
    ) async throws(RoomRequestError) -> T {
        let stopped = RoomRequestError(.unavailable, "the rooms are stopping")
        let result: Result<T, RoomRequestError> = await withCheckedContinuation { answer in
            let request = Change.request { service in
                guard !Task.isCancelled else { return answer.resume(returning: .failure(stopped)) }
                do throws(RoomRequestError) { answer.resume(returning: .success(try await work(service))) } catch {
                    answer.resume(returning: .failure(error))
                }
            }
            if case .terminated = change.yield(request) { answer.resume(returning: .failure(stopped)) }
        }
        return try result.get()
    }

    /// The directory, reading the codes' listings.
    func codes() -> RoomDirectory<C> {
        if directoryReading == nil { directoryReading = Task { [directory] in await directory.run() } }
        return directory
    }

    // MARK: The API's requests

    /// Where this kiosk is: the room, its code and kind.
    public func room() -> (listing: RoomListing, code: RoomCode)? { current.map { ($0.listing, $0.code) } }

    /// The room as it stands (nil: in no room).
    public func state() async -> RoomState? { await current?.watcher.state() }

    /// The room as a kiosk draws it (nil: in no room).
    public func plot() async -> RoomPlot? { await current?.watcher.plot() }

    /// Moves to the room `typed` stands for.
    public func join(code typed: String) async throws(RoomRequestError) -> (listing: RoomListing, code: RoomCode) {
        try await serially { service throws(RoomRequestError) in try await service.move(to: typed) }
    }

    /// Opens a room for two and moves there; the other person joins with its code.
    public func createPair() async throws(RoomRequestError) -> (listing: RoomListing, code: RoomCode) {
        try await serially { service throws(RoomRequestError) in try await service.openPair() }
    }

    /// Leaves the room this kiosk is in, for its standing room (if it has one and was elsewhere)
    /// or for none. Returns the room left and the room it is in now.
    public func leave() async -> (left: String?, now: String?) {
        (try? await serially { service in await service.leaveForStanding() }) ?? (current?.listing.room, current?.listing.room)
    }

    func move(to typed: String) async throws(RoomRequestError) -> (listing: RoomListing, code: RoomCode) {
        guard let code = RoomCode(typed) else { throw RoomRequestError(.badRequest, RoomCode.problem(typed) ?? "not a room code") }
        if let current, current.code == code { return (current.listing, code) }
        guard let listing = await codes().listing(for: code) else {
            throw RoomRequestError(.notFound, "no room has the code \(code); check it on the other kiosk's screen")
        }
        if listing.kind == .pair {
            // A room for two lives while one of them remains; and it has room for two only.
            let others = try await peek(listing)
            if others.isEmpty {
                try? await codes().clear(code)
                throw RoomRequestError(.conflict, "the room for two with code \(code) has ended: everyone left")
            }
            if others.count + max(1, hosted.count) > listing.capacity {
                throw RoomRequestError(.conflict, "the room for two with code \(code) is full")
            }
        }
        await leaveCurrent()
        do { try await enter(listing, code: code) } catch { throw RoomRequestError(.unavailable, "cannot reach the broker: \(error)") }
        logger.notice("joined room \(listing.room) by its code")
        return (listing, code)
    }

    func openPair() async throws(RoomRequestError) -> (listing: RoomListing, code: RoomCode) {
        let code = RoomCode.random(seed: UInt64.random(in: .min ... .max))
        let listing = RoomListing.pair(code)
        await leaveCurrent()
        do {
            try await enter(listing, code: code)
            try await codes().announce(listing, as: code)
        } catch {
            throw RoomRequestError(.unavailable, "cannot reach the broker: \(error)")
        }
        logger.notice("opened a room for two, code \(code)")
        return (listing, code)
    }

    func leaveForStanding() async -> (left: String?, now: String?) {
        let left = current?.listing.room
        await leaveCurrent()
        if let settings, left != settings.name {
            try? await enter(.standing(settings.name), code: settings.code ?? RoomCode.standing(settings.name))
        }
        return (left, current?.listing.room)
    }

    // MARK: Rooms

    /// Enters `listing`'s room, leaving the current one first: another request may have entered
    /// one while this request's caller was leaving (the actor is re-entered at each await).
    func enter(_ listing: RoomListing, code: RoomCode) async throws(MQTTError) {
        while current != nil { await leaveCurrent() }
        rooms += 1
        let watcher = try RoomWatcher(
            room: listing.room, capacity: listing.capacity, options: connect("wematch-\(kiosk)-watch\(rooms)"), clock: clock)
        // A standing room's code is announced by every kiosk in it, and never cleared; the
        // announcement belongs to the membership's task, beside the watcher.
        let directory = listing.kind == .standing ? codes() : nil
        watching += 1
        current = Membership(
            listing: listing, code: code, watcher: watcher,
            task: Task {
                await withDiscardingTaskGroup { group in
                    if let directory { group.addTask { try? await directory.announce(listing, as: code) } }
                    await watcher.run()
                }
            })
    }

    /// Leaves the current room: members' records cleared; a room for two this kiosk was the
    /// last in has ended, so its code is cleared too.
    func leaveCurrent() async {
        guard let current else { return }
        self.current = nil
        if current.listing.kind == .pair {
            let mine = Set(hosted.values.map(\.member.id))
            let others = await current.watcher.state().members.filter { !mine.contains($0.id) }
            if others.isEmpty { try? await codes().clear(current.code) }
        }
        for (_, member) in hosted {
            await member.member.leave()
            member.task.cancel()
            await member.task.value
        }
        hosted = [:]
        waiting = []
        current.task.cancel()
        await current.task.value
        watching -= 1
    }

    /// Who is in `listing`'s room, from a short look at its retained records.
    func peek(_ listing: RoomListing) async throws(RoomRequestError) -> [MemberID] {
        rooms += 1
        let watcher: RoomWatcher<C>
        do {
            watcher = try RoomWatcher(room: listing.room, capacity: listing.capacity, options: connect("wematch-\(kiosk)-peek\(rooms)"), clock: clock)
        } catch {
            throw RoomRequestError(.unavailable, "cannot reach the broker: \(error)")
        }
        let task = Task { await watcher.run() }
        let deadline = clock.now.advanced(by: .seconds(2))
        var members: [MemberID] = []
        // Retained records come at once after subscribing; a second more lets a slow broker answer.
        while clock.now < deadline {
            members = await watcher.state().members.map(\.id)
            if !members.isEmpty { break }
            try? await clock.sleep(for: .milliseconds(100))
        }
        task.cancel()
        await task.value
        return members
    }

}

extension RoomService where C == ContinuousClock {
    /// The rooms on the wall clock, for the kiosk `kiosk`, each connection made by `connect`.
    public init(
        settings: RoomSettings?, kiosk: String, hub: HeartRateHub?, logger: Logger,
        connect: @escaping @Sendable (String) -> MQTTOptions
    ) throws(MQTTError) {
        try self.init(settings: settings, kiosk: kiosk, hub: hub, clock: ContinuousClock(), logger: logger, connect: connect)
    }
}
