extension FlipPlan {
    /// The plan with module `index`'s landings from the `from`-th on moved by `shift` (its
    /// clacks move with them, keeping their gains): a landing estimate corrected from what the
    /// hardware reported.
    public func shifting(module index: Int, from: Int, by shift: Duration) -> FlipPlan {
        var revised = self
        let module = modules[index]
        guard from < module.landings.count, shift != .zero else { return self }
        for k in from..<module.landings.count { revised.modules[index].landings[k] += shift }
        let moved = Set(module.landings[from...])
        revised.clackEvents = clackEvents.map { event in
            guard event.row == module.row, event.column == module.column, moved.contains(event.time) else { return event }
            var shifted = event
            shifted.time += shift
            return shifted
        }
        revised.clackEvents.sort { ($0.time, $0.row, $0.column) < ($1.time, $1.row, $1.column) }
        return revised
    }
}

/// A plan in progress whose landings the hardware has shown to be early or late.
public struct PlanRevision: Sendable, Equatable {
    /// The plan as it was given to the panel.
    public var original: FlipPlan
    /// The same plan with the landings still to come re-estimated.
    public var revised: FlipPlan

    /// The revision of `original` to `revised`.
    public init(original: FlipPlan, revised: FlipPlan) {
        self.original = original
        self.revised = revised
    }
}

extension FlipPlan {
    /// The plan with module `index` taking `path` from `start`, landing at `landings` (its
    /// clacks replaced, at the gain its first one had): a module that must first finish a turn
    /// the plan did not know of (an RS-485 module cannot be stopped mid-turn).
    public func replacing(module index: Int, path: [Int], start: Duration, landings: [Duration]) -> FlipPlan {
        precondition(landings.count == path.count - 1, "a landing for each flap after the first")
        var revised = self
        let (row, column) = (modules[index].row, modules[index].column)
        revised.modules[index].path = path
        revised.modules[index].start = start
        revised.modules[index].landings = landings
        let gain = clackEvents.first { $0.row == row && $0.column == column }?.gain ?? 1
        revised.clackEvents =
            clackEvents.filter { $0.row != row || $0.column != column }
            + landings.map { ClackEvent(time: $0, row: row, column: column, gain: gain) }
        revised.clackEvents.sort { ($0.time, $0.row, $0.column) < ($1.time, $1.row, $1.column) }
        return revised
    }
}
