import FlapCore
import FlapJSON
import FoundationEssentials

/// What a source gives templates, at an instant in the board's zone. Every name a source can
/// give is always there: a value that is missing (never fetched, not in the document) or stale
/// is the source's placeholder (`--`), so a template shows `--°` rather than failing or going
/// blank. `{{name.stale}}` is true then, and `{{name.updated}}` says when it last arrived. The
/// rest is its kind's (``SourceKind/values(_:options:placeholder:now:zone:)``).
public enum SourceValues {
    /// `definition`'s values at `now`: its kind's, with `stale` and `updated`; `fresh` false gives the placeholders.
    public static func values(
        of definition: SourceSettings, content: SourceContent?, fresh: Bool, updated: Date?,
        now: Date, zone: ZoneRules
    ) -> JSONValue {
        var values = definition.values(fresh ? content : nil, now: now, zone: zone)
        values["stale"] = .bool(!fresh || content == nil)
        values["updated"] = updated.map { .string(clock(zone.wall(at: $0))) } ?? .string(definition.placeholder)
        return .object(values)
    }

    static func clock(_ wall: Int64) -> String {
        let seconds = Int(wall - wall.floorDivided(by: 86_400) * 86_400)
        return "\(two(seconds / 3600)):\(two(seconds % 3600 / 60))"
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
