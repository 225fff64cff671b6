import FlapHardware
import FlapHeartRate
import FlapMQTTClient
import FoundationEssentials
import Logging
import Wematch

extension RoomService {
    // MARK: Straps

    func heard(_ strap: StrapIdentity, _ bpm: Int) {
        latest[strap] = (bpm, clock.now)
    }

    /// A second's work: straps unheard for 10 s leave, the others send their sample.
    func tick() async {
        let now = clock.now
        // Seconds that passed while a request was carried out are one tick, not a burst.
        if let lastTick, lastTick.duration(to: now) < .milliseconds(500) { return }
        lastTick = now
        guard let current else { return }
        for (strap, reading) in latest {
            let age = reading.at.duration(to: now)
            if age >= .seconds(10) {
                latest[strap] = nil
                if let member = hosted.removeValue(forKey: strap) {
                    logger.notice("room \(current.listing.room): \(member.member.id) left (its strap is not heard)")
                    await member.member.leave()
                    member.task.cancel()
                    await member.task.value
                }
                continue
            }
            guard age < .seconds(5) else { continue }
            if hosted[strap] == nil { await host(strap, in: current) }
            guard var member = hosted[strap] else { continue }
            member.seq += 1
            try? member.member.send(HeartSample(previous: Double(member.previous ?? reading.bpm), current: Double(reading.bpm), seq: member.seq))
            member.previous = reading.bpm
            hosted[strap] = member
        }
        // A room for two lives while one of us is in it: keep its code listed (a kiosk that
        // left thinking it was the last, or a will, may have cleared it).
        if current.listing.kind == .pair, !hosted.isEmpty, !(await codes().isListed(current.code)) {
            try? await codes().announce(current.listing, as: current.code)
        }
        await noticeWaiting(in: current)
    }

    /// Says once when one of this kiosk's members finds the room full, and when it gets a place.
    func noticeWaiting(in current: Membership) async {
        let state = await current.watcher.state()
        let mine = Set(hosted.values.map(\.member.id))
        let now = Set(state.waiting).intersection(mine)
        for id in now.subtracting(waiting).sorted() {
            logger.notice("room \(current.listing.room) is full (\(current.listing.capacity) members): \(id) waits for a place")
        }
        for id in waiting.subtracting(now).intersection(Set(state.members.map(\.id))).sorted() {
            logger.notice("room \(current.listing.room): \(id) has a place now")
        }
        waiting = now
    }

    func host(_ strap: StrapIdentity, in current: Membership) async {
        let id = "\(kiosk).\(strap.driver).\(strap.address.filter { $0.isLetter || $0.isNumber })"
        let state = await current.watcher.state()
        let name = settings?.names[strap.address] ?? MemberNames.name(for: id, avoiding: Set(state.members.map(\.name)))
        let record = MemberRecord(name: name, colour: Palette.colour(avoiding: state.members.map(\.colour)), joinedAt: today())
        do {
            let member = try HostedMember(room: current.listing.room, id: id, record: record, options: connect("wematch-\(id)"))
            hosted[strap] = (member, Task { await member.run() }, nil, 0)
            logger.notice("room \(current.listing.room): \(name) joins", metadata: ["member": "\(id)"])
        } catch {
            logger.error("room \(current.listing.room): cannot host \(id): \(error)")
        }
    }
}
