import FlapCore
import FlapJSON
import FlapPrimitives
import FoundationEssentials
import Synchronization

/// Every source's last good content and health, read at once by whoever lays out a message
/// (the props of its template) and changed by the pollers and webhooks.
public final class SourceShelf: Sendable {
    struct Entry: Sendable {
        var definition: SourceSettings
        var content: SourceContent?
        var record = SourceRecord()
        var lastAttempt: Date?
        var nextAttempt: Date?
        var failures = 0
        var error: String?
        var warnings: [String] = []

        func fresh(at now: Date) -> Bool {
            guard content != nil, let updated = record.updated else { return false }
            return now.timeIntervalSince(updated) <= TimeInterval(definition.staleAfter.components.seconds)
        }
    }

    /// Every source, as configured.
    public let definitions: [SourceSettings]
    let zone: ZoneRules
    /// Each new content: a fetch that brought something new, or a push.
    public let changes = Watchers<SourceChange>()
    private let entries: Mutex<[String: Entry]>

    init(definitions: [SourceSettings], zone: ZoneRules, entries: [String: Entry]) {
        self.definitions = definitions
        self.zone = zone
        self.entries = Mutex(entries)
    }

    /// The source called `name`, or nil.
    public func definition(_ name: String) -> SourceSettings? { definitions.first { $0.name == name } }

    /// Each source's values by its name, for templates: `{{weather.temperature}}`.
    public func props(at now: Date) -> [String: JSONValue] {
        let snapshot = entries.withLock { $0 }
        var props: [String: JSONValue] = [:]
        for definition in definitions {
            let entry = snapshot[definition.name]
            props[definition.name] = SourceValues.values(
                of: definition, content: entry?.content, fresh: entry?.fresh(at: now) ?? false,
                updated: entry?.record.updated, now: now, zone: zone)
        }
        return props
    }

    /// One source's values (a trigger's look needs no other's).
    public func values(of name: String, at now: Date) -> JSONValue? {
        guard let definition = definition(name) else { return nil }
        let entry = entries.withLock { $0[name] }
        return SourceValues.values(
            of: definition, content: entry?.content, fresh: entry?.fresh(at: now) ?? false,
            updated: entry?.record.updated, now: now, zone: zone)
    }

    /// Each source's health at `now` (stale is judged then), in the configuration's order.
    public func health(at now: Date) -> [SourceHealth] {
        let snapshot = entries.withLock { $0 }
        return definitions.compactMap { definition in
            guard let entry = snapshot[definition.name] else { return nil }
            let state: SourceHealth.State = entry.content == nil ? .missing : !entry.fresh(at: now) ? .stale : entry.failures > 0 ? .failing : .ok
            return SourceHealth(
                name: definition.name, kind: definition.kind.name, state: state, from: Self.from(definition),
                updated: entry.record.updated, lastAttempt: entry.lastAttempt, nextAttempt: entry.nextAttempt,
                failures: entry.failures, error: entry.error, warnings: entry.warnings)
        }
    }

    /// The host, or `file`, or `webhook`: enough to tell sources apart without showing a key.
    static func from(_ definition: SourceSettings) -> String {
        switch definition.url.flatMap(SourceLocation.init) {
        case .http(let url)?:
            let afterScheme = url.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? url
            return String(afterScheme.split(separator: "@").last ?? Substring(afterScheme))
        case .file?: return "file"
        case nil: return "webhook"
        }
    }

    func entry(_ name: String) -> Entry? { entries.withLock { $0[name] } }

    @discardableResult
    func update<T>(_ name: String, _ change: (inout Entry) -> T) -> T? {
        entries.withLock { entries in
            guard var entry = entries[name] else { return nil }
            let result = change(&entry)
            entries[name] = entry
            return result
        }
    }
}

/// A source's content changed.
public struct SourceChange: Sendable, Equatable {
    /// The source's name.
    public var source: String
    /// By a push to a webhook (each push is an event), rather than a fetch.
    public var pushed: Bool
}
