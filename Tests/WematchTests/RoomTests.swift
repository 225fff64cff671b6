import FlapClocks
import FlapPrimitives
import Foundation
import TestSupport
import Testing

@testable import Wematch

/// The room engine on a manual clock.
@Suite struct RoomTests {
    typealias Instant = ManualClock.Instant
    let t0 = ManualClock().now
    let joined = Date(timeIntervalSince1970: 1_795_000_000)

    func at(_ seconds: Double) -> Instant { t0.advanced(by: .milliseconds(Int(seconds * 1000))) }

    func record(_ name: String, _ offset: Double = 0) -> MemberRecord {
        MemberRecord(name: name, colour: Palette.colours[0], joinedAt: joined.addingTimeInterval(offset))
    }

    /// A room with members at these points, all heard at `now`.
    func room(_ points: [MemberID: (Double, Double)], now: Instant? = nil) -> Room<Instant> {
        var room = Room<Instant>(name: "test")
        for (id, point) in points {
            room.join(id, record(id), now: now ?? t0)
            room.receive(HeartSample(previous: point.0, current: point.1, seq: 1), from: id, now: now ?? t0)
        }
        return room
    }

    @Test func syncedMeansLessThanFiveBPMApartAndIsSymmetric() {
        var room = room(["a": (70, 70), "b": (73, 74), "c": (70, 75), "d": (100, 100)])
        let state = room.update(now: t0)
        // a–b: 5.0 exactly is not synced; a–c: 5.0 (not); b–c: √(9+1) ≈ 3.2 (synced)
        #expect(state.edges == [["b", "c"]])
        var swapped = self.room(["c": (70, 75), "b": (73, 74), "a": (70, 70), "d": (100, 100)])
        #expect(swapped.update(now: t0).edges == state.edges)
        #expect(state.members.first { $0.id == "d" }?.cluster == nil && state.members.first { $0.id == "d" }?.chain == 1)
    }

    @Test func aPathOfFourIsASoftClusterWithAChainOfFour() {
        var room = room(["a": (60, 60), "b": (64, 60), "c": (68, 60), "d": (72, 60)])
        let state = room.update(now: t0)
        #expect(state.clusters == [RoomState.Cluster(kind: "soft", members: ["a", "b", "c", "d"], chain: 4)])
        #expect(state.members.map(\.syncedPeers) == [1, 2, 2, 1])
        #expect(state.longestChain == 4 && state.syncedCount == 4)
    }

    @Test func everyPairSyncedIsAHardClusterWithinTheSoft() {
        var room = room(["a": (80, 80), "b": (81, 81), "c": (80, 82), "x": (120, 120), "y": (123, 120), "z": (126, 120)])
        let state = room.update(now: t0)
        #expect(state.clusters.count == 2)
        #expect(state.clusters[0] == RoomState.Cluster(kind: "hard", members: ["a", "b", "c"], chain: 2))
        #expect(state.clusters[1] == RoomState.Cluster(kind: "soft", members: ["x", "y", "z"], chain: 3))
        #expect(state.members.filter { $0.cluster == "hard" }.map(\.id) == ["a", "b", "c"])
    }

    @Test func twentyAreAdmittedInJoiningOrderAndTheTwentyFirstWaits() {
        var room = Room<Instant>(name: "full")
        // Joined in reverse id order, two at the same instant (the id breaks the tie).
        for i in (0..<21).reversed() { room.join("m\(String(format: "%02d", i))", record("m\(i)", Double(20 - i)), now: t0) }
        room.join("m00b", record("late twin", 20), now: t0)
        let state = room.update(now: t0)
        #expect(state.members.count == 20)
        #expect(state.members.first?.id == "m20")
        #expect(state.waiting == ["m00", "m00b"])
        #expect(room.isWaiting("m00b", at: t0) && !room.isWaiting("m05", at: t0))
        room.leave("m20")
        #expect(room.update(now: t0).waiting == ["m00b"], "a place freed lets the next in")
    }

    @Test func aSilentMemberIsStaleAfterFiveSecondsAndGoneAfterTen() {
        var room = room(["a": (70, 70), "b": (71, 71)])
        room.receive(HeartSample(previous: 71, current: 71, seq: 2), from: "b", now: at(6))
        var state = room.update(now: at(6))
        #expect(state.members.first { $0.id == "a" }?.stale == true)
        #expect(state.edges.isEmpty, "a stale member is synced with no one")
        state = room.update(now: at(10))
        #expect(state.members.map(\.id) == ["b"])
        room.receive(HeartSample(previous: 70, current: 71, seq: 2), from: "a", now: at(11))
        room.receive(HeartSample(previous: 71, current: 71, seq: 3), from: "b", now: at(11))
        #expect(room.update(now: at(11)).edges == [["a", "b"]], "heard again, it is back")
    }

    @Test func oldDuplicateAndImplausibleSamplesAreRefused() {
        var room = room(["a": (70, 70)])
        let results = [
            HeartSample(previous: 90, current: 90, seq: 1), HeartSample(previous: 90, current: 90, seq: 0),
            HeartSample(previous: 90, current: 400, seq: 5), HeartSample(previous: .nan, current: 90, seq: 6),
            HeartSample(previous: 70, current: 72, seq: 7)
        ].map { room.receive($0, from: "a", now: t0) }
        #expect(results == [false, false, false, false, true])
    }

    @Test func pointsOutsideTheAxesAreDrawnAtTheEdgeButSyncedWhereTheyAre() {
        var room = room(["a": (210, 210), "b": (240, 240), "c": (35, 30), "d": (212, 209)])
        let state = room.update(now: t0)
        #expect(state.edges == [["a", "d"]])
        let plot = room.plotPoints(state)
        #expect(plot["a"] == HeartPoint(previous: 200, current: 200) && plot["b"] == HeartPoint(previous: 200, current: 200))
        #expect(plot["c"] == HeartPoint(previous: 40, current: 40))
    }

    @Test func eachNewSyncLightsAStarThatDriftsThreeMinutesAndFades() {
        var room = room(["a": (70, 70), "b": (90, 90), "c": (110, 110)])
        #expect(room.update(now: t0).stars == 0)
        room.receive(HeartSample(previous: 70, current: 71, seq: 2), from: "b", now: at(1))
        room.receive(HeartSample(previous: 72, current: 70, seq: 2), from: "c", now: at(1))
        room.receive(HeartSample(previous: 70, current: 70, seq: 2), from: "a", now: at(1))
        #expect(room.update(now: at(1)).stars == 3, "three new pairs, three stars at once")
        // Still synced: no new stars.
        for second in 2...179 {
            for id in ["a", "b", "c"] { room.receive(HeartSample(previous: 70, current: 70, seq: second + 1), from: id, now: at(Double(second))) }
            #expect(room.update(now: at(Double(second))).stars == 3)
        }
        let star = room.stars[0]
        #expect(star.opacity(at: at(180)) == 1)
        #expect(abs(star.opacity(at: at(183.5)) - 0.5) < 1e-9)
        #expect(star.position(at: at(61)) != star.position(at: at(1)))
        for id in ["a", "b", "c"] { room.receive(HeartSample(previous: 70, current: 70, seq: 500), from: id, now: at(186)) }
        #expect(room.update(now: at(186)).stars == 0)
        // Apart, then together again: a new star for the pair.
        room.receive(HeartSample(previous: 150, current: 150, seq: 501), from: "c", now: at(187))
        _ = room.update(now: at(187))
        room.receive(HeartSample(previous: 70, current: 71, seq: 502), from: "c", now: at(188))
        #expect(room.update(now: at(188)).stars == 2)
    }

    @Test func aPairStaysLitWhenOthersComeAndGoAroundIt() {
        // a and b synced; members joining before them (and leaving) move them in the room's
        // order; that is no new sync, and no new star.
        var room = room(["a": (70, 70), "b": (72, 70)])
        #expect(room.update(now: t0).stars == 1 && room.starsLit == 1)
        room.join("early", record("early", -100), now: at(1))
        room.receive(HeartSample(previous: 150, current: 150, seq: 1), from: "early", now: at(1))
        for id in ["a", "b"] { room.receive(HeartSample(previous: id == "a" ? 70 : 72, current: 70, seq: 2), from: id, now: at(1)) }
        #expect(room.update(now: at(1)).members.first?.id == "early")
        #expect(room.starsLit == 1)
        room.leave("early")
        for id in ["a", "b"] { room.receive(HeartSample(previous: id == "a" ? 70 : 72, current: 70, seq: 3), from: id, now: at(2)) }
        _ = room.update(now: at(2))
        #expect(room.starsLit == 1)
        // A crowd of new pairs at once: all counted, at most 64 shine.
        var big = Room<Instant>(name: "big", capacity: 100)
        for i in 0..<40 {
            big.join("m\(i)", record("m\(i)", Double(i)), now: t0)
            big.receive(HeartSample(previous: 120, current: 120 + Double(i) * 0.01, seq: 1), from: "m\(i)", now: t0)
        }
        #expect(big.update(now: t0).stars == Room<Instant>.mostStars)
        #expect(big.starsLit == 40 * 39 / 2)
    }

    @Test func everyKioskComputesTheSameRoomWhateverTheOrderOfArrival() {
        var random = SeededRandom(seed: 42)
        var messages: [(MemberID, HeartSample)] = []
        for id in (0..<12).map({ "k\($0)" }) {
            var previous = random.next(in: 60...90)
            for seq in 1...5 {
                let current = previous + random.next(in: -4...4)
                messages.append((id, HeartSample(previous: previous, current: current, seq: seq)))
                previous = current
            }
        }
        func kiosk(_ order: [(MemberID, HeartSample)]) -> RoomState {
            var room = Room<Instant>(name: "shared")
            for i in 0..<12 { room.join("k\(i)", record("k\(i)", Double(i)), now: t0) }
            for (id, sample) in order { room.receive(sample, from: id, now: t0) }
            return room.update(now: t0)
        }
        var shuffled = messages
        for i in shuffled.indices.reversed() { shuffled.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        #expect(kiosk(messages) == kiosk(shuffled))
    }

    @Test func namesAreSeededAndUniqueInTheRoom() {
        let name = MemberNames.name(for: "kiosk-a.ble.C47C", avoiding: [])
        #expect(name == MemberNames.name(for: "kiosk-a.ble.C47C", avoiding: []))
        #expect(name.range(of: "^[a-z]+_[a-z]+[0-9]{4}$", options: .regularExpression) != nil)
        #expect(MemberNames.name(for: "kiosk-a.ble.C47C", avoiding: [name]) != name)
        #expect(MemberNames.adjectives.count == 100 && MemberNames.animals.count == 100)
        #expect(Set(MemberNames.adjectives).count == 100 && Set(MemberNames.animals).count == 100)
    }

    @Test func theMembersColoursAreARainbowHandedOutLeastUsedFirst() {
        #expect(Palette.colours.count == 20 && Set(Palette.colours).count == 20)
        #expect(Palette.colours.allSatisfy { Palette.rgb($0) != nil })
        #expect(Palette.colour(avoiding: []) == Palette.colours[0])
        #expect(Palette.colour(avoiding: [Palette.colours[0]]) == Palette.colours[1])
    }
}
