import FlapPrimitives
import Testing

@testable import FlapCore

@Suite struct FlipPlannerTests {
    func board(_ text: String, size: BoardSize = .flagship) throws -> Board {
        try Board(rows: TextLayout.encodeText(text, options: LayoutOptions(size: size)).rows)
    }

    func randomBoard(seed: UInt64, size: BoardSize = .flagship) -> Board {
        var random = SeededRandom(seed: seed)
        var board = Board(size: size)
        for r in 0..<size.rows {
            for c in 0..<size.columns { board[r, c] = CharacterCode.all[Int(random.next() % 66)] }
        }
        return board
    }

    @Test func forwardOnlyPathsOnlyEverStepForward() throws {
        let planner = try FlipPlanner()
        for seed in 1...20 as ClosedRange<UInt64> {
            let plan = try planner.plan(from: randomBoard(seed: seed), to: randomBoard(seed: seed + 100))
            for module in plan.modules {
                for (a, b) in zip(module.path, module.path.dropFirst()) { #expect(b == (a + 1) % 66) }
            }
            #expect(plan.finalBoard == randomBoard(seed: seed + 100))
        }
    }

    @Test func everyLandingIsStartPlusKPeriods() throws {
        for period in [50, 120, 200] {
            let planner = try FlipPlanner(flapPeriodMs: period)
            let plan = try planner.plan(from: board("HELLO"), to: board("WORLD {63}"))
            for module in plan.modules {
                #expect(module.landings == (0..<module.landings.count).map { module.start + .milliseconds(period) * ($0 + 1) })
                #expect(module.landings.count == module.path.count - 1)
            }
            #expect(plan.duration == plan.modules.compactMap(\.landings.last).max())
            #expect(plan.clackEvents.count == plan.modules.reduce(0) { $0 + $1.landings.count })
        }
    }

    @Test func aModuleThatStaysHasOneIndexAndNoLandings() throws {
        let plan = try FlipPlanner().plan(from: board("SAME"), to: board("SAME"))
        #expect(plan.modules.allSatisfy { $0.path.count == 1 && $0.landings.isEmpty })
        #expect(plan.duration == .zero)
        #expect(plan.clackEvents.isEmpty)
    }

    @Test func theCascadeStartsColumnsTwentyAndRowsFiftyMillisecondsApart() throws {
        let plan = try FlipPlanner().plan(from: Board(size: .flagship), to: randomBoard(seed: 3))
        for module in plan.modules {
            #expect(module.start == .milliseconds(module.column * 20 + module.row * 50))
        }
    }

    @Test func theLongestForwardPathTurnsAllButOneFlap() throws {
        let planner = try FlipPlanner()
        let from = Board(size: .flagship, fill: CharacterCode(1)!)
        let plan = try planner.plan(from: from, to: Board(size: .flagship))
        #expect(plan.modules.allSatisfy { $0.landings.count == 65 })
        // The last module starts at 21×20 + 5×50 ms and lands 65 flaps later.
        #expect(plan.duration == .milliseconds(21 * 20 + 5 * 50 + 65 * 120))
    }

    @Test func virtualPanelsTakeTheShorterWay() throws {
        let planner = try FlipPlanner(motion: .shortestWay)
        let plan = try planner.plan(from: Board(size: .flagship, fill: CharacterCode(1)!), to: Board(size: .flagship))
        #expect(plan.modules.allSatisfy { $0.path == [1, 0] })
        let forward = try planner.plan(from: Board(size: .flagship), to: Board(size: .flagship, fill: CharacterCode(3)!))
        #expect(forward.modules.allSatisfy { $0.path == [0, 1, 2, 3] })
    }

    @Test func flapPeriodsOutsideFiftyToTwoHundredAreRefused() {
        #expect(throws: PlanError("flap period must be 50 to 200 ms, not 49")) { try FlipPlanner(flapPeriodMs: 49) }
        #expect(throws: PlanError.self) { try FlipPlanner(flapPeriodMs: 201) }
        #expect(throws: PlanError("step size must be at least 1, not 0")) { try Transition(strategy: .column, stepSize: 0) }
    }

    static func expectedGroup(_ strategy: TransitionStrategy, row r: Int, column c: Int) -> Int {
        switch strategy {
        case .column: c / 2
        case .reverseColumn: (21 - c) / 2
        case .edgesToCenter: min(c, 21 - c) / 2
        case .row: r / 2
        case .diagonal: (r + c) / 2
        case .cascade, .random: -1
        }
    }

    @Test(arguments: [TransitionStrategy.column, .reverseColumn, .edgesToCenter, .row, .diagonal])
    func strategiesStartGroupsOfStepSizeEveryInterval(strategy: TransitionStrategy) throws {
        let transition = try Transition(strategy: strategy, stepSize: 2, stepIntervalMs: 30)
        let plan = try FlipPlanner(transition: transition).plan(from: Board(size: .flagship), to: randomBoard(seed: 9))
        for module in plan.modules {
            #expect(
                module.start == .milliseconds(30 * Self.expectedGroup(strategy, row: module.row, column: module.column)),
                "\(strategy) r\(module.row) c\(module.column)")
        }
    }

    @Test func randomOrderIsASeededPermutationInGroups() throws {
        func starts(seed: UInt64) throws -> [Duration] {
            let transition = try Transition(strategy: .random, stepSize: 3, stepIntervalMs: 10, seed: seed)
            return try FlipPlanner(transition: transition).plan(from: Board(size: .flagship), to: randomBoard(seed: 1)).modules.map(\.start)
        }
        let a = try starts(seed: 5)
        #expect(a == (try starts(seed: 5)))
        #expect(a != (try starts(seed: 6)))
        // 132 modules in groups of 3: 44 groups, each start used by exactly 3 modules.
        let counts = Dictionary(grouping: a, by: { $0 }).mapValues(\.count)
        #expect(counts.count == 44 && counts.values.allSatisfy { $0 == 3 })
        #expect(Set(counts.keys) == Set((0..<44).map { Duration.milliseconds(10 * $0) }))
    }

    @Test func clackGainsVaryTenPercentAndFollowTheSeed() throws {
        func gains(seed: UInt64) throws -> [Double] {
            let planner = try FlipPlanner(transition: Transition(seed: seed))
            return try planner.plan(from: Board(size: .flagship), to: randomBoard(seed: 2)).clackEvents.map(\.gain)
        }
        let g = try gains(seed: 1)
        #expect(g.allSatisfy { (0.9...1.1).contains($0) })
        #expect(g.min()! < 0.92 && g.max()! > 1.08)
        #expect(g == (try gains(seed: 1)))
        #expect(g != (try gains(seed: 2)))
    }

    @Test func clackEventsAreTheLandingsInTimeOrder() throws {
        let plan = try FlipPlanner().plan(from: board("ABC"), to: board("XYZ {63}"))
        #expect(plan.clackEvents.map(\.time) == plan.clackEvents.map(\.time).sorted())
        let landings = plan.modules.flatMap { m in m.landings.map { "\($0) \(m.row) \(m.column)" } }.sorted()
        #expect(plan.clackEvents.map { "\($0.time) \($0.row) \($0.column)" }.sorted() == landings)
    }

    @Test func aNewTargetMidMotionIsPlannedFromWhereModulesAre() throws {
        let planner = try FlipPlanner()
        let first = try planner.plan(from: Board(size: .flagship), to: board("HELLO WORLD"))
        let now = Duration.milliseconds(700)
        let state = first.motion(at: now)
        let target = try board("GOODBYE")
        let second = try planner.plan(from: state, to: target)
        #expect(second.finalBoard == target)
        #expect(second.board(at: .zero) == first.board(at: now))
        var continuing = 0
        for (i, module) in second.modules.enumerated() {
            #expect(module.path.first == state[i].position)
            for (a, b) in zip(module.path, module.path.dropFirst()) { #expect(b == (a + 1) % 66) }
            if let inFlight = state[i].nextLanding {
                // The flap already falling lands when it would have; no pause, no jump.
                continuing += 1
                #expect(module.landings.first == inFlight)
                #expect(inFlight > .zero && inFlight <= .milliseconds(120))
                #expect(first.modules[i].landings.contains(now + inFlight))
            }
        }
        #expect(continuing > 0)
    }

    @Test func aFallingFlapCannotBeTakenBack() throws {
        let planner = try FlipPlanner()
        let first = try planner.plan(from: Board(size: .flagship), to: try board("B"))
        // At 60 ms the A flap of module (0,0) is falling; sending blank now means a full turn.
        let state = first.motion(at: .milliseconds(60))
        #expect(state[0] == ModuleMotion(position: 0, nextLanding: .milliseconds(60)))
        let second = try planner.plan(from: state, to: Board(size: .flagship))
        #expect(second.modules[0].path.count == 67)
        #expect(second.modules[1].path == [0])
    }

    @Test func aWallOfSixteenBoardsPlans() throws {
        let size = BoardSize(rows: 24, columns: 88)
        let plan = try FlipPlanner().plan(from: randomBoard(seed: 4, size: size), to: randomBoard(seed: 5, size: size))
        #expect(plan.modules.count == 2112)
        #expect(plan.finalBoard == randomBoard(seed: 5, size: size))
    }

    @Test func mismatchedSizesAreAnErrorNotACrash() throws {
        #expect(throws: PlanError.self) {
            try FlipPlanner().plan(from: [ModuleMotion(position: 0)], to: Board(size: .note))
        }
        #expect(throws: PlanError.self) {
            try FlipPlanner().plan(from: Array(repeating: ModuleMotion(position: 80), count: 45), to: Board(size: .note))
        }
    }
}
