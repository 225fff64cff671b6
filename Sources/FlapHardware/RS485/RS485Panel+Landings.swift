import FlapCore

/// What a board's modules say once it has landed. Universal Firmware's modules tell the flap they
/// show (`Q`), so each one a board moved is asked: one that shows another flap than it was sent
/// (a frame lost on the bus, a module that restarted) is sent its flap again, and one that still
/// does is a fault of the wall's, and flapd reports the flap it says, never the one it was sent.
/// Firmware v7's modules cannot say: they are believed.
extension RS485Panel {
    /// How long a module may take to answer `Q` (about 25 bytes, 26 ms at 9600 baud, and a USB
    /// dongle's latency).
    static var landingWait: Duration { .milliseconds(300) }

    /// Connected unless the bus last failed, with what the modules' own tests and the checks
    /// after each board last found wrong.
    public func health() async -> PanelHealth {
        let columns = info.size.columns
        let faults = testFindings.keys.sorted().compactMap { index -> ModuleFault? in
            let byTest = testFindings[index] ?? [:]
            let found = byTest.sorted { $0.key < $1.key }.flatMap(\.value)
            guard !found.isEmpty else { return nil }
            let kind: ModuleFault.Kind = byTest.allSatisfy { $0.key == Self.landing || $0.value.isEmpty } ? .landedElsewhere : .foundByItsTest
            return ModuleFault(row: index / columns + 1, column: index % columns + 1, kind: kind, said: found.joined(separator: "; "))
        }
        return PanelHealth(connected: lastError == nil, faults: faults)
    }

    /// The key a landing's finding is kept under, beside the tests'.
    static var landing: String { "landing" }

    /// Asks each module of `moved` that runs Universal Firmware where it is, once it rests.
    func checkLandings(_ moved: [Int]) async throws {
        let asked = moved.filter { firmwares[$0] == .universal }
        guard !asked.isEmpty else { return }
        await takeTheBus()
        defer { releaseTheBus() }
        for index in asked {
            let reel = reels[index]
            let sent = reel.reelIndex[committed[index]]
            // Silent, nothing is concluded.
            guard let shows = try await flapShown(module: index) else { continue }
            guard shows != sent else {
                testFindings[index]?[Self.landing] = nil
                continue
            }
            let place = "row \(index / info.size.columns + 1), column \(index % info.size.columns + 1)"
            say(
                .warning,
                "\(bus.device): module \(ids[index]) (\(place)) shows \(said(shows, on: reel)) where it was sent \(said(sent, on: reel)); sent it again"
            )
            try await bus.send(RS485Frame.encode(.show(reel.bytes[sent]), to: .module(ids[index])))
            let from = shows.flatMap { reel.reelIndex.firstIndex(of: $0) } ?? 0
            let count = reel.drum.count
            let turn = profile(of: index).landings(from: from, flaps: (committed[index] - from + count) % count).last ?? .zero
            // Unsure where it was, it may home first: a turn more.
            let wait = turn + (shows == nil ? profile(of: index).duration(steps: revolutions[index]) : .zero) + Self.settling
            try await clock.sleep(until: clock.now.advanced(by: wait), tolerance: nil)
            guard let again = try await flapShown(module: index) else { continue }
            guard again != sent else {
                testFindings[index]?[Self.landing] = nil
                continue
            }
            testFindings[index, default: [:]][Self.landing] = [
                "it shows \(said(again, on: reel)) where it was sent \(said(sent, on: reel)), twice: check its stored flap positions (flapctl module … dump) and its motor (motor-test)"
            ]
            // What flapd reports is what the module says.
            if let again, let flap = reel.reelIndex.firstIndex(of: again) {
                estimated[index] = flap
                committed[index] = flap
            }
        }
    }

    /// The reel index module `index` says it shows: `.some(nil)` when it does not know (it
    /// needs homing), nil when it did not answer (nothing is concluded from silence).
    private func flapShown(module index: Int) async throws -> Int?? {
        if let busy = busyUntil[index], busy > clock.now { try await clock.sleep(until: busy, tolerance: nil) }
        await bus.discardAnswers()
        try await bus.send(frame(.diagnostics, module: index))
        guard case .diagnostics(_, let health)? = try await bus.answer(from: ids[index], within: Self.landingWait) else { return nil }
        return .some(health.flap)
    }

    /// A reel index as a household reads it: `"A"`, or "no flap it knows".
    private func said(_ place: Int?, on reel: RS485Reel) -> String {
        guard let index = place, index < reel.bytes.count else { return "no flap it knows (it lost home)" }
        let byte = reel.bytes[index]
        return byte == UInt8(ascii: " ") ? "blank" : "\"\(String(UnicodeScalar(byte)))\""
    }
}
