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
    /// listened to for ``rs485Turn`` after the last question, longer while answers still come.
    /// Nil when no module answered.
    public static func rs485<C: Clock>(_ port: any SerialPort, clock: C, ids: ClosedRange<Int>) async throws -> SerialAnswer?
    where C.Duration == Duration {
        var survey = RS485Survey(ids: ids)
        /// Reads until `deadline`, or until `id` answered; bytes arriving push the deadline to `answering` from then.
        func listen(until deadline: C.Instant, for id: Int?, answering: Duration) async throws {
            var deadline = deadline
            while clock.now < deadline, !survey.isFull {
                let bytes = try await port.read(maximum: 1024, timeout: min(.milliseconds(50), clock.now.duration(to: deadline)))
                guard !bytes.isEmpty else { continue }
                deadline = max(deadline, clock.now.advanced(by: answering))
                survey.take(bytes)
                if let id, survey.found[id] != nil { return }
            }
        }
        for id in ids {
            try await port.write(RS485Frame.encode(.dump, to: .module(id)))
            try await listen(until: clock.now.advanced(by: rs485Silence), for: id, answering: rs485Answer)
        }
        try await listen(until: clock.now.advanced(by: rs485Turn), for: nil, answering: rs485Answer)
        return survey.answer
    }
}

/// The modules found on an RS-485 bus, read from whatever it carries: each `d` answer from an
/// ID that was asked; everything else (other answers, noise, an ID not asked) is passed over.
/// At most ``budget`` bytes are read.
public struct RS485Survey: Sendable {
    /// The most bytes read: 32 dumps of 64 stored flaps are about 16 KB.
    public static let budget = 64 * 1024
    /// The IDs asked: an answer from another is passed over.
    public let ids: ClosedRange<Int>
    /// Each module that answered, by its ID.
    public private(set) var found: [Int: RS485ModuleFound] = [:]
    /// Bytes read so far.
    public private(set) var read = 0
    private var reader = RS485AnswerReader()

    /// A survey of the answers of `ids`, nothing read yet.
    public init(ids: ClosedRange<Int>) { self.ids = ids }

    /// Whether no more is read.
    public var isFull: Bool { read >= Self.budget }

    /// Takes the next bytes from the bus.
    public mutating func take(_ bytes: some Collection<UInt8>) {
        let taken = Array(bytes.prefix(max(0, Self.budget - read)))
        read += taken.count
        for case .success(.dump(let id, let offset, let steps, let positions)) in reader.read(taken) where ids.contains(id) {
            found[id] = RS485ModuleFound(id: id, stepsPerRevolution: steps, offset: offset, storedFlaps: positions.count)
        }
    }

    /// The modules found, by ID, or nil when none answered.
    public var answer: SerialAnswer? { found.isEmpty ? nil : .rs485(modules: found.values.sorted { $0.id < $1.id }) }
}
