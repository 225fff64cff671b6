import Synchronization
import Testing

/// What a test started (a flapd, a broker, a peer) stopped when the test ends, and awaited: a
/// `defer { Task { await x.stop() } }` never waited, so processes piled up on two cores and a
/// stop that hung went unseen. A suite marked `.cleansUp` runs each test's teardowns after it,
/// last first, whether it passed, failed or threw.
public struct CleansUp: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // The suite itself: its tests each get a scope of their own.
        guard testCase != nil || !test.isSuite else { return try await function() }
        let teardowns = Teardowns()
        try await Teardowns.$current.withValue(teardowns) {
            do {
                try await function()
            } catch {
                await teardowns.run()
                throw error
            }
            await teardowns.run()
        }
    }
}

extension Trait where Self == CleansUp {
    /// Runs every ``teardown(_:)`` a test asked for once it ends, and waits for them.
    public static var cleansUp: CleansUp { CleansUp() }
}

/// Stops something the test started, once the test ends (in a suite marked `.cleansUp`).
public func teardown(_ stop: @escaping @Sendable () async -> Void) {
    guard let teardowns = Teardowns.current else {
        Issue.record("teardown outside a test of a suite marked .cleansUp: nothing would stop it")
        return
    }
    teardowns.add(stop)
}

final class Teardowns: Sendable {
    @TaskLocal static var current: Teardowns?
    private let stops = Mutex<[@Sendable () async -> Void]>([])
    private let movers = Mutex<[@Sendable (Duration) async -> Void]>([])

    func add(_ stop: @escaping @Sendable () async -> Void) { stops.withLock { $0.append(stop) } }

    func addTimeMover(_ move: @escaping @Sendable (Duration) async -> Void) { movers.withLock { $0.append(move) } }

    var timeMovers: [@Sendable (Duration) async -> Void] { movers.withLock { $0 } }

    func run() async {
        let all = stops.withLock { list in
            defer { list = [] }; return list
        }
        for stop in all.reversed() { await stop() }
    }
}
