import FlapJSON
import FoundationEssentials

/// A source as `/v1/sources` shows it: its health, how often it is looked at, and the values a
/// template would get now (`{{NAME.VALUE}}`).
public struct SourceView: Sendable, Encodable {
    /// Its health, whose fields come first in the JSON.
    public var health: SourceHealth
    /// Its interval as written (`10m`); nil for a source that is pushed to.
    public var every: String?
    /// How old its content may be before it is stale (`1h`).
    public var staleAfter: String
    /// What a template would get now.
    public var values: JSONValue

    enum CodingKeys: String, CodingKey { case every, staleAfter, values }

    /// Its health's fields, then its own: one flat object.
    public func encode(to encoder: any Encoder) throws {
        try health.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(every, forKey: .every)
        try container.encode(staleAfter, forKey: .staleAfter)
        try container.encode(values, forKey: .values)
    }
}

extension SourceShelf {
    /// Every source as `/v1/sources` lists it at `now`.
    public func views(at now: Date) -> [SourceView] {
        let props = props(at: now)
        return health(at: now).compactMap { health in
            guard let definition = definition(health.name) else { return nil }
            return SourceView(
                health: health, every: definition.kind.isFetched ? SourceInterval.text(definition.every) : nil,
                staleAfter: SourceInterval.text(definition.staleAfter), values: props[health.name] ?? .null)
        }
    }
}
