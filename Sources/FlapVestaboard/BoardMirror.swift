import Logging

/// A board read as a message source: its current message polled every `interval` and handed
/// on when it changes (the first read always is). A board that cannot be read is said once
/// (and once again when it can be); the last message read stays where it was delivered.
/// A 429 waits as long as Retry-After says, if that is longer than the interval.
public actor BoardMirror<C: Clock<Duration>> where C: Sendable {
    /// The board's API client.
    public nonisolated let client: VestaboardClient
    /// How often it reads the board.
    public nonisolated let interval: Duration
    private let clock: C
    private let logger: Logger
    private let deliver: @Sendable ([[Int]]) async -> Void
    /// Why the last read failed, if it did.
    public private(set) var lastError: String?
    /// How many reads were made.
    public private(set) var reads = 0

    /// The cloud is polled at most every 15 s.
    public static var shortestCloudInterval: Duration { .seconds(15) }

    /// Reads the board through `client` every `interval`, handing `deliver` each board that differs from the last.
    public init(client: VestaboardClient, interval: Duration, clock: C, logger: Logger, deliver: @escaping @Sendable ([[Int]]) async -> Void) {
        self.client = client
        self.interval = client.api.minimumSpacing.map { max($0, interval) } ?? interval
        self.clock = clock
        self.logger = logger
        self.deliver = deliver
    }

    /// Polls until cancelled.
    public func run() async {
        var last: [[Int]]?
        while !Task.isCancelled {
            var wait = interval
            do {
                let rows = try await client.read()
                reads += 1
                if lastError != nil { logger.notice("the mirrored board can be read again", metadata: ["board": "\(client.api.address)"]) }
                lastError = nil
                if let rows, rows != last {
                    await deliver(rows)
                    last = rows
                }
            } catch {
                if lastError == nil {
                    logger.warning(
                        "the mirrored board cannot be read; its last message stays",
                        metadata: [
                            "board": "\(client.api.address)", "error": "\(error)"
                        ])
                } else {
                    logger.debug("the mirrored board still cannot be read", metadata: ["error": "\(error)"])
                }
                lastError = error.description
                if case .rateLimited(let asked) = error { wait = max(wait, asked) }
            }
            guard (try? await clock.sleep(for: wait, tolerance: nil)) != nil else { return }
        }
    }
}
