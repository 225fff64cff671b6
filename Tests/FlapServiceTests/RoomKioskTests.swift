import FlapDisplay
import Foundation
import TestSupport
import Testing

/// Three flapd kiosks with simulated straps in one room through a real mosquitto.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct RoomKioskTests {
    struct View: Equatable {
        var members: [String]
        var clusters: [[String]]
    }

    func view(_ kiosk: FlapdProcess) async throws -> View? {
        let reply = try await kiosk.api.get("/v1/room")
        guard reply.status == 200 else { return nil }
        let members = (reply.object["members"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        let clusters = (reply.object["clusters"] as? [[String: Any]] ?? []).compactMap { $0["members"] as? [String] }
        return View(members: members, clusters: clusters)
    }

    @Test func threeKiosksSeeOneRoomAndAKilledKiosksMembersLeave() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        var kiosks: [FlapdProcess] = []
        for i in 0..<3 {
            let kiosk = try await FlapdProcess.start(arguments: [
                "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "k\(i)", "--room", "lobby"
            ])
            teardown { await kiosk.stop() }
            kiosks.append(kiosk)
        }

        // Each kiosk's three simulated straps are members; every kiosk sees all nine the same way.
        var agreed = false
        var last: [View?] = []
        _ = try await eventually(every: .milliseconds(100)) {
            last = []
            for kiosk in kiosks { last.append(try await view(kiosk)) }
            agreed = last.allSatisfy { $0 == last[0] } && last[0]?.members.count == 9
            return agreed
        }
        #expect(agreed, "\(last)")
        // The answer other kiosks and tools rely on (docs/heart-rate-and-rooms.md), field by field.
        let answer = try await kiosks[0].api.get("/v1/room").object
        #expect(answer["room"] as? String == "lobby" && answer["stars"] is Int && answer["edges"] is [[String]])
        for member in answer["members"] as? [[String: Any]] ?? [] {
            #expect(member["id"] is String && member["name"] is String && member["stale"] is Bool)
            #expect((member["colour"] as? String)?.range(of: "^#[0-9a-f]{6}$", options: .regularExpression) != nil)
            #expect(member["bpm"] == nil && member["current"] == nil && member["previous"] == nil)
        }
        for cluster in answer["clusters"] as? [[String: Any]] ?? [] {
            #expect(["soft", "hard"].contains(cluster["kind"] as? String) && cluster["members"] is [String] && cluster["chain"] is Int)
        }
        #expect(Set(last[0]?.members.map { String($0.prefix(2)) } ?? []) == ["k0", "k1", "k2"])
        // And as the API's description says.
        let description = PythonPeer.packageRoot.appendingPathComponent("Sources/FlapHTTP/OpenAPI/openapi.json").path
        let checked = try await ProcessRunner.run(
            try await PythonPeer.python(), [PythonPeer.peersDirectory.appendingPathComponent("openapi_answer_check.py").path, description, "Room"],
            input: try await kiosks[0].api.get("/v1/room").body)
        #expect(checked.stdoutText == "valid\n", "\(checked.stdoutText)\(checked.stderrText)")
        let plot = try await ProcessRunner.run(
            try await PythonPeer.python(),
            [PythonPeer.peersDirectory.appendingPathComponent("openapi_answer_check.py").path, description, "RoomPlot"],
            input: try await kiosks[0].api.get("/v1/room/plot").body)
        #expect(plot.stdoutText == "valid\n", "\(plot.stdoutText)\(plot.stderrText)")

        // SIGKILL: no goodbye; the broker publishes each member's will and the others drop them.
        kiosks[2].process.signal(SIGKILL)
        var gone = false
        _ = try await eventually(every: .milliseconds(100)) {
            let views = [try await view(kiosks[0]), try await view(kiosks[1])]
            gone = views.allSatisfy { $0?.members.count == 6 && $0?.members.allSatisfy { !$0.hasPrefix("k2.") } == true }
            return gone
        }
        #expect(gone)
        let noRoom = try await FlapdProcess.start()
        teardown { await noRoom.stop() }
        #expect(try await noRoom.api.get("/v1/room").status == 404)
    }

    @Test func theTwentyFirstMemberIsToldTheRoomIsFull() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let kiosk = try await FlapdProcess.kiosk("crowd", broker: broker, people: 21, room: "lobby")
        teardown { await kiosk.stop() }
        var full = false
        _ = try await eventually(every: .milliseconds(100)) {
            let room = try await kiosk.api.get("/v1/room").object
            full = (room["members"] as? [Any])?.count == 20 && (room["waiting"] as? [String])?.count == 1
            return full
        }
        #expect(full)
        #expect(try await kiosk.process.waitForLog("is full (20 members)").contains("waits for a place"))
    }

    @Test func aRoomAcrossTwoSitesJoinedByABridge() async throws {
        // Site A's broker, and site B's bridging the rooms' topics to it both ways (mosquitto's own feature).
        let siteA = try await MosquittoBroker.start()
        teardown { await siteA.stop() }
        let siteB = try await MosquittoBroker.start(
            extraConfiguration: """
                connection site-a
                address 127.0.0.1:\(siteA.port)
                topic wematch/# both 1
                cleansession true
                try_private true
                restart_timeout 1
                """)
        teardown { await siteB.stop() }
        let a = try await FlapdProcess.start(arguments: ["--mqtt", "mqtt://127.0.0.1:\(siteA.port)", "--device-id", "sa", "--room", "lobby"])
        let b = try await FlapdProcess.start(arguments: ["--mqtt", "mqtt://127.0.0.1:\(siteB.port)", "--device-id", "sb", "--room", "lobby"])
        teardown { for kiosk in [a, b] { await kiosk.stop() } }

        var agreed = false
        var last: [View?] = []
        _ = try await eventually(every: .milliseconds(100)) {
            last = [try await view(a), try await view(b)]
            agreed = last[0] == last[1] && last[0]?.members.count == 6
            return agreed
        }
        #expect(agreed, "\(last)")
        #expect(Set(last[0]?.members.map { String($0.prefix(2)) } ?? []) == ["sa", "sb"])

        // Site B's kiosk dies: its broker publishes the wills, the bridge carries them to site A.
        b.process.signal(SIGKILL)
        let gone = try await eventually(every: .milliseconds(100)) {
            try await view(a).map { $0.members.count == 3 && $0.members.allSatisfy { $0.hasPrefix("sa.") } } ?? false
        }
        #expect(gone)
    }
}
