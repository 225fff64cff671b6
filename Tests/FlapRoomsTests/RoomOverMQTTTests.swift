import FlapMQTTClient
import FlapRooms
import Foundation
import TestSupport
import Testing
import Wematch

/// Two kiosks in one room through a real mosquitto: each hosts a member, both see the same room.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct RoomOverMQTTTests {
    func options(_ broker: MosquittoBroker, _ id: String) -> MQTTOptions {
        MQTTOptions(host: "127.0.0.1", port: broker.port, clientID: id)
    }

    func record(_ name: String, _ colour: Int) -> MemberRecord {
        MemberRecord(name: name, colour: Palette.colours[colour], joinedAt: Date(timeIntervalSince1970: 1_795_341_600 + Double(colour)))
    }

    func until(_ condition: () async -> Bool) async throws -> Bool {
        try await eventually(condition)
    }

    @Test func twoKiosksSeeTheSameRoom() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let watchers = try ["a", "b"].map { try RoomWatcher(room: "lobby", options: options(broker, "watch-\($0)")) }
        let reading = watchers.map { watcher in Task { await watcher.run() } }
        defer { reading.forEach { $0.cancel() } }
        let ana = try HostedMember(room: "lobby", id: "a.ble.C47C", record: record("cosmic_narwhal0042", 0), options: options(broker, "member-a"))
        let ben = try HostedMember(room: "lobby", id: "b.ant.31337", record: record("brave_otter0007", 1), options: options(broker, "member-b"))
        let hosting = [ana, ben].map { member in Task { await member.run() } }
        defer { hosting.forEach { $0.cancel() } }
        // As kiosks do: a sample each, over and over (QoS 0: those sent before a watcher
        // subscribed are not for it).
        let sending = Task {
            var seq = 0
            while !Task.isCancelled {
                seq += 1
                try? ana.send(HeartSample(previous: 70, current: 71, seq: seq))
                try? ben.send(HeartSample(previous: 72, current: 72, seq: seq))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        defer { sending.cancel() }
        for watcher in watchers {
            #expect(try await until { await watcher.state().edges == [["a.ble.C47C", "b.ant.31337"]] })
        }
        let states = await [watchers[0].state(), watchers[1].state()]
        #expect(states[0].members.map(\.id) == states[1].members.map(\.id))
        #expect(states[0].clusters == states[1].clusters)
        #expect(states[0].clusters.map(\.kind) == ["hard"] && states[0].clusters.map(\.chain) == [2])
        #expect(states[0].members.map(\.name) == ["cosmic_narwhal0042", "brave_otter0007"])

        // A kiosk that comes later sees the members from their retained records.
        let late = try RoomWatcher(room: "lobby", options: options(broker, "watch-late"))
        let lateReading = Task { await late.run() }
        defer { lateReading.cancel() }
        #expect(try await until { await late.state().members.count == 2 })

        await ben.leave()
        hosting[1].cancel()
        for watcher in watchers + [late] {
            #expect(try await until { await watcher.state().members.map(\.id) == ["a.ble.C47C"] })
        }
        #expect(await watchers[0].unreadable().isEmpty)
        await ana.leave()
    }
}
