import FlapCore

/// A message that names each module's blade by its label or index, for the blades that are no
/// board character: each module sent its blade, one frame at a time, then each read back once
/// it rests, and flapd goes on from what they say.
extension SBBPanel: ShowsBlades {
    /// The label of blade `blade` of the module at `index`, or its index as text.
    public nonisolated func label(ofBlade blade: Int, module index: Int) -> String {
        let labels = moduleBlades[index].labels
        return labels.indices.contains(blade) ? labels[blade] : "\(blade)"
    }

    /// Turns each module to the blade chosen for it, and answers with the blade each says it
    /// shows. A label or index the modules lack is refused, by row and column, before anything moves.
    public func show(blades choices: [BladeChoice?]) async throws(ModuleCommandError) -> [Int] {
        let size = info.size
        guard choices.count == size.count else {
            throw .invalid("\(choices.count) blades for a panel of \(size.rows)×\(size.columns): one a module, row by row")
        }
        var targets: [Int?] = []
        for (index, choice) in choices.enumerated() {
            let place = "row \(index / size.columns + 1), column \(index % size.columns + 1)"
            let blades = blades(index)
            switch choice {
            case nil: targets.append(nil)
            case .index(let blade)?:
                guard (0..<blades.count).contains(blade) else {
                    throw .invalid("\(place): blade \(blade) is not one of the module's 0 to \(blades.count - 1)")
                }
                targets.append(blade)
            case .label(let label)?:
                guard let blade = blades.blade(labelled: label) else {
                    throw .invalid(
                        "\(place): no blade is labelled \"\(label)\" (the labels: \(blades.labels.filter { !$0.isEmpty && $0 != " " }.joined(separator: ", ")))"
                    )
                }
                targets.append(blade)
            }
        }
        await takeTurn()
        defer { endTurn() }
        do {
            return try await turn(to: targets)
        } catch let error as ModuleCommandError {
            throw error
        } catch {
            throw .noAnswer("\(error)")
        }
    }

    private func turn(to targets: [Int?]) async throws -> [Int] {
        var farthest = 0
        for (index, target) in targets.enumerated() {
            guard let target else { continue }
            // Sent even where flapd counts it there: a blade with no character is counted as the
            // one before it, and a module already there does not move.
            let blades = blades(index)
            let from = blades.bladeIndex[estimated[index]]
            try await bus.send(.show(target), to: addresses[index])
            farthest = max(farthest, (target - from + blades.count) % blades.count)
        }
        try await clock.sleep(until: clock.now.advanced(by: bladeTime * (farthest + 1)), tolerance: nil)
        var shown: [Int] = []
        for index in targets.indices {
            let said = try await bladeAtRest(module: index, expected: targets[index])
            let blade = said ?? blades(index).bladeIndex[estimated[index]]
            estimated[index] = blades(index).drumFlap(atBlade: blade)
            if let target = targets[index], said != nil, blade != target {
                findings[index] =
                    "it shows blade \(blade) where it was sent blade \(target): check that its blades are configured in its order, and its catch"
            }
            shown.append(blade)
        }
        return shown
    }
}
