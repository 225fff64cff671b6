import FlapCore
import FlapJSON
import FlapMessaging
import FlapStorage
import FoundationEssentials
import Logging

/// A schedule as the API lists it.
public struct ScheduleView: Sendable, Encodable {
    /// The schedule as defined.
    public var definition: ScheduleSettings
    /// Declared in the configuration file: read-only over the API.
    public var fromFile: Bool
    /// When it next fires.
    public var next: Date?

    enum CodingKeys: String, CodingKey { case fromFile, next, weekdays }

    /// The definition's fields, with `fromFile`, `next` and the days as weekday numbers.
    public func encode(to encoder: any Encoder) throws {
        try definition.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fromFile, forKey: .fromFile)
        try container.encodeIfPresent(next, forKey: .next)
        // The days as read (0 is Sunday), so a view names them without reading `days` again.
        if definition.cron == nil, let days = try? ScheduleDays.read(definition.days) {
            try container.encode(days.weekdays.sorted(), forKey: .weekdays)
        }
    }
}

/// Why a schedule could not be added, changed or removed.
public enum ScheduleBookError: Error, Sendable {
    case invalid(ScheduleErrors)
    /// The configuration file declares it; change it there.
    case fromFile(String)
    case missing(String)
    case exists(String)
    /// As many schedules are kept as flapd keeps (``ScheduleRunner/mostStored``).
    case full(Int)
}

/// The schedules as the API sees them.
public protocol ScheduleBook: Sendable {
    func list() async -> [ScheduleView]
    func add(_ definition: ScheduleSettings) async throws -> ScheduleView
    func replace(_ name: String, with definition: ScheduleSettings) async throws -> ScheduleView
    func remove(_ name: String) async throws
}

/// Fires recurring messages: each schedule's message enters the inbox at each occurrence (with
/// an id made of the schedule's name and the instant under a key of the inbox's, so a repeat is
/// a duplicate and nobody can send a message with that id first), created then
/// and expiring after its hold. Nothing fires on a clock that cannot be trusted. After a jump of
/// the clock (or a restart) each schedule fires at most once, for its latest missed occurrence,
/// and only if that was within ``grace``; older ones are skipped.
public actor ScheduleRunner<C: Clock>: ScheduleBook where C.Duration == Duration {
    /// Schedules kept over the API, at most: a household's many times over, and a listing of all
    /// of them (at most ``largestStored`` each) stays under 2 MB.
    public static var mostStored: Int { 100 }
    /// Bytes one stored schedule takes, at most, as JSON.
    public static var largestStored: Int { 16_384 }

    /// How late a missed occurrence may still fire.
    public static var grace: TimeInterval { 30 * 60 }

    private let inbox: Inbox
    private let intake: MessageIntake
    private let time: ServiceTime<C>
    private let trust: @Sendable () -> ClockVerdict
    private let logger: Logger
    private let systemZone: ZoneRules
    /// The board's location, for schedules that follow the sun.
    private let location: GeoLocation?
    private let fromFile: [ScheduleSettings]
    private var stored: [ScheduleSettings] = []
    private var loaded = false
    private let alarm: Alarm<C>
    private var key: [UInt8]?

    /// `fromFile`: the configuration's schedules, already checked.
    public init(
        inbox: Inbox, intake: MessageIntake, time: ServiceTime<C>, trust: @escaping @Sendable () -> ClockVerdict,
        fromFile: [ScheduleSettings], systemZone: ZoneRules = .current(), location: GeoLocation? = nil, logger: Logger
    ) {
        self.location = location
        self.inbox = inbox
        self.intake = intake
        self.time = time
        self.trust = trust
        self.fromFile = fromFile
        self.systemZone = systemZone
        self.logger = logger
        alarm = Alarm(clock: time.clock)
    }

    /// Runs until cancelled.
    public func run() async {
        await check()
        for await _ in alarm.wakeups {
            if Task.isCancelled { break }
            await check()
        }
        await alarm.stop()
    }

    // MARK: The book

    /// Every schedule, the file's first.
    public func list() async -> [ScheduleView] {
        await load()
        let now = time.now()
        return fromFile.map { view($0, fromFile: true, now: now) } + stored.map { view($0, fromFile: false, now: now) }
    }

    /// Adds a schedule of a new name.
    public func add(_ definition: ScheduleSettings) async throws -> ScheduleView {
        await load()
        guard !all.contains(where: { $0.name == definition.name }) else { throw ScheduleBookError.exists(definition.name) }
        guard stored.count < Self.mostStored else { throw ScheduleBookError.full(Self.mostStored) }
        return try await save(definition)
    }

    /// Replaces the schedule `name` (not one of the file's).
    public func replace(_ name: String, with definition: ScheduleSettings) async throws -> ScheduleView {
        await load()
        guard !fromFile.contains(where: { $0.name == name }) else { throw ScheduleBookError.fromFile(name) }
        guard stored.contains(where: { $0.name == name }) else { throw ScheduleBookError.missing(name) }
        var renamed = definition
        renamed.name = name
        return try await save(renamed)
    }

    /// Removes the schedule `name` (not one of the file's).
    public func remove(_ name: String) async throws {
        await load()
        guard !fromFile.contains(where: { $0.name == name }) else { throw ScheduleBookError.fromFile(name) }
        guard try await inbox.removeSchedule(name) else { throw ScheduleBookError.missing(name) }
        stored.removeAll { $0.name == name }
    }

    private func save(_ given: ScheduleSettings) async throws -> ScheduleView {
        do { _ = try given.recurrence(systemZone: systemZone, location: location) } catch { throw ScheduleBookError.invalid(error) }
        // Kept as the days they mean, whichever way they were written.
        var definition = given
        if let days = given.days, let read = try? ScheduleDays.read(days) { definition.days = read.names }
        let contentProblems = definition.contentProblems(
            boardSize: intake.boardSize, flap62: intake.flap62, now: time.now(), props: intake.props(at: time.now()))
        guard contentProblems.isEmpty else { throw ScheduleBookError.invalid(ScheduleErrors(contentProblems)) }
        let encoded = try JSONEncoder().encode(definition)
        guard encoded.count <= Self.largestStored else {
            throw ScheduleBookError.invalid(
                ScheduleErrors([ScheduleError("text", "the schedule takes \(encoded.count) bytes; one takes at most \(Self.largestStored)")]))
        }
        do {
            try await inbox.storeSchedule(definition.name, definition: encoded, now: time.now())
        } catch let fault as StorageFault {
            throw fault  // the disk's trouble, answered as such (507, 503), not the schedule's
        } catch {
            throw ScheduleBookError.invalid(ScheduleErrors([ScheduleError("name", "could not be saved: \(error)")]))
        }
        stored.removeAll { $0.name == definition.name }
        stored.append(definition)
        stored.sort { $0.name < $1.name }
        // From now on: a schedule added at 06:59 fires at 07:00, not for 06:30.
        try? await inbox.recordScheduleChecks([definition.name], at: time.now())
        alarm.poke()
        return view(definition, fromFile: false, now: time.now())
    }

    private var all: [ScheduleSettings] { fromFile + stored }

    private func view(_ definition: ScheduleSettings, fromFile: Bool, now: Date) -> ScheduleView {
        ScheduleView(
            definition: definition, fromFile: fromFile,
            next: (try? definition.recurrence(systemZone: systemZone, location: location))?.next(after: now))
    }

    private func load() async {
        guard !loaded else { return }
        loaded = true
        do {
            stored = try await inbox.storedSchedules().compactMap { entry in
                do {
                    return try JSONDecoder().decode(ScheduleSettings.self, from: entry.definition)
                } catch {
                    logger.error("a stored schedule cannot be read; skipped", metadata: ["schedule": "\(entry.name)", "error": "\(error)"])
                    return nil
                }
            }
        } catch {
            logger.error("could not read the stored schedules", metadata: ["error": "\(error)"])
        }
    }

    // MARK: Firing

    private func check() async {
        await load()
        let verdict = trust()
        guard verdict.trusted else {
            return await alarm.arm(time.clock.now.advanced(by: ReleaseTimer<C>.trustRecheck))
        }
        let now = time.now()
        do {
            let checks = try await inbox.scheduleChecks()
            var soonest: Date?
            for definition in all {
                guard let recurrence = try? definition.recurrence(systemZone: systemZone, location: location) else { continue }
                if let since = checks[definition.name],
                    let occurrence = recurrence.latest(after: since, upTo: now, window: Self.grace)
                {
                    await fire(definition, at: occurrence)
                }
                if let next = recurrence.next(after: now) { soonest = min(soonest ?? next, next) }
            }
            try await inbox.recordScheduleChecks(all.map(\.name), at: now)
            let wake = soonest.map { time.instant(at: $0) } ?? time.clock.now.advanced(by: ReleaseTimer<C>.longestSleep)
            await alarm.arm(min(wake, time.clock.now.advanced(by: ReleaseTimer<C>.longestSleep)))
        } catch {
            logger.error("could not run the schedules", metadata: ["error": "\(error)"])
            await alarm.arm(time.clock.now.advanced(by: ReleaseTimer<C>.longestSleep))
        }
    }

    /// The inbox's key for occurrence ids, read once.
    private func occurrenceKey() async -> [UInt8]? {
        if let key { return key }
        do {
            key = try await inbox.occurrenceKey()
        } catch {
            logger.error("could not read the key schedule occurrences are named with", metadata: ["error": "\(error)"])
        }
        return key
    }

    private func fire(_ definition: ScheduleSettings, at occurrence: Date) async {
        // Its text's {{weekday}} and the like are the board's date and time as it fires.
        guard let key = await occurrenceKey() else { return }
        _ = await intake.sendAutomated(
            definition.messageFields(at: occurrence, key: key), quickMessage: definition.quickMessage, source: definition.source,
            sender: definition.senderID, kind: "schedule", name: definition.name, logger: logger)
    }
}
