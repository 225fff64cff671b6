import FlapCore

/// What a board's modules say once it has landed: each module it moved is asked which blade it
/// shows (`D0`). One that shows another is sent its blade again; one that still does is a fault,
/// and what flapd reports is the blade it says, never the one it was sent.
extension SBBPanel {
    /// Connected unless the bus last failed, with the modules that last landed elsewhere.
    public func health() async -> PanelHealth {
        let columns = info.size.columns
        let faults = findings.keys.sorted().compactMap { index in
            findings[index].map { ModuleFault(row: index / columns + 1, column: index % columns + 1, kind: .landedElsewhere, said: $0) }
        }
        return PanelHealth(connected: lastError == nil, faults: faults)
    }

    /// Asks each module of `moved` where it landed.
    func checkLandings(_ moved: [Int]) async throws {
        for index in moved {
            let blades = blades(index)
            let sent = blades.bladeIndex[estimated[index]]
            // Silent, nothing is concluded.
            guard let shows = try await bladeAtRest(module: index, expected: sent), shows != sent else {
                findings[index] = nil
                continue
            }
            let place = "row \(index / info.size.columns + 1), column \(index % info.size.columns + 1)"
            say(
                .warning,
                "\(bus.device): the module at \(addresses[index]) (\(place)) shows \(said(shows, of: index)) where it was sent \(said(sent, of: index)); sent it again"
            )
            try await bus.send(.show(sent), to: addresses[index])
            let ahead = (sent - shows + blades.count) % blades.count
            try await clock.sleep(until: clock.now.advanced(by: bladeTime * (ahead + 1)), tolerance: nil)
            guard let again = try await bladeShown(module: index), again != sent else {
                findings[index] = nil
                continue
            }
            findings[index] =
                "it shows \(said(again, of: index)) where it was sent \(said(sent, of: index)), twice: check that its blades are configured in its order, and its catch"
            estimated[index] = blades.drumFlap(atBlade: again)
        }
    }

    /// The blade module `index` rests on: asked again a blade's time apart while it still turns
    /// (a module slower than `blade_time_ms` says), for up to a turn; once, when it shows the
    /// blade `expected`.
    func bladeAtRest(module index: Int, expected: Int? = nil) async throws -> Int? {
        guard var shows = try await bladeShown(module: index) else { return nil }
        guard shows != expected else { return shows }
        for _ in 0..<blades(index).count {
            try await clock.sleep(until: clock.now.advanced(by: bladeTime * 2), tolerance: nil)
            guard let next = try await bladeShown(module: index) else { return nil }
            guard next != shows else { return shows }
            if !slow.contains(index) {
                slow.insert(index)
                say(
                    .warning,
                    "\(bus.device): the module at \(addresses[index]) still turned after its plan's end: it turns slower than blade_time_ms says")
            }
            shows = next
        }
        return shows
    }

    /// The blade module `index` says it shows; nil when it did not answer or said one it has not.
    private func bladeShown(module index: Int) async throws -> Int? {
        do {
            guard case .position(let blade)? = try await bus.ask(.position, of: addresses[index]), blade < blades(index).count else { return nil }
            return blade
        } catch is SBBAnswerError {
            return nil
        }
    }

    /// A blade as a household reads it: `blade 3 ("C")`.
    private func said(_ blade: Int, of index: Int) -> String {
        guard let code = blades(index).shown[blade] else { return "blade \(blade)" }
        return "blade \(blade) (\"\(code.character.map(String.init) ?? "a colour")\")"
    }
}
