import FlapEndpoints
import FlapJSON
import FoundationEssentials
import HTTPTypes
import Hummingbird

/// The settings a household changes from the page, as the appliance keeps them: each with its
/// value and where the value comes from, changed and validated by flapd.toml's own reader.
public protocol SettingsKeeper: Sendable {
    /// Every setting read now, with its value (secrets only said to be given) and origin.
    func settings() async -> any Encodable & Sendable
    /// Makes `changes` together (a nil value takes the page's value back), keeps them and has
    /// them applied; refused whole, naming each setting that is wrong, when any is.
    func change(_ changes: [(key: String, value: JSONValue?)]) async throws(SettingsRefusal) -> any Encodable & Sendable
}

/// Why changes to the settings were refused: each problem names its setting.
public struct SettingsRefusal: Error, Sendable {
    /// One line per problem: "sound.volume: 140 is out of range; use 0 to 100 (%)".
    public var problems: [String]

    /// A refusal saying `problems`.
    public init(_ problems: [String]) { self.problems = problems }
}

/// `/v1/settings`: the owner's, as flapd.toml is root's.
struct SettingsAPI: RouteGroup {
    let keeper: (any SettingsKeeper)?

    /// The body of a change is small: a form's worth of settings.
    static let largestBody = 16 * 1024
    /// The most settings one change makes.
    static let mostChanges = 64
    static let usage = #"send {"changes": [{"key": "sound.volume", "value": 40}]}; a value of null takes the page's value back"#

    func add(to v1: AccessRoutes) {
        v1.on(.settings, .owner) { _, _ in
            Answer(Encoded(try await present().settings()))
        }
        v1.on(.changeSettings, .owner) { request, _ in
            let keeper = try present()
            let changes = try await Self.changes(request)
            do {
                return Answer(Encoded(try await keeper.change(changes)))
            } catch let refusal as SettingsRefusal {
                throw APIError(.badRequest, refusal.problems.joined(separator: "; "))
            }
        }
    }

    /// The changes asked, in order: each a key and a value, null taking the page's value back.
    static func changes(_ request: Request) async throws -> [(key: String, value: JSONValue?)] {
        guard let body = try await Responses.body(of: request, limit: largestBody) else {
            throw APIError(.contentTooLarge, "the request is larger than \(largestBody / 1024) KiB: " + usage)
        }
        guard case .object(let fields)? = try? JSONValue(parsing: body), case .array(let list)? = fields["changes"], fields.count == 1 else {
            throw APIError(.badRequest, usage)
        }
        guard !list.isEmpty, list.count <= mostChanges else {
            throw APIError(.badRequest, "changes holds 1 to \(mostChanges) settings, not \(list.count)")
        }
        var changes: [(key: String, value: JSONValue?)] = []
        for (place, entry) in list.enumerated() {
            guard case .object(let change) = entry, case .string(let key)? = change["key"], let value = change["value"],
                change.keys.allSatisfy({ $0 == "key" || $0 == "value" })
            else {
                throw APIError(.badRequest, "changes[\(place)] is not {\"key\": …, \"value\": …}: " + usage)
            }
            if case .null = value { changes.append((key, nil)) } else { changes.append((key, value)) }
        }
        return changes
    }

    private func present() throws -> any SettingsKeeper {
        guard let keeper else { throw APIError(.notFound, "this flapd keeps no settings of the page") }
        return keeper
    }
}
