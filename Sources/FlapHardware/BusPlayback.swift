import FlapCore

/// What the panels of a bus (RS-485, SBB) share about a plan played one frame a module.
extension FlipPlan {
    /// Module `index` turning forward from `from` to `target` from `start`, as `profile` times it.
    func replacing(module index: Int, to target: Int, from: Int, at start: Duration, profile: StepperProfile) -> FlipPlan {
        let count = drum(ofModule: index).count
        let path = (0...((target - from + count) % count)).map { (from + $0) % count }
        let landings = profile.landings(from: from, flaps: path.count - 1).map { start + $0 }
        return replacing(module: index, path: path, start: start, landings: landings)
    }

    /// Where a bus's modules rest once its play stopped at `cut`: each module sent its frame
    /// turns on as planned, and each the plan did not move stays; one it was to move but never
    /// sent keeps `estimated`.
    func resting(at cut: Duration, sent: Set<Int>, moving: [Int], estimated: [Int]) -> [Int] {
        let motion = motion(at: cut)
        let moving = Set(moving)
        return estimated.indices.map { i in sent.contains(i) || !moving.contains(i) ? motion[i].position : estimated[i] }
    }
}
