/// What Universal Firmware's tests say of a module, in a household's words: each finding says
/// what is wrong and what to look at. A module found well has no findings.
enum RS485ModuleHealth {
    /// Below this supply a module's stepper misses steps (the modules are built for 5 V).
    static let lowSupply = 4_600

    /// The findings and the figures in `answer`; nil for an answer that is no test's.
    static func read(_ answer: RS485Answer) -> (findings: [String], measured: [String: Int])? {
        switch answer {
        case .hall(_, let test): (hall(test), ["hallCode": test.code, "magnetPassings": test.edges, "stepsOnTheMagnet": test.activeSamples])
        case .diagnostics(_, let now): (diagnostics(now), ["supplyMillivolts": now.millivolts, "starts": now.boots, "resetCause": now.resetCause])
        case .mechanical(_, let test):
            (
                mechanical(test),
                ["motorCode": test.code, "fewestSteps": test.fewest, "mostSteps": test.most, "spreadTenthsOfAPercent": test.spreadTenths]
            )
        default: nil
        }
    }

    static func hall(_ test: HallTest) -> [String] {
        switch test.code {
        case 0: []
        case 1: ["the Hall sensor sees the magnet all the time: is the magnet stuck at it, or the sensor shorted?"]
        case 2: ["the magnet is not seen: check the Hall sensor's wiring, and that the magnet is on the reel"]
        case 3: ["the Hall sensor sees the magnet \(test.edges) times a turn: a stray magnet nearby, or a loose wire"]
        case 4: ["the Hall sensor reads the wrong way round: its wires may be swapped"]
        default: ["the Hall sensor test said code \(test.code), which flapd does not know"]
        }
    }

    static func diagnostics(_ now: ModuleDiagnostics) -> [String] {
        var findings: [String] = []
        let volts = Double(now.millivolts / 10) / 100
        if now.millivolts < lowSupply { findings.append("its supply is low (\(volts) V): check the power wiring and the supply's size") }
        if now.resetCause & 0x02 != 0 { findings.append("it last started after its supply dipped (a brown-out): check the power wiring") }
        if now.resetCause & 0x08 != 0 {
            findings.append("it last restarted itself (its watchdog): a move stalled, so check that the reel turns freely")
        }
        if !now.memoryOK { findings.append("its memory failed its check: it may forget its ID and calibration") }
        if now.flap == nil { findings.append("it does not know which flap it shows: home it") }
        return findings
    }

    static func mechanical(_ test: MechanicalTest) -> [String] {
        switch test.code {
        case 0: return []
        case 1:
            let spread = Double(test.spreadTenths) / 10
            return [
                "its turns differ by \(spread) % (\(test.fewest) to \(test.most) steps): it misses steps, so check for drag on the reel and the supply"
            ]
        case 2:
            return test.gateActive == 0
                ? ["no turn was seen: the motor does not turn, or the Hall sensor sees nothing (run the Hall sensor test first)"]
                : ["the reel did not make a whole turn: the motor slips, or the reel is jammed"]
        default: return ["the motor test said code \(test.code), which flapd does not know"]
        }
    }
}
