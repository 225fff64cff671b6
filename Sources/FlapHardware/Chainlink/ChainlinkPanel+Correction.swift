import FlapCore

/// How a plan is corrected when the controller reports a module elsewhere than the model has it.
extension ChainlinkPanel {
    /// `plan` with each moved module that a report (received `elapsed` into the plan) shows more
    /// than a flap behind or ahead moved onto the report: its next flap lands one model flap
    /// time after the report. Reports come every 100 ms or so, which bounds the precision.
    static func corrected(_ plan: FlipPlan, by state: SplitflapState, at elapsed: Duration, modules moved: Set<Int>) -> FlipPlan {
        var revised = plan
        for i in moved where i < state.modules.count && state.modules[i].state == .normal && state.modules[i].moving {
            let module = plan.modules[i]
            let expected = module.landings.prefix { $0 <= elapsed }.count
            let reported = state.modules[i].flapIndex
            // The path index showing the reported flap nearest to where the model has it.
            guard let actual = module.path.indices.filter({ module.path[$0] == reported }).min(by: { abs($0 - expected) < abs($1 - expected) }),
                abs(actual - expected) > 1, actual < module.landings.count
            else { continue }
            let flapTime = actual > 0 ? module.landings[actual] - module.landings[actual - 1] : module.landings[0] - module.start
            revised = revised.shifting(module: i, from: actual, by: elapsed + flapTime - module.landings[actual])
        }
        return revised
    }
}
