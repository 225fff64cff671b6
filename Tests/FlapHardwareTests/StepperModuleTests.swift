import FlapCore
import FlapSimulated
import Testing

@testable import FlapHardware

/// The module logic against a simulated mechanism, tick by tick (no clock needed: each tick
/// says how long until the next).
@Suite struct StepperModuleTests {
    let profile = StepperProfile(flaps: 52)

    /// Ticks until `done` or `limit` ticks; returns the simulated time taken.
    @discardableResult
    func run(
        _ module: inout StepperModule, _ mechanism: inout SimulatedMechanism, limit: Int = 100_000,
        until done: (StepperModule) -> Bool
    ) -> Duration {
        var time = Duration.zero
        for _ in 0..<limit {
            if done(module) { return time }
            let (coils, next) = module.tick(sensor: mechanism.sensor)
            mechanism.drive(coils)
            time += next
        }
        Issue.record("did not finish in \(limit) ticks")
        return time
    }

    @Test func homesOnTheSensorEdgeThenGoesToItsTarget() {
        var module = StepperModule(profile: profile)
        var mechanism = SimulatedMechanism(rotorStep: 1500)
        module.go(to: 13)
        run(&module, &mechanism) { $0.state == .normal && !$0.isMoving && $0.acceleration == 0 }
        #expect(module.currentFlap == 13)
        #expect(mechanism.rotorStep == profile.step(ofFlap: 13))
        #expect(mechanism.coils == 0, "coils released at rest")
    }

    @Test func aSensorThatNeverFiresEndsInSensorError() {
        var module = StepperModule(profile: profile)
        var mechanism = SimulatedMechanism(rotorStep: 100)
        mechanism.sensorFault = .neverFires
        let took = run(&module, &mechanism) { $0.state == .sensorError && $0.acceleration == 0 }
        // A turn and two flaps at an eighth of full acceleration, then its deceleration.
        #expect(mechanism.stepsTurned == 54 * (2048 / 52) + 8)
        #expect(took > .seconds(8) && took < .seconds(10), "simulated time (the ticks' sum), not the machine's")
        #expect(!module.isMoving)
    }

    @Test func lostStepsAreFoundAtTheNextHomeAndReHomed() {
        var module = StepperModule(profile: profile)
        var mechanism = SimulatedMechanism(rotorStep: 0)
        run(&module, &mechanism) { $0.state == .normal && !$0.isMoving }
        mechanism.losesEveryNthStep = 10
        module.go(to: 40)
        run(&module, &mechanism) { $0.state == .normal && !$0.isMoving && $0.acceleration == 0 }
        module.go(to: 20)  // past home: the edge comes late
        run(&module, &mechanism) { $0.missedHomes + $0.unexpectedHomes > 0 }
        mechanism.losesEveryNthStep = nil
        run(&module, &mechanism) { $0.state == .normal && !$0.isMoving && $0.acceleration == 0 }
        #expect(module.currentFlap == 20)
        #expect(mechanism.rotorStep == profile.step(ofFlap: 20))
    }

    @Test func aStuckSensorIsAnUnexpectedHome() {
        var module = StepperModule(profile: profile)
        var mechanism = SimulatedMechanism(rotorStep: 0)
        run(&module, &mechanism) { $0.state == .normal && !$0.isMoving }
        module.go(to: 30)
        run(&module, &mechanism) { $0.currentStep > 400 }
        // The sensor sticks on far from home: an edge where none can be. The module re-homes, and
        // a sensor that never changes again gives no edge to home on.
        mechanism.sensorFault = .stuckOn
        run(&module, &mechanism) { $0.unexpectedHomes > 0 }
        #expect(module.state == .lookForHome)
        run(&module, &mechanism) { $0.state == .sensorError }
        #expect(module.unexpectedHomes == 1)
    }
}
