/// Which firmware each module runs, told by what it answers: Universal Firmware answers `v` as
/// soon as it reads the command, v7 never does. A module whose firmware the configuration does
/// not give is asked the first time it is to be sent what only Universal Firmware knows (its
/// tests), so a mixed wall works and a wall of v7 modules costs nothing at start: each silence
/// is a wait of ``versionWait``.
extension RS485Panel {
    /// How long a module may take to answer `v`: Universal Firmware answers at once, and its
    /// answer (`m05v:31:5:` and 20 hex digits, about 30 bytes) takes about 31 ms at 9600 baud,
    /// and a USB dongle may hold what it received for up to 16 ms (an FTDI chip's latency timer).
    static var versionWait: Duration { .milliseconds(150) }

    /// Asks module `index` for its version; silent, it runs v7. The caller has the bus.
    func askFirmware(module index: Int) async throws {
        await bus.discardAnswers()
        do {
            try await bus.send(RS485Frame.encode(.version(ids: nil), to: .module(ids[index])))
        } catch {
            return
        }
        if case .version? = try await bus.answer(from: ids[index], within: Self.versionWait) {
            firmwares[index] = .universal
        } else {
            firmwares[index] = .v7
        }
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
