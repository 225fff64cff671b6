import FlapCore

/// A plan's module starts and landings grouped by instant, in time order: what a simulated
/// panel plays. Not generic, so the sort is specialised: it runs on every plan, and under a
/// burst of messages a plan starts on nearly every message.
struct PanelTimeline {
    struct Change {
        var module: Int
        var kind: PanelEventKind
        var last = false
    }

    struct Group {
        var time: Duration
        var changes: [Change]
    }

    private(set) var groups: [Group] = []

    init(_ plan: FlipPlan) {
        var changes: [(time: Duration, change: Change)] = []
        changes.reserveCapacity(plan.modules.reduce(0) { $0 + ($1.landings.isEmpty ? 0 : $1.landings.count + 1) })
        for (i, module) in plan.modules.enumerated() where !module.landings.isEmpty {
            changes.append((module.start, Change(module: i, kind: .started)))
            for (k, time) in module.landings.enumerated() {
                changes.append((time, Change(module: i, kind: .landed(position: module.path[k + 1]), last: k == module.landings.count - 1)))
            }
        }
        changes.sort { $0.time < $1.time }
        for (time, change) in changes {
            if groups.last?.time == time {
                groups[groups.count - 1].changes.append(change)
            } else {
                groups.append(Group(time: time, changes: [change]))
            }
        }
    }
}
