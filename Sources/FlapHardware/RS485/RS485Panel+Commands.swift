import FlapCore

/// The firmware's own commands, one module at a time: calibration from flapctl and the page.
extension RS485Panel {
    /// Sends the module of cell `index` (row-major) a command of its firmware's own, once it
    /// has landed and no other command is talking with a module; `c` and `d` are answered, and
    /// their answer awaited (a revolution measured takes up to three turns). A turn the command
    /// makes leaves the module home (`h`, `c`) or where it was in the offset's terms (`s`), so
    /// flapd still knows its flap. A number the firmware cannot mean is refused before anything
    /// is sent (``RS485CommandRefusal``).
    public func command(_ command: RS485Command, module index: Int) async throws -> RS485Exchange {
        try check(command, module: index)
        try await homed()
        await takeTheBus()
        defer { releaseTheBus() }
        if let busy = busyUntil[index], busy > clock.now { try await clock.sleep(until: busy, tolerance: nil) }
        // A turning module answers nothing: its firmware is asked once it rests.
        if firmwares[index] == nil, !RS485Firmware.v7.knows(command) { try await askFirmware(module: index) }
        // Checked again: another command may have changed the module's revolution or the IDs,
        // and its firmware may be known now.
        try check(command, module: index)
        await bus.discardAnswers()
        let frame = frame(command, module: index)
        try await bus.send(frame)
        let exchange = RS485Exchange(sent: String(decoding: frame.filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
        let answeringID = ids[index]
        let motion = profile(of: index)
        let turn = motion.duration(steps: motion.stepsPerTurn)
        switch command {
        case .home, .calibrate:
            estimated[index] = 0
            committed[index] = 0
            busyUntil[index] = clock.now.advanced(by: turn * (command == .calibrate ? 3 : 2))
        case .nudge(let steps):
            busyUntil[index] = clock.now.advanced(by: motion.duration(steps: steps))
        case .setID(let id):
            ids[index] = id
        case .storeFlap(let flap, let step):
            stored[index][flap] = step
        case .erase:
            stored[index] = [:]
        case .stepsPerRevolution(let steps):
            revolutions[index] = steps
        case .hallTest, .mechanicalTest:
            busyUntil[index] = clock.now.advanced(by: turn * command.turns)
        default: break
        }
        guard command.isAnswered else { return exchange }
        let wait = turn * command.turns + .seconds(2)
        guard let answer = try await bus.answer(from: answeringID, within: wait) else {
            throw HardwareError(
                device: bus.device, problem: "module \(answeringID) did not answer within \(wait)",
                remedy: "is its ID right (flapctl modules dump), and its transceiver on the bus?")
        }
        learn(answer, module: index)
        if command.turns > 0, command != .calibrate {
            // A test leaves the reel where its last turn ended: home, it is where flapd thinks.
            try await bus.send(RS485Frame.encode(.home, to: .module(answeringID)))
            estimated[index] = 0
            committed[index] = 0
            busyUntil[index] = clock.now.advanced(by: turn * 2)
        }
        return RS485Exchange(sent: exchange.sent, answer: answer)
    }

    /// Refuses a command module `index`'s firmware does not know (a test asked of v7), or whose
    /// numbers it cannot mean: a turn, offset or position past one revolution of that module, a
    /// flap past the reel, an ID outside 1–999 or another module's.
    public func check(_ command: RS485Command, module index: Int) throws(RS485CommandRefusal) {
        let turn = 0...(revolutions[index] - 1)
        func within(_ value: Int, _ allowed: ClosedRange<Int>, _ what: String) throws(RS485CommandRefusal) {
            guard allowed.contains(value) else { throw .outOfRange(what, value: value, allowed: allowed) }
        }
        if let firmware = firmwares[index], !firmware.knows(command) {
            throw .unknownToFirmware(command.said, id: ids[index], firmware: firmware)
        }
        switch command {
        case .offset(let steps): try within(steps, turn, "an offset")
        case .nudge(let steps): try within(steps, 1...turn.upperBound, "a nudge")
        case .goToStep(let step): try within(step, turn, "a step")
        case .storeFlap(let flap, let step):
            try within(flap, 0...(reels[index].bytes.count - 1), "a flap's place on the reel")
            try within(step, turn, "a stored position")
        case .stepsPerRevolution(let steps): try within(steps, reels[index].revolutions, "a revolution")
        case .setID(let id):
            try within(id, 1...999, "a module's ID")
            if ids.enumerated().contains(where: { $0.element == id && $0.offset != index }) { throw .idTaken(id) }
        case .mechanicalTest(let turns?): try within(turns, RS485Command.testTurns, "a motor test's turns")
        case .show, .home, .calibrate, .autoHome, .dump, .version, .about, .erase, .hallTest, .diagnostics, .mechanicalTest, .flaps: break
        }
    }

    /// Waits until no other command is talking with a module.
    func takeTheBus() async {
        guard exchanging else {
            exchanging = true
            return
        }
        await withCheckedContinuation { waitingToExchange.append($0) }
    }

    /// Hands the bus to the next command in line.
    func releaseTheBus() {
        if waitingToExchange.isEmpty { exchanging = false } else { waitingToExchange.removeFirst().resume() }
    }
}
