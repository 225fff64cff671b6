import FlapClocks
import FlapHardware
import FlapHeartRate
import FlapMQTTClient
import Foundation
import Logging
import TestSupport
import Testing
import Wematch

@testable import FlapRooms

/// A kiosk's rooms on a manual clock through a real mosquitto: the rules that go by time (a
/// strap unheard for 10 s leaves) without waiting for them, and changes that arrive together
/// carried out one after the other. The clock moves only when a test moves it: what comes from
/// the broker is waited for as it comes.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct RoomServiceTests {
    let strap = StrapIdentity(driver: "ble", address: "C4:7C:8D:6A:12:34")

    func options(_ broker: MosquittoBroker, _ id: String) -> MQTTOptions {
        MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: id)
    }

    func service(_ broker: MosquittoBroker, _ clock: ManualClock, kiosk: String = "kitchen") throws -> RoomService<ManualClock> {
        try RoomService(
            settings: nil, kiosk: kiosk, hub: nil, clock: clock, today: { Date(timeIntervalSince1970: 1_795_341_600) },
            logger: Logger(label: "rooms")
        ) { options(broker, $0) }
    }

    /// A room's codes listed by another kiosk, and a watcher of each room on the real clock.
    func rooms(_ names: [String], on broker: MosquittoBroker) async throws -> [String: RoomWatcher<ContinuousClock>] {
        let directory = try RoomDirectory(options: options(broker, "elsewhere-codes"), clock: ContinuousClock())
        let announcing = Task { await directory.run() }
        defer { announcing.cancel() }
        for name in names { try await directory.announce(.standing(name), as: .standing(name)) }
        // Retained on the broker before any kiosk looks: a directory of its own reads them back.
        let probe = try RoomDirectory(options: options(broker, "elsewhere-probe"), clock: ContinuousClock())
        let reading = Task { await probe.run() }
        defer { reading.cancel() }
        for name in names { #expect(try await eventually { await probe.isListed(.standing(name)) }) }
        var watchers: [String: RoomWatcher<ContinuousClock>] = [:]
        for name in names { watchers[name] = try RoomWatcher(room: name, options: options(broker, "elsewhere-\(name)")) }
        return watchers
    }

    @Test func twoMovesAtOnceLeaveOneRoomWatched() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watchers = try await rooms(["attic", "cellar", "garden"], on: broker)
        let clock = ManualClock()
        let kiosk = try service(broker, clock)
        let running = Task { await kiosk.run() }
        // A listed code is answered as the broker delivers its listing: the clock need not move.
        _ = try await kiosk.join(code: RoomCode.standing("attic").text)
        // Each move leaves the room before it enters the next; two at once used to both find
        // the kiosk in no room half-way, and the first room entered was never left.
        async let one = kiosk.join(code: RoomCode.standing("cellar").text)
        async let two = kiosk.join(code: RoomCode.standing("garden").text)
        let moved = try await [one.listing.room, two.listing.room]
        #expect(Set(moved) == ["cellar", "garden"])
        #expect(await kiosk.watching == 1)
        #expect(await kiosk.room().map { moved.contains($0.listing.room) } == true)
        running.cancel()
        await running.value
        #expect(await kiosk.watching == 0)
        _ = watchers
    }

    @Test func aStrapUnheardForTenSecondsLeavesTheRoom() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watchers = try await rooms(["attic"], on: broker)
        let attic = try #require(watchers["attic"])
        let watching = Task { await attic.run() }
        defer { watching.cancel() }
        let clock = ManualClock()
        let kiosk = try service(broker, clock)
        let running = Task { await kiosk.run() }
        _ = try await kiosk.join(code: RoomCode.standing("attic").text)
        await kiosk.heard(strap, 72)
        // Hosted at the next second's tick; its record reaches the room.
        await clock.advance(by: .seconds(1))
        #expect(try await eventually { await attic.state().members.map(\.id) == ["kitchen.ble.C47C8D6A1234"] })
        // Nine seconds unheard: still there. A second more (a tick comes at least once a
        // second): gone, its record cleared at once, well before the watcher itself would
        // forget a member it has not heard from for 10 s of real time.
        for _ in 0..<8 { await clock.advance(by: .seconds(1)) }
        await clock.sleepers()
        #expect(await attic.state().members.count == 1)
        await clock.advance(by: .seconds(1))
        await clock.advance(by: .seconds(1))
        #expect(try await eventually { await attic.state().members.isEmpty })
        running.cancel()
        await running.value
    }

    @Test func aMoveAsTheSecondTicksHostsTheStrapOnlyInTheNewRoom() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watchers = try await rooms(["attic", "cellar"], on: broker)
        let (attic, cellar) = (try #require(watchers["attic"]), try #require(watchers["cellar"]))
        let watching = [attic, cellar].map { watcher in Task { await watcher.run() } }
        defer { watching.forEach { $0.cancel() } }
        let clock = ManualClock()
        let kiosk = try service(broker, clock)
        let running = Task { await kiosk.run() }
        _ = try await kiosk.join(code: RoomCode.standing("attic").text)
        // The strap is first heard as the move is asked for: the tick that hosts it and the move
        // run one after the other, so it is hosted in the room the kiosk is in when it ticks.
        await kiosk.heard(strap, 80)
        let moved = try await kiosk.join(code: RoomCode.standing("cellar").text)
        #expect(moved.listing.room == "cellar")
        await kiosk.heard(strap, 81)
        await clock.advance(by: .seconds(1))
        #expect(try await eventually { await cellar.state().members.map(\.id) == ["kitchen.ble.C47C8D6A1234"] })
        #expect(try await eventually { await attic.state().members.isEmpty }, "nothing of the kiosk's stays in the room it left")
        running.cancel()
        await running.value
    }

    /// A request waiting its turn as the kiosk stops is answered (refused), never left waiting.
    @Test func aRequestWaitingAsTheRoomsStopIsAnswered() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let clock = ManualClock()
        let kiosk = try service(broker, clock)
        let running = Task { await kiosk.run() }
        // The first looks for a code no kiosk lists (it waits out its patience on the manual
        // clock); the second waits behind it.
        let first = Task { try await kiosk.join(code: RoomCode.standing("nowhere").text) }
        let second = Task { try await kiosk.join(code: RoomCode.standing("elsewhere").text) }
        await clock.sleepers()
        running.cancel()
        // Stopping ends the first's wait (its patience is not waited out) and refuses the second.
        let answers = [await first.result, await second.result].map { result -> String in
            if case .failure(let error as RoomRequestError) = result { return error.description }
            return "\(result)"
        }
        #expect(answers.contains { $0.contains("stopping") }, "\(answers)")
        await running.value
        // After it has stopped, at once.
        await #expect(throws: RoomRequestError.self) { try await kiosk.join(code: RoomCode.standing("nowhere").text) }
    }
}
