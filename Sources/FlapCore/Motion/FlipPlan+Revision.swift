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
