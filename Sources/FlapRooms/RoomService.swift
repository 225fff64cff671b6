import FlapHardware
import FlapHeartRate
import FlapMQTT
import Foundation
import Logging
import Wematch

/// A kiosk in a room: watches the room, and hosts a member for each of its straps, sending each
/// one's sample about once a second (its previous and current BPM, numbered). A strap unheard
/// for 10 s leaves the room; it joins again when heard. Heart rates only go to the room's
/// topic: never logged above debug, never stored.
public actor RoomService {
    public nonisolated let settings: RoomSettings
    private let kiosk: String
    private let watcher: RoomWatcher
    private let hub: HeartRateHub?
    private let connect: @Sendable (String) -> MQTTOptions
    private let logger: Logger
    private var latest: [StrapIdentity: (bpm: Int, at: ContinuousClock.Instant)] = [:]
    private var hosted: [StrapIdentity: (member: HostedMember, task: Task<Void, Never>, previous: Int?, seq: Int)] = [:]
    /// Hosted members told the room is full, until they get a place.
    private var waiting: Set<MemberID> = []

    /// Joins `settings.name` as `kiosk`, with a member for each strap `hub` reads (none: it
    /// watches). `connect` gives the options of a connection for a client id.
    public init(settings: RoomSettings, kiosk: String, hub: HeartRateHub?, logger: Logger,
                connect: @escaping @Sendable (String) -> MQTTOptions) throws(MQTTError) {
        self.settings = settings
        self.kiosk = kiosk
        self.hub = hub
        self.connect = connect
        self.logger = logger
        watcher = try RoomWatcher(room: settings.name, options: connect("wematch-\(kiosk)-watch"))
    }

    /// Takes part until cancelled, then leaves.
    public func run() async {
        let watching = Task { [watcher] in await watcher.run() }
        let listening = Task { [hub] in
            guard let hub else { return }
            for await sample in await hub.readings() { await self.heard(sample.strap, sample.bpm) }
        }
        let clock = ContinuousClock()
        var next = clock.now
        while !Task.isCancelled {
            next += .seconds(1)
            try? await clock.sleep(until: next)
            await tick(now: clock.now)
        }
        listening.cancel()
        for (_, member) in hosted { await member.member.leave(); member.task.cancel() }
        hosted = [:]
        watching.cancel()
    }

    /// The room as it stands.
    public func state() async -> RoomState { await watcher.state() }

    /// The room as a kiosk draws it.
    public func plot() async -> RoomPlot { await watcher.plot() }

    private func heard(_ strap: StrapIdentity, _ bpm: Int) {
        latest[strap] = (bpm, .now)
    }

    private func tick(now: ContinuousClock.Instant) async {
        for (strap, reading) in latest {
            let age = reading.at.duration(to: now)
            if age >= .seconds(10) {
                latest[strap] = nil
                if let member = hosted.removeValue(forKey: strap) {
                    logger.notice("room \(settings.name): \(member.member.id) left (its strap is not heard)")
                    await member.member.leave()
                    member.task.cancel()
                }
                continue
            }
            guard age < .seconds(5) else { continue }
            if hosted[strap] == nil { await host(strap) }
            guard var member = hosted[strap] else { continue }
            member.seq += 1
            try? member.member.send(HeartSample(previous: Double(member.previous ?? reading.bpm), current: Double(reading.bpm), seq: member.seq))
            member.previous = reading.bpm
            hosted[strap] = member
        }
        await noticeWaiting()
    }

    /// Says once when one of this kiosk's members finds the room full, and when it gets a place.
    private func noticeWaiting() async {
        let state = await watcher.state()
        let mine = Set(hosted.values.map(\.member.id))
        let now = Set(state.waiting).intersection(mine)
        for id in now.subtracting(waiting).sorted() {
            logger.notice("room \(settings.name) is full (\(Room<ContinuousClock.Instant>.defaultCapacity) members): \(id) waits for a place")
        }
        for id in waiting.subtracting(now).intersection(Set(state.members.map(\.id))).sorted() {
            logger.notice("room \(settings.name): \(id) has a place now")
        }
        waiting = now
    }

    private func host(_ strap: StrapIdentity) async {
        let id = "\(kiosk).\(strap.driver).\(strap.address.filter { $0.isLetter || $0.isNumber })"
        let state = await watcher.state()
        let name = settings.names[strap.address] ?? MemberNames.name(for: id, avoiding: Set(state.members.map(\.name)))
        let record = MemberRecord(name: name, colour: Palette.colour(avoiding: state.members.map(\.colour)), joinedAt: Date())
        do {
            let member = try HostedMember(room: settings.name, id: id, record: record, options: connect("wematch-\(id)"))
            hosted[strap] = (member, Task { await member.run() }, nil, 0)
            logger.notice("room \(settings.name): \(name) joins", metadata: ["member": "\(id)"])
        } catch {
            logger.error("room \(settings.name): cannot host \(id): \(error)")
        }
    }
}
