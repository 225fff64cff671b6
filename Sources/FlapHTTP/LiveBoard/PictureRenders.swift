import FlapPrimitives
import NIOPosix

/// Board pictures drawn once and kept: the last few by their tag (panel, board and size), the
/// same picture asked for by many at once drawn once for all of them, and one picture drawn at a
/// time, on NIO's thread pool rather than the threads that answer requests. A dashboard or a
/// crowd of viewer-key requests for 4096-pixel pictures then costs one drawing, and `/healthz`
/// and the API are answered meanwhile.
///
/// Pictures not kept are drawn within a budget for anyone but the household: 296 viewer-key
/// requests at widths from 3 800 to 4 095, 64 at a time, once cost 29 CPU-seconds and left an
/// owner's picture waiting 4.35 s behind them. Now the household's drawings go first, and others'
/// wait at most ``othersWaiting`` at once and start at most ``othersPerSecond`` a second (a
/// burst of ``othersWaiting``); past that they are refused (``PicturesBusy``) until there is room.
public actor PictureRenders {
    /// How many pictures are kept (a 4096-pixel one is some hundreds of KB).
    public static let kept = 8
    /// Drawings for someone other than the household (the viewer key) waiting or drawn at once.
    public static let othersWaiting = 4
    /// New drawings a second for someone other than the household, over time.
    public static let othersPerSecond = 1.0

    /// Whose picture it is: the household's are drawn first and within no budget.
    public enum Asker: Sendable { case household, other }

    /// A picture not drawn now: the others' budget is spent; try again after `retryAfter` seconds.
    public struct PicturesBusy: Error, Sendable {
        /// Seconds to wait.
        public let retryAfter: Int
    }

    private var pictures: [(tag: String, bytes: [UInt8])] = []
    private var drawing: [String: Task<[UInt8], any Error>] = [:]
    private var busy = false
    private var waitingHousehold: [CheckedContinuation<Void, Never>] = []
    private var waitingOthers: [CheckedContinuation<Void, Never>] = []
    private var othersPending = 0
    private var othersBudget = TokenBuckets<Int>(burst: PictureRenders.othersWaiting, perSecond: PictureRenders.othersPerSecond, keys: 1)
    private let started = ContinuousClock.now
    /// Pictures drawn since the start (for tests).
    public private(set) var drawn = 0

    /// Nothing drawn yet.
    public init() {}

    /// The picture tagged `tag`, kept or drawn by `draw`; for `asker` `.other`, within the
    /// others' budget, else ``PicturesBusy``.
    public func picture(tag: String, for asker: Asker = .household, draw: @escaping @Sendable () throws -> [UInt8]) async throws -> [UInt8] {
        if let kept = pictures.first(where: { $0.tag == tag }) { return kept.bytes }
        if let running = drawing[tag] { return try await running.value }
        if asker == .other {
            guard othersPending < Self.othersWaiting else { throw PicturesBusy(retryAfter: 2) }
            let elapsed = started.duration(to: .now).components
            if let wait = othersBudget.take(0, at: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18) {
                throw PicturesBusy(retryAfter: wait)
            }
            // Counted here, before the drawing's task runs: a burst of requests all arrive first.
            othersPending += 1
        }
        defer { if asker == .other { othersPending -= 1 } }
        let task = Task { try await self.oneAtATime(draw, for: asker) }
        drawing[tag] = task
        defer { drawing[tag] = nil }
        let bytes = try await task.value
        pictures.append((tag, bytes))
        if pictures.count > Self.kept { pictures.removeFirst() }
        return bytes
    }

    /// Drawings waiting for their turn (for tests).
    public var waiting: (household: Int, others: Int) { (waitingHousehold.count, waitingOthers.count) }

    private func oneAtATime(_ draw: @escaping @Sendable () throws -> [UInt8], for asker: Asker) async throws -> [UInt8] {
        while busy {
            await withCheckedContinuation { waiting in
                if asker == .household { waitingHousehold.append(waiting) } else { waitingOthers.append(waiting) }
            }
        }
        busy = true
        defer {
            busy = false
            if !waitingHousehold.isEmpty {
                waitingHousehold.removeFirst().resume()
            } else if !waitingOthers.isEmpty {
                waitingOthers.removeFirst().resume()
            }
        }
        drawn += 1
        return try await NIOThreadPool.singleton.runIfActive { try draw() }
    }
}
