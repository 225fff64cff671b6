import FlapJSON
import FlapMessaging
import FlapPrimitives
import FlapStorage
import FoundationEssentials
import Logging

/// Fires the triggers: each looks at its source when the source's content changes (a fetch
/// with news, a push) and every half minute (events coming closer), and shows its board as a
/// temporary message from the source `trigger` when its condition holds. A condition on a
/// fetched value fires when it becomes true, not while it stays true; a webhook's fires at each
/// push that makes it true; an event fires once. None fires again within its cooldown. What
/// each last did is kept on disk, so a restart neither repeats nor forgets.
public actor TriggerRunner<C: Clock> where C.Duration == Duration {
    struct State: Codable, Sendable, Equatable {
        var lastFired: Date?
        /// Whether the condition held at the last look (nil: never looked).
        var held: Bool?
        /// The last event fired for (its date, start and title).
        var lastEvent: String?
    }

    /// The triggers it runs.
    public let definitions: [TriggerSettings]
    private let shelf: SourceShelf
    private let intake: MessageIntake
    private let clock: C
    private let now: @Sendable () -> Date
    private let stateFile: String?
    private let logger: Logger
    private var states: [String: State]

    /// The largest `triggers.json` read: a few hundred bytes a trigger (an event's title included).
    static var largestStateFile: Int { 1 << 20 }

    /// How often time-based conditions are looked at.
    public static var lookEvery: Duration { .seconds(30) }

    /// Triggers over `shelf`'s sources, their messages given to `intake`; what each last fired on kept in `stateDirectory`.
    public init(
        definitions: [TriggerSettings], shelf: SourceShelf, intake: MessageIntake, clock: C, now: @escaping @Sendable () -> Date,
        stateDirectory: String?, logger: Logger
    ) {
        self.definitions = definitions
        self.shelf = shelf
        self.intake = intake
        self.clock = clock
        self.now = now
        self.logger = logger
        stateFile = stateDirectory.map { $0 + "/triggers.json" }
        states =
            stateFile.flatMap { try? SmallFile.read($0, largest: Self.largestStateFile) }.flatMap { $0 }
            .flatMap { try? JSONDecoder().decode([String: State].self, from: $0) } ?? [:]
    }

    /// Looks until cancelled (without triggers, waits until cancelled).
    public func run() async {
        guard !definitions.isEmpty else { return await WakeSignal().wait() }
        let changes = shelf.changes.watch()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await change in changes { await self.look(at: change.source, pushed: change.pushed) }
            }
            group.addTask {
                while !Task.isCancelled {
                    await self.lookAtAll()
                    try? await self.clock.sleep(until: self.clock.now.advanced(by: Self.lookEvery), tolerance: nil)
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// What each trigger last did, for the API.
    public func views() -> [TriggerView] {
        let now = now()
        return definitions.map { definition in
            let state = states[definition.name] ?? State()
            let cooling = state.lastFired.map { $0.addingTimeInterval(TimeInterval(definition.cooldown.components.seconds)) }.flatMap {
                $0 > now ? $0 : nil
            }
            return TriggerView(
                name: definition.name, source: definition.source, when: TriggerView.describe(definition.condition),
                lastFired: state.lastFired, coolingUntil: cooling)
        }
    }

    func lookAtAll() async {
        for definition in definitions { await look(definition, pushed: false) }
    }

    func look(at source: String, pushed: Bool) async {
        for definition in definitions where definition.source == source { await look(definition, pushed: pushed) }
    }

    private func look(_ definition: TriggerSettings, pushed: Bool) async {
        let now = now()
        guard let values = shelf.values(of: definition.source, at: now)?.object, values["stale"] != true else { return }
        var state = states[definition.name] ?? State()
        let cooled = state.lastFired.map { now.timeIntervalSince($0) >= TimeInterval(definition.cooldown.components.seconds) } ?? true
        let webhook = shelf.definition(definition.source).map { !$0.kind.isFetched } ?? false
        var fire = false
        switch definition.condition {
        case .eventStarts(let within):
            guard let next = values["next"]?.object, let at = next["at"]?.string, let start = try? Date(at, strategy: .iso8601) else { break }
            let key = [at, next["title"]?.string ?? ""].joined(separator: " ")
            if start.timeIntervalSince(now) <= Double(within.components.seconds), key != state.lastEvent, cooled {
                state.lastEvent = key
                fire = true
            }
        case .pushed:
            fire = pushed && cooled
        case .above(let name, _), .below(let name, _), .equals(let name, _):
            guard let value = values[name], value != .string(shelf.definition(definition.source)?.placeholder ?? "") else { break }
            let holds = Self.holds(definition.condition, value)
            if webhook {
                // Each push is an event; a look at the clock is not.
                fire = pushed && holds && cooled
            } else {
                fire = holds && state.held != true && cooled
            }
            state.held = holds
        }
        // Recorded before the message is sent: another look may run while this one waits.
        let firedBefore = state.lastFired
        if fire { state.lastFired = now }
        if state != states[definition.name] {
            states[definition.name] = state
            save()
        }
        if fire, await !show(definition, at: now) {
            states[definition.name]?.lastFired = firedBefore
            save()
        }
    }

    static func holds(_ condition: TriggerSettings.Condition, _ value: JSONValue) -> Bool {
        let number: Double? = value.number ?? value.string.flatMap { Double($0.trimmingSpaces) }
        switch condition {
        case .above(_, let limit): return number.map { $0 > limit } ?? false
        case .below(_, let limit): return number.map { $0 < limit } ?? false
        case .equals(_, let text): return TextPlaceholders.text(value)?.lowercased() == text.lowercased()
        case .eventStarts, .pushed: return false
        }
    }

    /// Sends the trigger's board; whether it was taken.
    private func show(_ definition: TriggerSettings, at now: Date) async -> Bool {
        var fields = definition.content
        let quickMessage = fields.removeValue(forKey: "quickMessage")?.string
        fields["duration"] = .number(Double(definition.duration))
        fields["id"] = .string("trigger-\(definition.name)-\(Int64(now.timeIntervalSince1970))")
        return await intake.sendAutomated(
            fields, quickMessage: quickMessage, source: .trigger, sender: definition.sender,
            kind: "trigger", name: definition.name, logger: logger)
    }

    private func save() {
        guard let stateFile else { return }
        do {
            try DurableFile.write(try JSONEncoder().encode(states), to: stateFile)
        } catch {
            logger.error("what the triggers last did could not be kept; after a restart one may fire again", metadata: ["error": "\(error)"])
        }
    }
}

/// A trigger as `/v1/sources` lists it.
public struct TriggerView: Sendable, Encodable, Equatable {
    /// Its name.
    public var name: String
    /// The source it watches.
    public var source: String
    /// Its condition in words: "an event starts within 15m", "temperature below 0".
    public var when: String
    /// When it last fired, if it has.
    public var lastFired: Date?
    /// Until when it may not fire again.
    public var coolingUntil: Date?

    static func describe(_ condition: TriggerSettings.Condition) -> String {
        switch condition {
        case .eventStarts(let within): "an event starts within \(SourceInterval.text(within))"
        case .above(let value, let limit): "\(value) above \(TextPlaceholders.text(.number(limit)) ?? "\(limit)")"
        case .below(let value, let limit): "\(value) below \(TextPlaceholders.text(.number(limit)) ?? "\(limit)")"
        case .equals(let value, let text): "\(value) is \(text)"
        case .pushed: "a push"
        }
    }
}
