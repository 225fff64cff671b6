import FlapClocks
import FlapCore
import FlapHardware
import FlapLinux
import FlapSimulated
import TestSupport
import Testing

/// The Chainlink driver against the simulated controller over a simulated cable, in simulated
/// time that waits for every party (``EventClock``): a busy machine makes these tests slower,
/// never different. One test crosses a real pseudo-terminal on the real clock.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct ChainlinkPanelTests {
    @Test func discoversTheControllerAndChangesTheWholeBoard() async throws {
        // Rotors anywhere on the turn: each module homes first.
        let rig = try await ChainlinkRig<EventClock>.inMemory(rows: 2, columns: 6, rotorSteps: (0..<12).map { $0 * 170 })
        teardown { await rig.stop() }
        #expect(rig.panel.info.drum.codes == Drum.chainlink52.codes)
        try await rig.homed()
        let plan = try await rig.plan(to: "HELLO\nWORLD!")
        let started = rig.clock.now
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let took = started.duration(to: rig.clock.now)
        #expect(await rig.controller.flaps() == plan.targets)
        #expect(await rig.panel.positions() == plan.targets)
        // Done when the controller says so, which is after the model's estimate.
        #expect(took >= plan.duration, "took \(took), estimated \(plan.duration)")
        // At most one whole-board command per distinct start time (the cascade test times them).
        let commands = Set(plan.modules.filter { $0.path.count > 1 }.map(\.start)).count
        #expect(await (1...commands).contains(rig.controller.configArrivals.count))
        #expect(await rig.panel.health() == PanelHealth(connected: true, faults: []))
    }

    @Test func overARealPseudoTerminalTheBoardChangesToo() async throws {
        // The real clock: only the outcome is asserted, which a loaded machine only delays.
        let rig = try await ChainlinkRig<ContinuousClock>.overPseudoTerminal(rows: 1, columns: 4)
        teardown { await rig.stop() }
        try await rig.homed()
        let plan = try await rig.plan(to: "TTY!")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.controller.flaps() == plan.targets)
        #expect(await rig.panel.positions() == plan.targets)
    }

    @Test func aCascadeIsSentAsTimedCommandsTheLinkCanCarry() async throws {
        let rig = try await ChainlinkRig<EventClock>.inMemory(rows: 3, columns: 8)
        teardown { await rig.stop() }
        try await rig.homed()
        let before = await rig.controller.configs.count
        let plan = try await rig.plan(to: "ABCDEFGH\nIJKLMNOP\nQRSTUVWX")
        let started = rig.clock.now
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let configs = await rig.controller.configs.dropFirst(before)
        let starts = Set(plan.modules.map(\.start)).sorted()
        let interval = ChainlinkPanel<EventClock>.commandInterval(modules: 24)
        #expect(starts.count > 3 && zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 >= interval })
        // One command per start time at most (a late one merges into the next), never early, and
        // each one starts the modules the cascade starts next: a module planned to start later
        // never gets its target before one planned earlier.
        #expect((1...starts.count).contains(configs.count), "\(configs.count) commands for \(starts.count) start times")
        var firstCommand: [Int: Int] = [:]
        for (k, config) in configs.enumerated() {
            for (i, target) in config.targets.enumerated() where target == plan.targets[i] && firstCommand[i] == nil { firstCommand[i] = k }
        }
        for a in plan.modules.indices where plan.modules[a].path.count > 1 {
            let planned = plan.modules[a].start
            #expect(started.duration(to: configs[configs.startIndex + firstCommand[a]!].arrived) >= planned, "module \(a) started early")
            for b in plan.modules.indices where plan.modules[b].path.count > 1 && plan.modules[b].start > planned {
                #expect(firstCommand[a]! <= firstCommand[b]!, "module \(b) was sent before module \(a)")
            }
        }
        #expect(await rig.controller.flaps() == plan.targets)
    }

    @Test func aForcedFullTurnChangesTheMovementNonce() async throws {
        let rig = try await ChainlinkRig<EventClock>.inMemory(rows: 1, columns: 4)
        teardown { await rig.stop() }
        try await rig.homed()
        let first = try await rig.plan(to: "ABCD")
        try await rig.panel.play(first, cutoff: PlayCutoff())
        let turnedBefore = await (0..<4).asyncMap { await rig.controller.module($0).mechanism.stepsTurned }
        // Module 2 goes once round and back to C; the others stay.
        var plan = try await rig.plan(to: "ABCD")
        let c = plan.modules[2].path[0]
        plan.modules[2].path = (0...52).map { (c + $0) % 52 }
        plan.modules[2].landings = rig.panel.profile.landings(from: c, flaps: 52)
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let turned = await (0..<4).asyncMap { await rig.controller.module($0).mechanism.stepsTurned }
        #expect(zip(turned, turnedBefore).map { $0 - $1 } == [0, 0, 2048, 0])
        #expect(await rig.controller.flaps() == first.targets)
    }

    @Test func aModuleWhoseSensorNeverFiresIsReportedAndReHomedWhileTheRestWorks() async throws {
        let rig = try await ChainlinkRig<EventClock>.inMemory(rows: 2, columns: 3) { controller in
            await controller.setSensorFault(.neverFires, module: 4)
        }
        teardown { await rig.stop() }
        // Homing gives up after a turn and two flaps: sensor error at row 2, column 2.
        try await rig.wait(upTo: .seconds(90), "the sensor error") { await !rig.panel.health().faults.isEmpty }
        #expect(await rig.panel.health().faults == [ModuleFault(row: 2, column: 2, kind: .sensorError)])
        // The other modules take a new board meanwhile.
        let plan = try await rig.plan(to: "ABC\nDEF")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let flaps = await rig.controller.flaps()
        #expect(flaps.enumerated().filter { $0.offset != 4 }.map(\.element) == plan.targets.enumerated().filter { $0.offset != 4 }.map(\.element))
        // The sensor is fixed; the driver's next re-home finds it and the module catches up.
        await rig.controller.setSensorFault(.none, module: 4)
        // As for direct drive: the next re-homing comes after the backoff reached so far.
        let attempts = await rig.panel.health().faults.first?.attempts ?? 0
        typealias Watch = ModuleFaultWatch<EventClock.Instant>
        let backoff = min(Watch.firstRehomeDelay * (1 << min(attempts + 1, 10)), Watch.rehomeBackoffLimit)
        try await rig.wait(upTo: max(.seconds(120), backoff + .seconds(30)), "the recovery") {
            let flaps = await rig.controller.flaps()
            return await rig.panel.health().faults.isEmpty && flaps == plan.targets
        }
        #expect(await rig.panel.health().faults.isEmpty)
    }

    @Test func aControllerThatStopsAnsweringIsResentToUntilItComesBack() async throws {
        let rig = try await ChainlinkRig<EventClock>.inMemory(rows: 1, columns: 6)
        teardown { await rig.stop() }
        try await rig.homed()
        await rig.controller.setSilent(true)
        // The longest way round (@ is the drum's 50th flap), so that plenty of the plan's estimate
        // is left when the controller answers again, however slowly the machine got there.
        let plan = try await rig.plan(to: "@@@@@@")
        let notices = await rig.panel.notices()
        let revisions = await rig.panel.revisions()
        let started = rig.clock.now
        let playing = rig.clock.task { try await rig.panel.play(plan, cutoff: PlayCutoff()) }
        try await rig.wait(upTo: .seconds(20), "the link to notice") { await !rig.panel.health().connected }
        #expect(await rig.link.resends >= 3)
        // What was left of the plan's estimate when the controller answered again: a machine
        // stalled for longer than the whole plan leaves no landing to move later.
        let left = plan.duration - started.duration(to: rig.clock.now)
        await rig.controller.setSilent(false)
        try await rig.clock.standingAside { try await playing.value }
        #expect(await rig.controller.flaps() == plan.targets)
        #expect(await rig.panel.health().connected)
        let said = await rig.clock.standingAside {
            var said: [String] = []
            for await notice in notices {
                said.append(notice.text)
                if notice.text.contains("answers again") { break }
            }
            return said
        }
        #expect(said.contains { $0.contains("not answering") })
        // Simulated time waits for the test, so the link noticed within its silence limit
        // (1 s), whatever the machine's load.
        #expect(left > .milliseconds(500), "\(left) of \(plan.duration) left when the controller answered again")
        // The modules started late: the landings (and clacks) still to come were moved later.
        let latest = try await firstRevision(in: revisions, on: rig.clock, within: .seconds(60)) {
            $0.revised.duration > plan.duration + .milliseconds(500)
        }
        let revision = try #require(latest, "no revision moved the landings later (\(left) of the estimate was left)")
        #expect(revision.original == plan)
        #expect(revision.revised.duration > plan.duration + .milliseconds(500))
    }

    /// The first revision `accepted` takes, waiting at most `limit` (simulated time) for it.
    func firstRevision(
        in revisions: AsyncStream<PlanRevision>, on clock: EventClock, within limit: Duration,
        _ accepted: @escaping @Sendable (PlanRevision) -> Bool
    ) async throws -> PlanRevision? {
        try await clock.standingAside {
            try await withThrowingTaskGroup(of: PlanRevision?.self) { group in
                group.addTask { await revisions.first(where: accepted) }
                group.addTask {
                    try await clock.sleepThenLeave(for: limit)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
        }
    }

    @Test func aControllerThatRestartsGetsTheBoardAgain() async throws {
        let rig = try await ChainlinkRig<EventClock>.inMemory(rows: 1, columns: 4)
        teardown { await rig.stop() }
        try await rig.homed()
        let plan = try await rig.plan(to: "BOOT")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        // A reboot: plaintext mode, every module homes to flap 0, the config forgotten.
        await rig.controller.reboot()
        try await rig.wait(upTo: .seconds(90), "the board back after the restart") {
            let arrivals = await rig.controller.configArrivals.count
            return await rig.controller.flaps() == plan.targets && arrivals > 1
        }
    }

    @Test func garbageOnTheLineIsSkippedBothWays() async throws {
        let rig = try await ChainlinkRig<EventClock>.inMemory(rows: 1, columns: 5)
        teardown { await rig.stop() }
        try await rig.homed()
        let plan = try await rig.plan(to: "NOISE")
        let playing = rig.clock.task { try await rig.panel.play(plan, cutoff: PlayCutoff()) }
        // Controller → host: a plaintext line, random bytes with zeros, a frame with a bad CRC.
        var badCRC = ChainlinkFrame.encode(FromSplitflap.log("hello"))
        badCRC[3] ^= 0x55
        for garbage in [
            Array("{\"type\":\"debug\"}\n".utf8), [0x01, 0x00, 0xFF, 0x13, 0x37, 0x00, 0x02], badCRC, Array(repeating: 0xAA, count: 5000) + [0]
        ] {
            await rig.controller.sendGarbage(garbage)
            try await rig.clock.sleep(for: .milliseconds(30), tolerance: nil)
        }
        try await rig.clock.standingAside { try await playing.value }
        #expect(await rig.controller.flaps() == plan.targets)
        #expect(await rig.link.badFrames >= 4)
        // Host side → controller: a frame with a bad CRC is logged there and not acked.
        var frame = ChainlinkFrame.encode(ToSplitflap(nonce: 999, payload: .requestState))
        frame[2] ^= 0x01
        try await #require(rig.host).write(frame)
        try await rig.wait(upTo: .seconds(10), "the controller to reject it") { await rig.controller.rejectedFrames == 1 }
        #expect(await rig.controller.logs.contains { $0.contains("bad CRC") })
    }
}

extension Sequence where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var result: [T] = []
        for element in self { result.append(await transform(element)) }
        return result
    }
}
