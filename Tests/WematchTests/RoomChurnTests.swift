import FlapPrimitives
import Foundation
import TestSupport
import Testing

@testable import Wematch

/// Members joining, leaving, rejoining with new records and falling silent in any order: the
/// room's order never keeps a member without its record (a soak of flapd crashed on one).
@Suite struct RoomChurnTests {
    let suite = RoomTests()

    @Test func anyMixOfJoinsLeavesAndSilenceKeepsTheRoomWhole() {
        var generator = SeededRandom(seed: 20261124)
        var room = Room<RoomTests.Instant>(name: "churn", capacity: 4)
        let ids = (0..<8).map { "kiosk.serial.m\($0)" }
        var sequence = 0
        for step in 0..<20_000 {
            let now = suite.at(Double(step) * 0.25)
            let id = ids[Int(generator.next() % UInt64(ids.count))]
            switch generator.next() % 6 {
            case 0:
                // Rejoining with a new joinedAt, some sharing an instant with others.
                room.join(id, suite.record(id, Double(generator.next() % 4)), now: now)
            case 1: room.leave(id)
            case 2, 3:
                sequence += 1
                room.receive(
                    HeartSample(previous: 70 + Double(generator.next() % 10), current: 70 + Double(generator.next() % 10), seq: sequence),
                    from: id, now: now)
            default: break  // silence: members go stale, then leave by themselves
            }
            let state = room.update(now: now)
            if state.members.count > 4 || Set(state.members.map(\.id)).count != state.members.count {
                Issue.record("step \(step): \(state.members.map(\.id))")
                return
            }
        }
    }
}
