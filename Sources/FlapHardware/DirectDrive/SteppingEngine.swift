import FlapCore
import Synchronization

/// The modules of a directly driven board, stepped as the Chainlink firmware steps them: each
/// module ticks when its own period is up, then one exchange applies every coil and reads every
/// sensor. ``step(at:)`` is the whole of one pass; a stepping thread (or, in tests, a task on a
/// virtual clock) calls it and sleeps until the time it returns.
public final class SteppingEngine: Sendable {
    /// Where the coils and sensors are.
    public let io: any StepperIO
    /// The modules' motor model.
    public let profile: StepperProfile
    private let state: Mutex<State>

    struct State {
        var modules: [StepperModule]
        var due: [Duration?]
        var wake: Set<Int> = []
        var coils: [UInt8]
        var sensors: [Bool]
        var lateness = LatenessStats()
        var failure: HardwareError?
        var released = false
        var starts: [Duration?]
    }

    /// Engine time advances by at most this while every module rests, so commands are picked up.
    public static let idlePoll = Duration.milliseconds(2)

    /// Modules start by looking for home, with `offsets` (steps from the sensor edge to flap 0).
    public init(io: any StepperIO, flaps: Int, offsets: [Int]? = nil) {
        self.io = io
        let profile = StepperProfile(flaps: flaps)
        self.profile = profile
        var modules = Array(repeating: StepperModule(profile: profile), count: io.modules)
        for (i, offset) in (offsets ?? []).prefix(io.modules).enumerated() { modules[i].offsetSteps = offset }
        state = Mutex(
            State(
                modules: modules, due: Array(repeating: .zero, count: io.modules),
                coils: Array(repeating: 0, count: io.modules), sensors: Array(repeating: false, count: io.modules),
                starts: Array(repeating: nil, count: io.modules)))
    }

    /// One pass at engine time `now`: ticks every module that is due, exchanges coils and
    /// sensors, and returns when the next pass is due.
    public func step(at now: Duration) -> Duration {
        state.withLock { s in
            guard !s.released else { return now + Self.idlePoll }
            for i in s.wake where s.due[i] == nil {
                s.due[i] = now
                s.starts[i] = now
            }
            s.wake.removeAll()
            var next = now + Self.idlePoll
            for i in s.modules.indices {
                guard let due = s.due[i], due <= now else {
                    if let due = s.due[i] { next = min(next, due) }
                    continue
                }
                s.lateness.record(now - due)
                let (coils, period) = s.modules[i].tick(sensor: s.sensors[i])
                s.coils[i] = coils
                let resting = !s.modules[i].isMoving && s.modules[i].acceleration == 0
                s.due[i] = resting ? nil : due + period
                if let d = s.due[i] { next = min(next, max(d, now)) }
            }
            do {
                s.sensors = try io.exchange(coils: s.coils)
            } catch let error as HardwareError {
                s.failure = error
            } catch {
                s.failure = HardwareError(device: io.name, problem: "\(error)")
            }
            return next
        }
    }

    /// Sends module `index` to `flap` (a full turn when it is there already).
    public func go(_ index: Int, to flap: Int) {
        state.withLock { s in
            s.modules[index].go(to: flap)
            s.wake.insert(index)
        }
    }

    /// Clears the module's faults and homes it again.
    public func rehome(_ index: Int) {
        state.withLock { s in
            s.modules[index].rehome()
            s.wake.insert(index)
        }
    }

    /// Sets module `index`'s offset (steps from its sensor edge to flap 0) and homes it again,
    /// as the firmware does when an offset is restored.
    public func calibrate(_ index: Int, offsetSteps: Int) {
        state.withLock { s in
            s.modules[index].offsetSteps = ((offsetSteps % profile.stepsPerTurn) + profile.stepsPerTurn) % profile.stepsPerTurn
            s.modules[index].rehome()
            s.wake.insert(index)
        }
    }

    /// When each module last began to move from rest (engine time), for diagnostics and tests.
    public func starts() -> [Duration?] { state.withLock { $0.starts } }

    /// Every module's logic as it is now.
    public func modules() -> [StepperModule] { state.withLock { $0.modules } }

    /// How late passes came, since the last reset.
    public func lateness(reset: Bool = false) -> LatenessStats {
        state.withLock { s in
            defer { if reset { s.lateness = LatenessStats() } }
            return s.lateness
        }
    }

    /// The last I/O failure, if any (cleared by reading it).
    public func takeFailure() -> HardwareError? {
        state.withLock { s in
            defer { s.failure = nil }; return s.failure
        }
    }

    /// Releases every coil and the device; stepping stops for good. Idempotent.
    public func release() {
        state.withLock { s in
            guard !s.released else { return }
            s.released = true
            s.coils = Array(repeating: 0, count: s.coils.count)
            io.release()
        }
    }
}

/// How late module ticks came against their due time: the step-timing jitter.
public struct LatenessStats: Sendable, Equatable {
    /// Counts per 10 µs bucket up to 10 ms; the last bucket holds everything later.
    public private(set) var buckets = [Int](repeating: 0, count: 1001)
    /// Ticks recorded.
    public private(set) var count = 0
    /// Their lateness summed.
    public private(set) var total = Duration.zero
    /// The latest tick's lateness.
    public private(set) var maximum = Duration.zero

    /// No ticks yet.
    public init() {}

    mutating func record(_ lateness: Duration) {
        let micros = Int(lateness / .microseconds(1))
        buckets[min(max(micros, 0) / 10, buckets.count - 1)] += 1
        count += 1
        total += lateness
        maximum = max(maximum, lateness)
    }

    /// How late a tick came on average.
    public var mean: Duration { count == 0 ? .zero : total / count }

    /// The lateness below which `fraction` of ticks came (to 10 µs).
    public func percentile(_ fraction: Double) -> Duration {
        guard count > 0 else { return .zero }
        let wanted = Int((Double(count) * fraction).rounded(.up))
        var seen = 0
        for (bucket, n) in buckets.enumerated() {
            seen += n
            if seen >= wanted { return .microseconds(bucket * 10 + 10) }
        }
        return maximum
    }
}
