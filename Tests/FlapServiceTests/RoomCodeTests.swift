import FlapDisplay
import Foundation
import TestSupport
import Testing
import Wematch

/// Joining rooms by code through flapd's API, over a real mosquitto: a standing room's code,
/// and rooms for two that live while one of the two remains.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct RoomCodeTests {
    /// The member ids `kiosk` sees, once `condition` holds of them (nil if it never does).
    func members(_ kiosk: FlapdProcess, until condition: ([String]) -> Bool) async throws -> [String]? {
        var found: [String]?
        _ = try await eventually(every: .milliseconds(100)) {
            let reply = try await kiosk.api.get("/v1/room")
            let ids = (reply.object["members"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            found = reply.status == 200 && condition(ids) ? ids : nil
            return found != nil
        }
        return found
    }

    @Test func aRoomForTwoLivesWhileOneOfThemRemains() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let a = try await FlapdProcess.kiosk("ka", broker: broker), b = try await FlapdProcess.kiosk("kb", broker: broker),
            c = try await FlapdProcess.kiosk("kc", broker: broker)
        teardown { for k in [a, b, c] { await k.stop() } }
        #expect(try await a.api.get("/v1/room").status == 404)

        let created = try await a.api.post("/v1/room", json: ["create": "pair"])
        #expect(created.status == 201, "\(created.object)")
        let code = try #require(created.object["code"] as? String)
        #expect(RoomCode(code)?.text == code && created.object["kind"] as? String == "pair" && created.object["capacity"] as? Int == 2)
        #expect(try await members(a) { $0.count == 1 } != nil)

        // b joins by the code, typed loosely (lower case, a dash); both see the two of them.
        let typed = code.lowercased().prefix(3) + "-" + code.lowercased().dropFirst(3)
        let joined = try await b.api.post("/v1/room", json: ["code": String(typed)])
        #expect(joined.status == 200, "\(joined.object)")
        let both = try await members(a) { Set($0.map { String($0.prefix(2)) }) == ["ka", "kb"] }
        #expect(both != nil)
        #expect(try await members(b) { $0 == both } != nil)

        // A third is refused: a room for two.
        let third = try await c.api.post("/v1/room", json: ["code": code])
        #expect(third.status == 409 && third.error.contains("full"), "\(third.object)")

        // a leaves: the room lives on with b, and c can take the free place.
        let left = try await a.api.delete("/v1/room")
        #expect(left.status == 200 && left.object["left"] as? String == "pair-\(code.lowercased())" && left.object["room"] == nil)
        #expect(try await members(b) { $0.count == 1 && $0[0].hasPrefix("kb") } != nil)
        let later = try await c.api.post("/v1/room", json: ["code": code])
        #expect(later.status == 200, "\(later.object)")
        #expect(try await members(b) { Set($0.map { String($0.prefix(2)) }) == ["kb", "kc"] } != nil)

        // Both leave: the room has ended, and its code with it.
        _ = try await b.api.delete("/v1/room")
        _ = try await c.api.delete("/v1/room")
        var ended = false
        _ = try await eventually(every: .milliseconds(100)) {
            let again = try await a.api.post("/v1/room", json: ["code": code])
            ended = [404, 409].contains(again.status)
            return ended
        }
        #expect(ended)

        // Codes that are not codes are refused with the reason.
        let bad = try await a.api.post("/v1/room", json: ["code": "K7Q2U!"])
        #expect(bad.status == 400 && bad.error.contains("character 5"), "\(bad.object)")
    }

    @Test func aStandingRoomIsJoinedByItsCode() async throws {
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let host = try await FlapdProcess.kiosk("host", broker: broker, people: 2, room: "lobby")
        let guest = try await FlapdProcess.kiosk("guest", broker: broker)
        teardown { for k in [host, guest] { await k.stop() } }
        #expect(try await members(host) { $0.count == 2 } != nil)
        let room = try await host.api.get("/v1/room").object
        #expect(room["code"] as? String == RoomCode.standing("lobby").text && room["kind"] as? String == "standing" && room["capacity"] as? Int == 20)
        let joined = try await guest.api.post("/v1/room", json: ["code": RoomCode.standing("lobby").text])
        #expect(joined.status == 200 && joined.object["room"] as? String == "lobby", "\(joined.object)")
        #expect(try await members(host) { $0.count == 3 } != nil)
        let unknown = try await guest.api.post("/v1/room", json: ["code": "ZZZZZZ"])
        #expect(unknown.status == 404)
        // Leaving a room joined by code, with no standing room of its own: in no room.
        let left = try await guest.api.delete("/v1/room")
        #expect(left.status == 200 && left.object["room"] == nil)
        #expect(try await members(host) { $0.count == 2 } != nil)
    }
}
