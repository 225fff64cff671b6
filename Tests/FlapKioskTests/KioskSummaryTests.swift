import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import Foundation
import TestSupport
import Testing
import Wematch

@testable import FlapKiosk

/// The room in words, planned like any message and played on a simulated split-flap panel.
@Suite struct KioskSummaryTests {
    let t0 = ManualClock().now
    let joined = Date(timeIntervalSince1970: 1_795_000_000)

    func state(_ points: [(MemberID, Double, Double)]) -> RoomState {
        var room = Room<ManualClock.Instant>(name: "lobby")
        for (index, (id, previous, current)) in points.enumerated() {
            room.join(
                id, MemberRecord(name: id, colour: Palette.colours[index * 5 % 20], joinedAt: joined.addingTimeInterval(Double(index))), now: t0)
            room.receive(HeartSample(previous: previous, current: current, seq: 1), from: id, now: t0)
        }
        return room.update(now: t0)
    }

    @Test func theSummaryIsPlannedAndLandsOnASimulatedPanel() async throws {
        // a–b–c a path (chain 3), d alone.
        let state = state([("a", 71, 71), ("b", 75, 71), ("c", 79, 71), ("d", 150, 150)])
        let board = KioskSummary.board(state, size: .flagship)
        let clock = ManualClock()
        let info = PanelInfo(id: "main", size: .flagship, drum: .vestaboard, motion: .forwardOnly, driver: "simulated")
        let panel = SimulatedPanel(info: info, clock: clock)
        let plan = try FlipPlanner().plan(from: Board(size: .flagship), to: board)
        let playing = Task { try await panel.play(plan, cutoff: PlayCutoff()) }
        while !clock.hasSleepers { await Task.yield() }
        await clock.advance(by: plan.duration + .seconds(1))
        try await playing.value
        let shown = Board(size: .flagship, positions: await panel.positions(), drum: .vestaboard)
        #expect(shown == board)
        let text = BoardText.plain(shown)
        #expect(text.contains("LOBBY"))
        #expect(text.contains("4 HERE  3 SYNCED"))
        #expect(text.contains("LONGEST CHAIN 3"))
        // Chips: the cluster's three together, a gap, then d; in the members' palette colours.
        let chipRow = shown.rows.first { $0.contains { $0.colour != nil } }!
        let chips = chipRow.map { $0.colour.map { String($0.letter) } ?? " " }.joined().trimmingCharacters(in: .whitespaces)
        let expected =
            ["a", "b", "c"].map { id in String(KioskSummary.chip(state.members.first { $0.id == id }!.colour).letter) }.joined()
            + " " + String(KioskSummary.chip(state.members[3].colour).letter)
        #expect(chips == expected)
        // No number on it but the counts and the chain.
        let digits = text.filter(\.isNumber)
        #expect(digits == "433")
    }

    @Test func smallBoardsGetTheShortForms() {
        let state = state([("a", 71, 71), ("b", 74, 71)])
        for size in [BoardSize(rows: 1, columns: 8), BoardSize(rows: 2, columns: 16), BoardSize(rows: 3, columns: 15)] {
            let text = BoardText.plain(KioskSummary.board(state, size: size))
            #expect(text.contains("2"), "\(size): \(text)")
        }
        #expect(BoardText.plain(KioskSummary.board(state, size: BoardSize(rows: 2, columns: 16))).contains("2 HERE  2 SYNCED"))
    }

    @Test func chipsAreTheNearestBoardColours() {
        #expect(KioskSummary.chip("#ff0000") == .red)
        #expect(KioskSummary.chip("#00ff00") == .green)
        #expect(KioskSummary.chip("#0000ff") == .blue)
        #expect(KioskSummary.chip("#ffff00") == .yellow)
        #expect(KioskSummary.chip("not a colour") == .white)
    }
}
