import FlapClocks
import FlapCore
import FlapHardware
import FlapSimulated
import TestSupport
import Testing

/// The RS-485 driver against a bus of simulated modules that read the bytes as firmware v7
/// does, over a simulated cable at 9600 baud, in simulated time that waits for every party.
@Suite(.cleansUp, .serialized, .timeLimit(.minutes(2))) struct RS485PanelTests {
    struct Rig {
        let clock: EventClock
        let bus: SimulatedRS485Bus<EventClock>
        let panel: RS485Panel<EventClock>
        let size: BoardSize
        let running: Task<Void, any Error>
        let host: SimulatedSerialPort<EventClock>
        let ids: [Int]

        static func make(
            rows: Int, columns: Int, ids: [Int]? = nil, moduleSteps: Int = 4096, serials: [String?]? = nil,
            firmware: RS485Firmware? = nil, onTheBus: [Int]? = nil, unnumbered: [String] = [], ownReels: [Int: RS485Reel] = [:],
            wrap: @escaping @Sendable (any SerialPort, EventClock) -> any SerialPort = { port, _ in port }
        ) async -> Rig {
            let clock = EventClock.drivenByCaller()
            let (host, device) = SimulatedSerialPort.pair(clock: clock, settings: .rs485, names: ("/dev/ttyUSB-simulated", "bus"))
            let size = BoardSize(rows: rows, columns: columns)
            let ids = ids ?? Array(1...size.count)
            // The modules on the bus: by default one answering to each place's ID.
            let bus = SimulatedRS485Bus(
                port: device, clock: clock, ids: onTheBus ?? ids, stepsPerRevolution: moduleSteps, serials: serials, unnumbered: unnumbered)
            let running = clock.task { await bus.run() }
            let link = RS485Bus(device: host.name, clock: clock) {
                host.reconnect()
                return wrap(host, clock)
            }
            let info = PanelInfo(id: "wall", size: size, drum: RS485Reel.firmware.drum, motion: .forwardOnly, driver: "rs485")
            let panel = RS485Panel(info: info, bus: link, clock: clock, ids: ids, firmware: firmware, ownReels: ownReels)
            await panel.start()
            return Rig(clock: clock, bus: bus, panel: panel, size: size, running: running, host: host, ids: ids)
        }

        /// flapd started again on the same wall: a new panel, its modules as they were.
        func restarted(firmware: RS485Firmware? = nil) async -> RS485Panel<EventClock> {
            try? await clock.standingAside { await panel.shutDown() }
            let link = RS485Bus(device: host.name, clock: clock) { [host] in
                host.reconnect()
                return host
            }
            let again = RS485Panel(info: panel.info, bus: link, clock: clock, ids: ids, firmware: firmware)
            await again.start()
            return again
        }

        func plan(to text: String) async throws -> FlipPlan {
            var planner = try FlipPlanner(drum: panel.info.drum)
            planner.time(by: await panel.planTiming())
            let target = try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows)
            return try planner.plan(from: await panel.positions().map { ModuleMotion(position: $0) }, to: target)
        }

        /// The reel index each module shows, as the drum index the board means.
        func shown() async -> [Int?] {
            await bus.flaps().map { $0.flatMap { index in RS485Reel.firmware.reelIndex.firstIndex(of: index) } }
        }

        func stop() async {
            try? await clock.standingAside {
                await panel.shutDown()
                running.cancel()
                _ = await running.result
            }
        }
    }

    @Test func theWallHomesThenShowsAMessageLandingWhenThePlanSays() async throws {
        let rig = await Rig.make(rows: 2, columns: 4)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        #expect(await rig.shown() == Array(repeating: 0, count: 8), "every module home at start")
        let plan = try await rig.plan(to: "HI {63}\n\"Q\"9")
        let started = rig.clock.now
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets.map(Optional.some))
        #expect(await rig.panel.positions() == plan.targets)
        // Each flap the reels landed on, against the plan's landing for it.
        let landings = await rig.bus.landings
        var gaps: [Duration] = []
        for (i, module) in plan.modules.enumerated() where module.path.count > 1 {
            // The reel's `*` lands too, unplanned: no board character asks for it.
            let real = landings.filter { $0.module == i && $0.at >= started && RS485Reel.firmware.reelIndex.contains($0.flap) }
                .map { started.duration(to: $0.at) }
            #expect(real.count == module.landings.count, "module \(i): \(real.count) flaps landed, \(module.landings.count) planned")
            gaps += zip(real, module.landings).map { $0 > $1 ? $0 - $1 : $1 - $0 }
        }
        let worst = try #require(gaps.max())
        print("rs485: largest gap between the plan and the reels \(worst) over \(gaps.count) landings")
        // The firmware takes its first step a millisecond after the frame: under 2 ms.
        #expect(worst < .milliseconds(2), "largest gap \(worst)")
        // The frames went out one at a time, in the plan's order, each module its own character.
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(sent.hasPrefix("\nm*h\n"))
        #expect(sent.contains("\nm01-H\n") && sent.contains("\nm02-I\n") && sent.contains("\nm04-r\n") && sent.contains("\nm05-q\n"))
        #expect(await rig.panel.health() == PanelHealth(connected: true, faults: []))
    }

    @Test func theWallsTimingIsOneValueItGives() async throws {
        let rig = await Rig.make(rows: 1, columns: 2)
        teardown { await rig.stop() }
        // Asked as any panel is, so the driver's own timing is the one the motion loop gets.
        let panel: any Panel = rig.panel
        let timing = await panel.planTiming()
        #expect(timing.stepper == rig.panel.profile && timing.frameInterval == RS485Frame.showInterval && timing.commandInterval == nil)
        #expect(timing.moduleSteppers == nil, "every module turns as the reel does until one says otherwise")
    }

    @Test func storedFlapPositionsTimeThePlansAndAreReadBackAfterARestart() async throws {
        let rig = await Rig.make(rows: 1, columns: 2)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        #expect(await rig.panel.moduleSteppers() == nil, "no module has a stored position yet")
        // The second module's A flap stored 40 half-steps (40 ms) past the firmware's own place.
        let reel = RS485Reel.firmware
        let a = try #require(reel.drum.index(of: CharacterCode(character: "A")!))
        let place = reel.profile().step(ofFlap: a)
        try await rig.panel.command(.storeFlap(reel.reelIndex[a], step: place + 40), module: 1)
        let steppers = try #require(await rig.panel.moduleSteppers())
        #expect(steppers[0] == reel.profile() && steppers[1].step(ofFlap: a) == place + 40)

        // The command's frame crosses the bus first (a play would be revised to start behind it).
        try await rig.clock.sleep(for: .milliseconds(20), tolerance: nil)
        let plan = try await rig.plan(to: "AA")
        let started = rig.clock.now
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        let landings = await rig.bus.landings
        var gaps: [Duration] = []
        for (i, module) in plan.modules.enumerated() {
            let real = landings.filter { $0.module == i && $0.at >= started && $0.flap == reel.reelIndex[a] }.map { started.duration(to: $0.at) }
            #expect(real.count == 1 && module.landings.count == 1, "module \(i): \(real)")
            gaps += zip(real, module.landings).map { $0 > $1 ? $0 - $1 : $1 - $0 }
        }
        // The plan has the second module land 40 ms after its start later than the first, as its reel does.
        let lateness = (plan.modules[1].landings[0] - plan.modules[1].start) - (plan.modules[0].landings[0] - plan.modules[0].start)
        #expect(lateness == .milliseconds(40), "\(lateness)")
        #expect(gaps.count == 2 && gaps.allSatisfy { $0 < .milliseconds(2) }, "gaps \(gaps)")

        // flapd started again: the modules kept their calibration, and tell it in their dump.
        let again = await rig.restarted()
        teardown { try? await rig.clock.standingAside { await again.shutDown() } }
        try await again.homed()
        #expect(await again.moduleSteppers() == steppers)
        let sent = String(decoding: await rig.bus.received.map(\.byte), as: UTF8.self)
        #expect(sent.contains("\nm01d\n") && sent.contains("\nm02d\n"), "each module asked for its dump once home")
    }

    @Test func aFrameStillOnTheBusDelaysThePlayAndThePlanIsRevisedToMatch() async throws {
        let rig = await Rig.make(rows: 1, columns: 1)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        // A command's frame (11 bytes, about 11 ms) is still crossing the bus as the play starts.
        try await rig.panel.command(.offset(12), module: 0)
        let plan = try await rig.plan(to: "B")
        let revisions = await rig.panel.revisions()
        let started = rig.clock.now
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        var seen = revisions.makeAsyncIterator()
        let revised = try #require(await seen.next()).revised
        let reel = RS485Reel.firmware
        let b = try #require(reel.drum.index(of: CharacterCode(character: "B")!))
        let real = await rig.bus.landings.filter { $0.at >= started && $0.flap == reel.reelIndex[b] }.map { started.duration(to: $0.at) }
        let late = revised.modules[0].landings.last! - plan.modules[0].landings.last!
        #expect(late > .milliseconds(5), "the revision starts behind the command's frame: \(late)")
        let gap = real.count == 1 ? abs((real[0] - revised.modules[0].landings.last!) / .milliseconds(1)) : .infinity
        #expect(gap < 2, "the reel landed \(real), the revision said \(revised.modules[0].landings)")
    }

    @Test func framesForATurningModuleWaitUntilItLands() async throws {
        let rig = await Rig.make(rows: 1, columns: 2)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        // A plan cut short: the first module is sent W and turns on; the next plan waits for it.
        let long = try await rig.plan(to: "WW")
        let cutoff = PlayCutoff()
        // Joined: time waits for the play to send its first frame, however late its task starts
        // on a busy machine (else the 200 ms could pass before the play read the clock).
        let playing = rig.clock.joinedTask { try await rig.panel.play(long, cutoff: cutoff) }
        try await rig.clock.sleep(for: .milliseconds(200), tolerance: nil)
        cutoff.cut(at: .milliseconds(200))
        playing.cancel()
        _ = try await rig.clock.standingAside { await playing.result }
        let next = try await rig.plan(to: "AB")
        let revisions = await rig.panel.revisions()
        let started = rig.clock.now
        try await rig.panel.play(next, cutoff: PlayCutoff())
        var revisionsSeen = revisions.makeAsyncIterator()
        var last: PlanRevision?
        while let revision = await revisionsSeen.next() {
            last = revision
            if revision.revised.modules.allSatisfy({ $0.path.count > 1 }) { break }
        }
        let revised = try #require(last, "the plan was revised for the modules still turning").revised
        // Revised: each turns on to W, then from W to its new flap; the reels land as the revision says.
        let landings = await rig.bus.landings
        for (i, module) in revised.modules.enumerated() {
            #expect(module.path.first == RS485Reel.firmware.drum.index(of: CharacterCode(character: "W")!))
            // From half a flap after its start: W's own landing comes just before the frame.
            let from = started.advanced(by: module.start + .milliseconds(32))
            let real = landings.filter { $0.module == i && $0.at > from && RS485Reel.firmware.reelIndex.contains($0.flap) }
                .map { started.duration(to: $0.at) }
            #expect(real.count == module.landings.count)
            let worst = zip(real, module.landings).map { $0 > $1 ? $0 - $1 : $1 - $0 }.max() ?? .zero
            #expect(worst < .milliseconds(2), "module \(i): largest gap \(worst)")
        }
        let drum = RS485Reel.firmware.drum
        let (shown, flaps, received) = (await rig.shown(), await rig.bus.flaps(), await rig.bus.received)
        #expect(
            shown == [drum.index(of: CharacterCode(character: "A")!), drum.index(of: CharacterCode(character: "B")!)],
            "\(flaps), sent \(String(decoding: received.map(\.byte), as: UTF8.self).debugDescription), plan \(next.modules.map { ($0.start, $0.path) })"
        )
        #expect(await rig.bus.module(0).dropped == 0, "nothing lost while it turned")
    }

    @Test func commandsReachOneModuleAndItsAnswersAreRead() async throws {
        let rig = await Rig.make(rows: 1, columns: 2)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        #expect(try await rig.panel.command(.offset(30), module: 1) == RS485Exchange(sent: "m02o30"))
        #expect(try await rig.panel.command(.storeFlap(5, step: 321), module: 1).answer == nil)
        #expect(try await rig.panel.command(.dump, module: 1).answer == .dump(id: 2, offset: 30, steps: 4096, positions: [5: 321]))
        #expect(try await rig.panel.command(.calibrate, module: 0).answer == .revolution(id: 1, steps: 4096))
        // The frame went to the module's old ID, and says so.
        #expect(try await rig.panel.command(.setID(7), module: 1) == RS485Exchange(sent: "m02i7"))
        try await rig.clock.sleep(for: .milliseconds(20), tolerance: nil)  // the frame across the bus
        let (renumbered, ids) = (await rig.bus.module(1).id, await rig.panel.ids)
        #expect(renumbered == 7 && ids == [1, 7])
        // Both still show the next board, the renumbered one by its new ID.
        let plan = try await rig.plan(to: "OK")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets.map(Optional.some))
    }

    @Test func numbersTheFirmwareCannotMeanAreRefusedBeforeAnythingIsSent() async throws {
        let rig = await Rig.make(rows: 1, columns: 2)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        let before = await rig.bus.received.count
        let refused: [(RS485Command, RS485CommandRefusal)] = [
            (.nudge(1_000_000_000_000), .outOfRange("a nudge", value: 1_000_000_000_000, allowed: 1...4095)),
            (.nudge(0), .outOfRange("a nudge", value: 0, allowed: 1...4095)),
            (.offset(-1), .outOfRange("an offset", value: -1, allowed: 0...4095)),
            (.offset(4096), .outOfRange("an offset", value: 4096, allowed: 0...4095)),
            (.storeFlap(3, step: 99_999_999_999), .outOfRange("a stored position", value: 99_999_999_999, allowed: 0...4095)),
            (.storeFlap(64, step: 10), .outOfRange("a flap's place on the reel", value: 64, allowed: 0...63)),
            (.setID(0), .outOfRange("a module's ID", value: 0, allowed: 1...999)),
            (.setID(1000), .outOfRange("a module's ID", value: 1000, allowed: 1...999)),
            (.setID(1), .idTaken(1))
        ]
        for (command, refusal) in refused {
            await #expect(throws: refusal, "\(command)") { try await rig.panel.command(command, module: 1) }
        }
        #expect(await rig.bus.received.count == before, "nothing went on the bus")
        #expect(
            "\(RS485CommandRefusal.outOfRange("a nudge", value: 1_000_000_000_000, allowed: 1...4095))"
                == "a nudge is 1 to 4095 for this module, not 1000000000000")
        // The longest nudge a module can mean is accepted, and the wall goes on.
        #expect(try await rig.panel.command(.nudge(4095), module: 1).sent == "m02s4095")
        let plan = try await rig.plan(to: "OK")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets.map(Optional.some))
    }

    @Test func commandsSentTogetherAreAllAnsweredEachByItsOwnModule() async throws {
        let rig = await Rig.make(rows: 2, columns: 4)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        let panel = rig.panel
        // Eight at once, each a task on the simulated clock.
        let commands = (0..<8).map { index in rig.clock.task { try await panel.command(.dump, module: index).answer } }
        let answers = try await rig.clock.standingAside { () async throws -> [Int: RS485Answer?] in
            var answers: [Int: RS485Answer?] = [:]
            for (index, command) in commands.enumerated() { answers[index] = try await command.value }
            return answers
        }
        for index in 0..<8 {
            guard case .dump(let id, _, _, _)? = answers[index] else {
                Issue.record("module \(index + 1) gave no dump: \(String(describing: answers[index]))")
                continue
            }
            #expect(id == index + 1)
        }
    }

    @Test func aRevolutionNoModuleCanHaveIsNotBelieved() async throws {
        // A module that says a turn is 100 steps: fewer than two a flap of its 64.
        let rig = await Rig.make(rows: 1, columns: 1, moduleSteps: 100)
        teardown { await rig.stop() }
        let notices = await rig.panel.notices()
        try await rig.panel.homed()
        #expect(try await rig.panel.command(.dump, module: 0).answer == .dump(id: 1, offset: 0, steps: 100, positions: [:]))
        let told = await rig.clock.standingAside { () async -> String? in
            for await notice in notices where notice.text.contains("revolution") { return notice.text }
            return nil
        }
        #expect(told == "/dev/ttyUSB-simulated: module 1 says a revolution is 100 steps, outside 128...65535; ignored")
        #expect(await rig.panel.moduleSteppers() == nil, "planned with the reel's own turn")
    }

    @Test func aWallStoppedMidTurnIsHomeBeforeFlapdSaysSo() async throws {
        let rig = await Rig.make(rows: 1, columns: 2)
        teardown { await rig.stop() }
        try await rig.panel.homed()
        // Magnets just past flap 1, so a module home at flap 0 is 4000 steps past its magnet.
        for module in 0..<2 { _ = try await rig.panel.command(.offset(4000), module: module) }
        try await rig.panel.play(try await rig.plan(to: "CC"), cutoff: PlayCutoff())
        // flapd is stopped (SIGKILL) while the modules turn almost a whole turn, from C to B,
        // which leaves them just past the magnet: homing then takes them nearly two more turns.
        let (panel, plan) = (rig.panel, try await rig.plan(to: "BB"))
        let playing = rig.clock.joinedTask { try await panel.play(plan, cutoff: PlayCutoff()) }
        try await rig.clock.sleep(for: .milliseconds(300), tolerance: nil)
        playing.cancel()
        _ = await rig.clock.standingAside { await playing.result }
        let again = await rig.restarted()
        teardown { try? await rig.clock.standingAside { await again.shutDown() } }
        try await again.homed()
        #expect(await rig.bus.resting(), "flapd says the wall is home only once every module rests")
        #expect(await rig.bus.flaps() == [0, 0])
    }

    @Test func framesWrittenLateAreFollowedAndNothingIsReportedBeforeItLands() async throws {
        // A machine so busy that every frame leaves 40 ms after flapd meant to write it.
        let rig = await Rig.make(rows: 2, columns: 8) { port, clock in StalledPort(port: port, clock: clock, stall: .milliseconds(40)) }
        teardown { await rig.stop() }
        try await rig.panel.homed()
        let revisions = await rig.panel.revisions()
        for text in ["QUICK ONE", "AND TWO {63}"] {
            let plan = try await rig.plan(to: text)
            try await rig.panel.play(plan, cutoff: PlayCutoff())
            #expect(await rig.bus.resting(), "the play ends only once every module has landed: \(text)")
            #expect(await rig.shown() == plan.targets.map(Optional.some), "\(text)")
        }
        #expect(await (0..<16).asyncMap { await rig.bus.module($0).dropped }.allSatisfy { $0 == 0 })
        // Said as revisions, which the clacks follow.
        let told = await rig.clock.standingAside { () async -> Bool in
            for await _ in revisions { return true }
            return false
        }
        #expect(told)
    }

    @Test func whatTheBusSaysThatIsNoAnswerIsToldNeverFatal() async throws {
        let rig = await Rig.make(rows: 1, columns: 2)
        teardown { await rig.stop() }
        let notices = await rig.panel.notices()
        try await rig.panel.homed()
        await rig.bus.sendGarbage(Array("m05x:1\nhello\n".utf8))
        // Waited for off the clock, which moves meanwhile: the bytes cross the line, the driver reads.
        let told = await rig.clock.standingAside { () async -> [String] in
            var told: [String] = []
            for await notice in notices where notice.level == .warning {
                told.append(notice.text)
                if told.count == 2 { break }
            }
            return told
        }
        #expect(
            told == [
                "/dev/ttyUSB-simulated: the bus said \"m05x:1\": column 4: after the ID comes : (a revolution), d (a dump), v (a version), A (its state), or T, Q or M (a test)",
                "/dev/ttyUSB-simulated: the bus said \"hello\": column 1: an answer starts with m"
            ], "\(told)")
        // The panel goes on: the next board lands.
        let plan = try await rig.plan(to: "GO")
        try await rig.panel.play(plan, cutoff: PlayCutoff())
        #expect(await rig.shown() == plan.targets.map(Optional.some))
    }
}

/// A serial port whose writes leave `stall` late on the simulated clock, as on a machine too busy
/// to run flapd when it meant to.
struct StalledPort: SerialPort {
    let port: any SerialPort
    let clock: EventClock
    let stall: Duration

    var name: String { port.name }
    func write(_ bytes: [UInt8]) async throws {
        try await clock.sleep(for: stall, tolerance: nil)
        try await port.write(bytes)
    }
    func read(maximum: Int, timeout: Duration) async throws -> [UInt8] { try await port.read(maximum: maximum, timeout: timeout) }
    func close() async { await port.close() }
}

extension Range where Bound == Int {
    fileprivate func asyncMap<T>(_ transform: (Int) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
