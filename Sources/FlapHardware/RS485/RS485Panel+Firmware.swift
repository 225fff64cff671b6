/// Which firmware each module runs, told by what it answers: Universal Firmware answers `v` as
/// soon as it reads the command, v7 never does. A module whose firmware the configuration does
/// not give is asked the first time it is to be sent what only Universal Firmware knows (its
/// tests), so a mixed wall works and a wall of v7 modules costs nothing at start: a v7 module is
/// asked once, for its version (a silence of ``versionWait``) and then its dump.
extension RS485Panel {
    /// How long a module may take to answer `v`: Universal Firmware answers at once, and its
    /// answer (`m05v:31:5:` and 20 hex digits, about 30 bytes) takes about 31 ms at 9600 baud,
    /// and a USB dongle may hold what it received for up to 16 ms (an FTDI chip's latency timer).
    static var versionWait: Duration { .milliseconds(150) }

    /// Asks module `index` for its version. Silent, it is asked for its dump, which v7 answers:
    /// a module that answers neither (unpowered, or not on the bus) stays unknown, so that it is
    /// asked again once it answers, and is never called v7 for its silence. The caller has the bus.
    func askFirmware(module index: Int) async throws {
        await bus.discardAnswers()
        do {
            try await bus.send(RS485Frame.encodeAnsweredAtOnce(.version(ids: nil), to: .module(ids[index])))
            if case .version? = try await bus.answer(from: ids[index], within: Self.versionWait) {
                firmwares[index] = .universal
                return
            }
            await bus.discardAnswers()
            try await bus.send(RS485Frame.encode(.dump, to: .module(ids[index])))
            if let answer = try await bus.answer(from: ids[index], within: Self.dumpWait) {
                firmwares[index] = .v7
                learn(answer, module: index)
            }
        } catch is HardwareError {
            return
        }
    }

    /// Module `index`'s `d` dump (nil: none), the whole frame sent unless it is known to run
    /// Universal Firmware; a garbled answer is taken for Universal Firmware's, which answers
    /// into the frame's newline: asked its version, and then the dump again as it reads it.
    func askDump(module index: Int) async throws -> RS485Answer? {
        await bus.discardAnswers()
        let unreadable = await bus.unreadable
        try await bus.send(frame(.dump, module: index))
        let unknown = firmwares[index] == nil
        if let answer = try await bus.answer(from: ids[index], within: Self.dumpWait, garbledSince: unknown ? unreadable : nil) { return answer }
        guard unknown, await bus.unreadable > unreadable else { return nil }
        try await askFirmware(module: index)
        guard firmwares[index] == .universal else { return nil }
        await bus.discardAnswers()
        try await bus.send(frame(.dump, module: index))
        return try await bus.answer(from: ids[index], within: Self.dumpWait)
    }

    /// `command` for module `index` as its firmware reads it: what Universal Firmware answers at
    /// once goes without the newline that would garble the answer's start; v7 (which answers
    /// after some 60 ms) and a module not yet known are sent the whole frame, except `v` and `A`,
    /// which only Universal Firmware knows.
    func frame(_ command: RS485Command, module index: Int) -> [UInt8] {
        let atOnce = command.isAnsweredAtOnce && (firmwares[index] == .universal || !RS485Firmware.v7.knows(command))
        return atOnce
            ? RS485Frame.encodeAnsweredAtOnce(command, to: .module(ids[index])) : RS485Frame.encode(command, to: .module(ids[index]))
    }

    /// The firmware of the module in cell `index`: as configured or as it answered, else nil.
    public func firmware(module index: Int) -> RS485Firmware? { firmwares[index] }
}

extension RS485Command {
    /// What a household calls it, for a refusal.
    var said: String {
        switch self {
        case .hallTest: "Hall sensor test"
        case .diagnostics: "diagnostics"
        case .mechanicalTest: "motor test"
        case .version: "version to tell"
        case .about: "state to tell"
        default: "\(self)"
        }
    }
}
