import FlapJSON
import FlapPrimitives
import FlapStorage
import FoundationEssentials
import Glibc
import Synchronization

/// How fast a webhook source takes pushes: each is written to disk, so a flood is held to a
/// rate a doorbell or a sensor never reaches.
public enum WebhookRate {
    /// Pushes taken at once.
    public static let burst = 10
    /// Pushes a second after those.
    public static let perSecond = 1.0
}

/// Why a push to a webhook source was refused.
public enum SourcePushError: Error, Sendable {
    case unknownSource(String)
    /// It is fetched, not pushed to.
    case notWebhook(String)
    /// What was wrong, each naming its field.
    case invalid([(field: String, problem: String)])
    /// Pushed to faster than ``WebhookRate`` allows: wait this many seconds.
    case tooFast(retryAfter: Int)
}

extension SourceHub {
    /// Sets a webhook source's values from a pushed JSON object (`{"state": "open"}`; `null`
    /// clears one); the others keep theirs. Kept on disk before it returns, so an answered push
    /// survives a power cut. A disk's trouble is thrown as its ``StorageFault``. Each source
    /// is held to ``WebhookRate`` (``SourcePushError/tooFast(retryAfter:)``).
    public func push(_ name: String, body: JSONValue) throws -> SourceHealth {
        guard let definition = shelf.definition(name) else { throw SourcePushError.unknownSource(name) }
        let object = try definition.accept(body)
        // Each push is written to disk: a flood of them is held to the rate.
        let at = currentDate().timeIntervalSince1970
        if let wait = pushRate.withLock({ $0.take(name, at: at) }) { throw SourcePushError.tooFast(retryAfter: wait) }
        var record = shelf.entry(name)?.record ?? SourceRecord()
        var values = record.pushed ?? [:]
        // Not `value.isNull ? nil : value`: that nil would be JSONValue's own null.
        for (field, value) in object {
            if value.isNull { values.removeValue(forKey: field) } else { values[field] = value }
        }
        record.pushed = values
        record.updated = currentDate()
        try storeRecord(name, record)
        shelf.update(name) { entry in
            entry.record = record
            entry.content = SourceContent(values)
            entry.lastAttempt = record.updated
        }
        metricsLooked(name, updated: record.updated)
        shelf.changes.yield(SourceChange(source: name, pushed: true))
        guard let health = shelf.health(at: currentDate()).first(where: { $0.name == name }) else { throw SourcePushError.unknownSource(name) }
        return health
    }

    /// Whether `key` is the webhook's own key (its `key_file`), compared in constant time.
    public func isKey(_ key: String, of name: String) -> Bool {
        guard let path = shelf.definition(name)?.pushKeyFile, let data = try? SmallFile.read(path, largest: SmallFile.largestKeyFile) else {
            return false
        }
        let expected = Array(
            (String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? "").trimmingSpaces.utf8)
        let given = Array(key.utf8)
        guard !expected.isEmpty, expected.count == given.count else { return false }
        return zip(expected, given).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
