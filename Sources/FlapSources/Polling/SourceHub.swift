import AsyncHTTPClient
import FlapCore
import FlapJSON
import FlapMetrics
import FlapPrimitives
import FoundationEssentials
import Logging
import Synchronization

/// Runs the sources: each fetched one on its own interval (conditional requests; after a
/// failure again in 30 s, then twice as long each time, up to an hour or its interval), its
/// last good content kept on disk and used until it is stale; webhooks pushed to. Its
/// ``shelf`` is what templates read.
public final class SourceHub<C: Clock>: Sendable where C.Duration == Duration {
    /// What templates, the API and triggers read: every source's definition, content and health.
    public let shelf: SourceShelf
    private let clock: C
    private let now: @Sendable () -> Date
    private let store: SourceStore
    private let fetcher: SourceFetcher
    private let metrics: FlapMetrics?
    private let logger: Logger
    private let wakes: [String: WakeSignal]
    /// Pushes to each webhook source, held to their rate.
    let pushRate = Mutex(TokenBuckets<String>(burst: WebhookRate.burst, perSecond: WebhookRate.perSecond))

    /// `stateDirectory`: where each source's last good content is kept (`sources/` in it); nil keeps nothing.
    public init(
        definitions: [SourceSettings], zone: ZoneRules, stateDirectory: String?, clock: C, now: @escaping @Sendable () -> Date,
        http: HTTPClient = .shared, metrics: FlapMetrics? = nil, logger: Logger
    ) {
        self.clock = clock
        self.now = now
        self.metrics = metrics
        self.logger = logger
        store = SourceStore(directory: stateDirectory.map { $0 + "/sources" })
        fetcher = SourceFetcher(http: http)
        var entries: [String: SourceShelf.Entry] = [:]
        for definition in definitions {
            var entry = SourceShelf.Entry(definition: definition)
            if let record = store.load(definition.name) {
                entry.record = record
                if let pushed = record.pushed {
                    entry.content = SourceContent(pushed)
                } else if let body = record.body {
                    do {
                        entry.content = try SourceContent(body: Array(body), for: definition)
                        entry.warnings = Self.warnings(entry.content, definition)
                    } catch {
                        // Kept by an older flapd that read it differently: fetched again.
                        entry.record = SourceRecord()
                        logger.warning(
                            "a source's kept content cannot be read; it is fetched again",
                            metadata: ["source": "\(definition.name)", "error": "\(error)"])
                    }
                }
            }
            entries[definition.name] = entry
        }
        shelf = SourceShelf(definitions: definitions, zone: zone, entries: entries)
        wakes = Dictionary(uniqueKeysWithValues: definitions.map { ($0.name, WakeSignal()) })
    }

    /// Fetches every source on its interval until cancelled; with only webhooks it has nothing
    /// to fetch and still returns only when cancelled, as a service must.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            for definition in shelf.definitions where definition.kind.isFetched {
                group.addTask { await self.poll(definition) }
            }
            group.addTask { await WakeSignal().wait() }
        }
    }

    /// Looks at a fetched source now rather than at its next time; false for no such source or a webhook.
    @discardableResult
    public func refresh(_ name: String) -> Bool {
        guard let definition = shelf.definition(name), definition.kind.isFetched else { return false }
        wakes[name]?.wake()
        return true
    }

    // MARK: Fetching

    private func poll(_ definition: SourceSettings) async {
        let name = definition.name
        // After a restart, a source fetched a moment ago waits for the rest of its interval.
        var delay = Duration.zero
        if let updated = shelf.entry(name)?.record.updated, shelf.entry(name)?.content != nil {
            let elapsed = now().timeIntervalSince(updated)
            let interval = TimeInterval(definition.every.components.seconds)
            if elapsed >= 0 && elapsed < interval { delay = .seconds(interval - elapsed) }
        }
        while !Task.isCancelled {
            let at = now().addingTimeInterval(TimeInterval(delay.components.seconds))
            shelf.update(name) { $0.nextAttempt = at }
            if delay > .zero { await sleep(delay, or: wakes[name]) }
            if Task.isCancelled { break }
            delay = await look(definition)
        }
    }

    /// Sleeps for `delay` on the clock, or until `wake`.
    private func sleep(_ delay: Duration, or wake: WakeSignal?) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [clock] in try? await clock.sleep(until: clock.now.advanced(by: delay), tolerance: nil) }
            if let wake { group.addTask { await wake.wait() } }
            await group.next()
            group.cancelAll()
        }
    }

    /// One look; returns how long until the next.
    private func look(_ definition: SourceSettings) async -> Duration {
        let name = definition.name
        let started = now()
        let previous = shelf.entry(name)?.record ?? SourceRecord()
        var record = previous
        do throws(SourceFetcher.Failure) {
            switch try await fetcher.fetch(definition, previous: previous) {
            case .unchanged:
                record.updated = now()
                shelf.update(name) { $0.record = record }
                metrics?.sourceLooked(source: name, outcome: "unchanged", updated: record.updated)
            case .changed(let body, let etag, let lastModified):
                let content: SourceContent
                do throws(SourceProblem) {
                    content = try SourceContent(body: body, for: definition)
                } catch {
                    throw SourceFetcher.Failure(problem: error)
                }
                record = SourceRecord(body: Data(body), etag: etag, lastModified: lastModified, updated: now())
                let warnings = Self.warnings(content, definition)
                shelf.update(name) {
                    $0.content = content
                    $0.record = record
                    $0.warnings = warnings
                }
                metrics?.sourceLooked(source: name, outcome: "changed", updated: record.updated)
                shelf.changes.yield(SourceChange(source: name, pushed: false))
            }
        } catch {
            let failures =
                shelf.update(name) { entry in
                    entry.lastAttempt = started
                    entry.failures += 1
                    entry.error = error.problem.description
                    return entry.failures
                } ?? 1
            metrics?.sourceLooked(source: name, outcome: "failed", updated: nil)
            if failures == 1 {
                let hasValue = shelf.entry(name)?.content != nil
                logger.warning(
                    hasValue
                        ? "a source could not be fetched; its last good values are used until they are stale"
                        : "a source could not be fetched; templates show its placeholder until it answers",
                    metadata: [
                        "source": "\(name)", "error": "\(error.problem)", "staleAfter": "\(SourceInterval.text(definition.staleAfter))",
                        "retryIn": "\(SourceInterval.text(Self.backoff(failures: 1, every: definition.every, retryAfter: error.retryAfter)))"
                    ])
            }
            return Self.backoff(failures: failures, every: definition.every, retryAfter: error.retryAfter)
        }
        let recovered =
            shelf.update(name) { entry in
                defer { entry.failures = 0; entry.error = nil; entry.lastAttempt = started }
                return entry.failures
            } ?? 0
        if recovered > 0 { logger.notice("a source answers again", metadata: ["source": "\(name)", "failures": "\(recovered)"]) }
        do {
            try store.save(name, record)
        } catch {
            logger.error(
                "a source's content could not be kept on disk; it is fetched again after a restart",
                metadata: ["source": "\(name)", "error": "\(error)"])
        }
        return definition.every
    }

    /// 30 s after the first failure, twice as long after each one more, up to an hour or the
    /// source's interval if that is longer; a server's Retry-After (up to 6 hours) if later.
    static func backoff(failures: Int, every: Duration, retryAfter: Int?) -> Duration {
        let ceiling = max(every, .seconds(3600))
        let doubled = Duration.seconds(30) * (1 << min(failures - 1, 16))
        let delay = min(doubled, ceiling)
        guard let retryAfter else { return delay }
        return max(delay, .seconds(min(retryAfter, 6 * 3600)))
    }

    func currentDate() -> Date { now() }

    func storeRecord(_ name: String, _ record: SourceRecord) throws { try store.save(name, record) }

    func metricsLooked(_ name: String, updated: Date?) { metrics?.sourceLooked(source: name, outcome: "pushed", updated: updated) }

    static func warnings(_ content: SourceContent?, _ definition: SourceSettings) -> [String] {
        content.map { definition.warnings($0) } ?? []
    }
}
