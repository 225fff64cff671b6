import Testing

@testable import FlapCore

@Suite struct StepperProfileTests {
    let profile = StepperProfile(flaps: 52)

    @Test func rampRunsFrom10000To1606MicrosecondsOver72Steps() {
        #expect(profile.maxAcceleration == 72)
        #expect(profile.ramp[1] == .microseconds(10_000))
        #expect(profile.cruisePeriod == .microseconds(1_606))
        // Speed rises linearly with time: each period is shorter than the one before.
        for (a, b) in zip(profile.ramp.dropFirst(), profile.ramp.dropFirst(2)) { #expect(b < a) }
        // The ramp takes the 200 ms it is given (to within its last period).
        let rampTime = profile.ramp.dropFirst().dropLast().reduce(Duration.zero, +)
        #expect(rampTime >= .milliseconds(198) && rampTime <= .milliseconds(202))
    }

    @Test func flapStepsRoundUpAndInvertToTheSameFlap() {
        #expect(profile.step(ofFlap: 0) == 0)
        #expect(profile.step(ofFlap: 1) == 40)  // 2048 / 52 = 39.38…, rounded up
        #expect(profile.step(ofFlap: 13) == 512)  // exact: a quarter turn
        for flap in 0..<52 {
            #expect(profile.flap(atStep: profile.step(ofFlap: flap)) == flap)
            #expect(profile.flap(atStep: profile.step(ofFlap: flap) + 39 - (flap == 51 ? 1 : 0)) <= flap + 1)
        }
        #expect(profile.steps(from: 5, to: 5) == 2048)
        #expect(profile.steps(from: 51, ahead: 1) == 2048 - profile.step(ofFlap: 51))
    }

    @Test func aMoveRampsUpCruisesAndRampsDownToRest() {
        // A full turn: 2048 steps; 72 up, 72 down, the rest at 1 606 µs.
        let turn = profile.duration(steps: 2048)
        let ramp = profile.ramp.dropFirst().dropLast().reduce(Duration.zero, +)
        let cruise = profile.cruisePeriod * (2048 - 1 - 2 * 71)
        #expect(turn > cruise + ramp && turn < cruise + ramp * 2 + .milliseconds(5))
        // A single step is the first step, at zero.
        #expect(profile.duration(steps: 1) == .zero)
        // A move too short to reach cruise speed is symmetric: up the ramp and straight back down
        // (steps 1–5 wait ramp[1…5], steps 6–9 ramp[5…2]).
        #expect(profile.duration(steps: 10) == (profile.ramp[1...5].reduce(.zero, +) + profile.ramp[2...5].reduce(.zero, +)))
    }

    @Test func aMovesDurationIsComputedNotWalkedAndAgreesWithTheWalk() {
        let constant = StepperProfile(flapSteps: [0, 100, 250], stepsPerTurn: 4096, period: .milliseconds(1))
        for motor in [profile, constant] {
            for steps in 0...600 {
                var walked = Duration.zero
                motor.walk(steps: steps, cruising: false) { _, time in walked = time }
                #expect(motor.duration(steps: steps) == walked, "\(steps) steps")
            }
        }
        // A number a client sends costs no more than a small one: a trillion steps at 1 ms each.
        #expect(constant.duration(steps: 1_000_000_000_000) == .milliseconds(1_000_000_000_000 - 1))
        #expect(profile.duration(steps: -5) == .zero)
    }

    @Test func landingsAreIncreasingAndEndAtTheMovesEnd() {
        for (from, count) in [(0, 1), (0, 51), (3, 52), (50, 10), (0, 104)] {
            let landings = profile.landings(from: from, flaps: count)
            #expect(landings.count == count)
            #expect(zip(landings, landings.dropFirst()).allSatisfy { $0 < $1 })
            #expect(landings.last == profile.duration(steps: profile.steps(from: from, ahead: count)))
        }
        // Cruising already, the first flap comes at cruise speed: sooner than from rest.
        #expect(profile.landings(from: 0, flaps: 3, cruising: true)[0] < profile.landings(from: 0, flaps: 3)[0])
    }

    @Test func planner_usesTheProfileAndGroupsStartsIntoCommands() throws {
        var planner = try FlipPlanner(drum: .chainlink52)
        planner.stepper = profile
        planner.commandInterval = .milliseconds(45)
        var target = Board(size: BoardSize(rows: 2, columns: 6))
        for c in 0..<6 { target[0, c] = CharacterCode(1)!; target[1, c] = CharacterCode(26)! }
        let plan = try planner.plan(from: Board(size: target.size), to: target)
        for module in plan.modules {
            let from = module.path[0]
            #expect(module.landings == profile.landings(from: from, flaps: module.path.count - 1).map { module.start + $0 })
        }
        // Cascade offsets c×20 + r×50 ms fall onto commands at least 45 ms apart.
        let starts = Set(plan.modules.map(\.start)).sorted()
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 >= .milliseconds(45) })
        #expect(starts.count < 12)
        #expect(
            plan.modules.allSatisfy { module in
                let wanted = Duration.milliseconds(module.column * 20 + module.row * 50)
                return module.start <= wanted && wanted - module.start < .milliseconds(45)
            })
        #expect(plan.finalBoard == target)
    }
}

@Suite struct PlanRevisionTests {
    @Test func shiftingMovesALandingsTailAndItsClacks() throws {
        var planner = try FlipPlanner(drum: .chainlink52)
        planner.stepper = StepperProfile(flaps: 52)
        var target = Board(size: BoardSize(rows: 1, columns: 2))
        target[0, 0] = CharacterCode(5)!
        target[0, 1] = CharacterCode(3)!
        let plan = try planner.plan(from: Board(size: target.size), to: target)
        let revised = plan.shifting(module: 0, from: 2, by: .milliseconds(300))
        #expect(
            revised.modules[0].landings == plan.modules[0].landings.enumerated().map { $0.offset >= 2 ? $0.element + .milliseconds(300) : $0.element }
        )
        #expect(revised.modules[1] == plan.modules[1])
        #expect(revised.clackEvents.count == plan.clackEvents.count)
        #expect(revised.clackEvents.filter { $0.column == 0 }.map(\.time) == revised.modules[0].landings)
        #expect(Set(revised.clackEvents.map(\.gain)) == Set(plan.clackEvents.map(\.gain)))
        #expect(zip(revised.clackEvents, revised.clackEvents.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(revised.finalBoard == plan.finalBoard)
    }
}
