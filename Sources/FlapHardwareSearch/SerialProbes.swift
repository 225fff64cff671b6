import FlapHardware

/// Each serial driver's greeting, tried on a port: what it writes, how long it listens, and what
/// it makes of the answer. Nothing here runs unless the owner asks for a search.
public enum SerialProbes {
    /// How long a Chainlink controller is listened to: its general state comes every 2 s.
    public static let chainlinkListening: Duration = .milliseconds(2500)
    /// How long an RS-485 ID is given to start its `d` answer (v7 answers after about 60 ms).
    public static let rs485Silence: Duration = .milliseconds(200)
    /// How long one module's `d` answer may take once it started: a dump of 64 stored flaps is
    /// about 500 bytes, half a second at 9600 baud.
    public static let rs485Answer: Duration = .milliseconds(1500)
    /// How long the bus is listened to after the last question: a module turning when asked
    /// (homing after power-up takes up to a revolution, about 4 s at 1 ms a half-step) is deaf
    /// until it stops, and then answers what it kept.
    public static let rs485Turn: Duration = .milliseconds(4500)
    /// How long an RS-485 bus is listened to in all before anything is broadcast: a Universal
    /// Firmware module with no ID announces itself every 10 s and up to 5 s more, and falls
    /// quiet for 30 s after any broadcast.
    public static let announcementListening: Duration = .milliseconds(15_500)
    /// Each module's turn to answer a range broadcast of `v`, after the first's 30 ms.
    public static let rangeTurn: Duration = .milliseconds(100)

    /// Asks a Chainlink controller: `#` (answered in its text mode), then a `0x00` and a request
    /// for its state (answered in frames). Nil when nothing a controller says came back.
    public static func chainlink<C: Clock>(_ port: any SerialPort, clock: C) async throws -> SerialAnswer? where C.Duration == Duration {
        try await port.write(Array("#\n".utf8) + [0] + ChainlinkFrame.encode(ToSplitflap(nonce: 1, payload: .requestState)))
        var greeting = ChainlinkGreeting()
        let deadline = clock.now.advanced(by: chainlinkListening)
        while !greeting.isDone, clock.now < deadline {
            greeting.take(try await port.read(maximum: 1024, timeout: min(.milliseconds(100), clock.now.duration(to: deadline))))
        }
        return greeting.recognised ? .chainlink(modules: greeting.modules, drum: greeting.drum) : nil
    }

    /// Asks each ID in `ids` for its dump (`d`), one at a time, as firmware v7 answers nothing
    /// else and announces nothing. A module still turning (homing after power-up) answers once
    /// its turn ends, so an answer is taken from any ID asked, whenever it comes, and the bus is
    /// listened to for ``rs485Turn`` after the last question, longer while answers still come,
    /// and until ``announcementListening`` has passed, for modules with no ID announcing
    /// themselves. Then the IDs that answered are asked `v` in one range broadcast, which only
    /// Universal Firmware answers, each module in its turn, and each Universal Firmware module
    /// `A`, for its own flaps. Nil when no module said anything.
    public static func rs485<C: Clock>(_ port: any SerialPort, clock: C, ids: ClosedRange<Int>) async throws -> SerialAnswer?
    where C.Duration == Duration {
        var survey = RS485Survey(ids: ids)
        /// Reads until `deadline`, or until `answered`; bytes arriving push the deadline to `answering` from then.
        func listen(until deadline: C.Instant, answering: Duration, answered: (RS485Survey) -> Bool = { _ in false }) async throws {
            var deadline = deadline
            while clock.now < deadline, !survey.isFull {
                let bytes = try await port.read(maximum: 1024, timeout: min(.milliseconds(50), clock.now.duration(to: deadline)))
                guard !bytes.isEmpty else { continue }
                deadline = max(deadline, clock.now.advanced(by: answering))
                survey.take(bytes)
                if answered(survey) { return }
            }
        }
        let started = clock.now
        // No newline after `d`: Universal Firmware answers the moment it reads the command byte,
        // and a newline then would meet its answer on the line. The next frame's leading newline
        // (the last one's after the loop) ends the frame for a firmware that waits for one.
        for id in ids {
            try await port.write(RS485Frame.encodeAnsweredAtOnce(.dump, to: .module(id)))
            try await listen(until: clock.now.advanced(by: rs485Silence), answering: rs485Answer) { $0.found[id] != nil }
        }
        try await port.write(Array("\n".utf8))
        try await listen(until: max(clock.now.advanced(by: rs485Turn), started.advanced(by: announcementListening)), answering: rs485Answer)
        if let low = survey.found.keys.min(), let high = survey.found.keys.max() {
            try await port.write(RS485Frame.encode(.version(ids: low...high), to: .all))
            let lastTurn = Duration.milliseconds(30) + rangeTurn * (high - low)
            try await listen(until: clock.now.advanced(by: lastTurn + rs485Silence), answering: rs485Silence)
        }
        // Each Universal Firmware module's own flaps, which it answers `A` with at once.
        for id in survey.found.values.filter({ $0.firmware == "universal" }).map(\.id).sorted() {
            try await port.write(RS485Frame.encodeAnsweredAtOnce(.about, to: .module(id)))
            try await listen(until: clock.now.advanced(by: rs485Silence), answering: rs485Silence) { $0.found[id]?.flaps != nil }
        }
        return survey.answer
    }
}
