import FlapCore
import FlapJSON
import FlapMessaging
import FoundationEssentials

/// A recurring message as written in `[[schedule]]` or sent to `/v1/schedules`: when (days of
/// the week and times, or a cron expression) in which time zone, what it shows (text, codes, a
/// pattern, or a quick message by name), how long it holds its slot, and the sender it speaks as.
public struct ScheduleSettings: Sendable, Equatable, Codable {
    /// Its name, unique among the schedules.
    public var name: String
    /// Day names (`mon`, `monday`), ranges (`mon-fri`), lists (`sat,sun`), `weekdays`, `weekends` or
    /// `daily`: read by `ScheduleDays`.
    public var days: [String]?
    /// Local times of day, `HH:MM`.
    public var times: [String]?
    /// A cron expression, instead of days and times.
    public var cron: String?
    /// An IANA zone such as Europe/Berlin; the system's when absent.
    public var timeZone: String?
    /// Text to lay out.
    public var text: String?
    /// Rows of character codes.
    public var codes: [[Int]]?
    /// Rows of colour names.
    public var pattern: [[String]]?
    /// A VBML document; its templates may name the board's local date and time ({{weekday}}).
    public var vbml: JSONValue?
    /// A quick message's name.
    public var quickMessage: String?
    /// The text's alignment, as a message's `align`.
    public var align: String?
    /// How long each message holds its slot (default 60).
    public var holdMinutes: Int?
    /// Default `schedule-<name>`.
    public var sender: String?
    /// Whether its message stays under people's messages (ambient content: a clock, a quote);
    /// otherwise (the default) it takes the board at its instant like any newer message, for
    /// its hold, and what it covered comes back after.
    public var background: Bool?

    /// A schedule `name` with nothing set yet.
    public init(name: String) { self.name = name }

    /// The source its messages are sent from, which ranks them (``Message/priority``).
    public var source: MessageSource { background == true ? .backgroundSchedule : .schedule }

    // swift-format-ignore: NeverForceUnwrap
    /// Decoder `userInfo`: the name a body without one takes (`PUT /v1/schedules/{name}`). A literal key.
    public static let nameFromPath = CodingUserInfoKey(rawValue: "scheduleNameFromPath")!

    private enum CodingKeys: String, CodingKey {
        case name, days, times, cron, timeZone, text, codes, pattern, vbml, quickMessage, align, holdMinutes, sender, background
    }

    /// Reads a definition; a body without a name takes ``nameFromPath``'s.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let named = try container.decodeIfPresent(String.self, forKey: .name) {
            name = named
        } else if let fromPath = decoder.userInfo[Self.nameFromPath] as? String {
            name = fromPath
        } else {
            throw DecodingError.keyNotFound(CodingKeys.name, .init(codingPath: [], debugDescription: "a schedule needs a name"))
        }
        // A string (`"mon-fri"`) or a list of them, as in the configuration file; null is no
        // day at all, refused as an empty list is (leaving days out is every day).
        if container.contains(.days), try container.decodeNil(forKey: .days) {
            throw DecodingError.valueNotFound(String.self, .init(codingPath: [CodingKeys.days], debugDescription: "days is null"))
        }
        if let one = try? container.decodeIfPresent(String.self, forKey: .days) {
            days = [one]
        } else {
            days = try container.decodeIfPresent([String].self, forKey: .days)
        }
        times = try container.decodeIfPresent([String].self, forKey: .times)
        cron = try container.decodeIfPresent(String.self, forKey: .cron)
        timeZone = try container.decodeIfPresent(String.self, forKey: .timeZone)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        codes = try container.decodeIfPresent([[Int]].self, forKey: .codes)
        pattern = try container.decodeIfPresent([[String]].self, forKey: .pattern)
        vbml = try container.decodeIfPresent(JSONValue.self, forKey: .vbml)
        quickMessage = try container.decodeIfPresent(String.self, forKey: .quickMessage)
        align = try container.decodeIfPresent(String.self, forKey: .align)
        holdMinutes = try container.decodeIfPresent(Int.self, forKey: .holdMinutes)
        sender = try container.decodeIfPresent(String.self, forKey: .sender)
        background = try container.decodeIfPresent(Bool.self, forKey: .background)
    }

    /// How long a schedule's message holds its slot unless it says.
    public static let defaultHoldMinutes = 60
    /// Times of day one schedule may name: every half hour.
    public static let mostTimes = 48
    /// Characters of a schedule's text: a Flagship's 132 many times over, with room for escapes
    /// and `{{placeholders}}`.
    public static let longestText = 1_000

    /// The sender the messages speak as.
    public var senderID: String { sender ?? "schedule-\(name)" }

    /// When it fires, or every problem, each naming its field. `location`: the board's, for
    /// times that follow the sun (`sunrise`, `sunset+30m`).
    public func recurrence(systemZone: ZoneRules = .current(), location: GeoLocation? = nil) throws(ScheduleErrors) -> Recurrence {
        var problems: [ScheduleError] = []
        if name.isEmpty || name.count > 48 || name.contains(where: { "/+#".contains($0) || $0.isWhitespace }) {
            problems.append(ScheduleError("name", "\(name.debugDescription) must be 1 to 48 characters without spaces or / + #"))
        }
        var zone = systemZone
        if let timeZone {
            if let found = ZoneRules.named(timeZone) {
                zone = found
            } else {
                problems.append(
                    ScheduleError("timeZone", "\(timeZone.debugDescription) is not an IANA time zone such as Europe/Berlin or America/New_York"))
            }
        }
        let contents = [text != nil, codes != nil, pattern != nil, vbml != nil, quickMessage != nil].filter { $0 }.count
        if contents != 1 {
            problems.append(
                ScheduleError(
                    "text",
                    contents == 0
                        ? "a schedule needs one of text, codes, pattern, vbml or quickMessage"
                        : "give only one of text, codes, pattern, vbml or quickMessage"))
        }
        if let times, times.count > Self.mostTimes {
            problems.append(
                ScheduleError("times", "has \(times.count) entries; a schedule fires at most \(Self.mostTimes) times a day (use cron for more)"))
        }
        if let text, text.unicodeScalars.count > Self.longestText {
            problems.append(
                ScheduleError("text", "is \(text.unicodeScalars.count) characters long; a schedule's text is at most \(Self.longestText)"))
        }
        if let holdMinutes, !(1...(7 * 24 * 60)).contains(holdMinutes) {
            problems.append(ScheduleError("holdMinutes", "must be 1 to 10080 (a week), not \(holdMinutes)"))
        }
        if let sender, sender.isEmpty || sender.count > 64 || sender.contains(where: { "/+#".contains($0) }) {
            problems.append(ScheduleError("sender", "\(sender.debugDescription) must be 1 to 64 characters without / + #"))
        }
        var rule: Recurrence.Rule?
        switch (cron, days ?? times) {
        case (let cron?, nil):
            do { rule = .cron(try CronExpression(cron)) } catch { problems.append(error) }
        case (nil, _?):
            let weekdays = readDays(&problems), times = readTimes(&problems)
            if let weekdays, let (minutes, sun) = times {
                if sun.isEmpty {
                    rule = .weekly(days: weekdays, minutes: minutes)
                } else if let location {
                    rule = .sun(days: weekdays, minutes: minutes, events: sun, location: location)
                } else {
                    problems.append(
                        ScheduleError("times", "sunrise and sunset need the board's location: [location] latitude and longitude in flapd.toml"))
                }
            }
        case (_?, _?):
            problems.append(ScheduleError("cron", "give either cron or days and times, not both"))
        case (nil, nil):
            problems.append(ScheduleError("times", "a schedule needs times (with days, default daily) or a cron expression"))
        }
        guard problems.isEmpty, let rule else { throw ScheduleErrors(problems) }
        return Recurrence(rule: rule, timeZone: zone)
    }

    private func readDays(_ problems: inout [ScheduleError]) -> Set<Int>? {
        do { return try ScheduleDays.read(days).weekdays } catch {
            problems.append(error)
            return nil
        }
    }

    private func readTimes(_ problems: inout [ScheduleError]) -> (minutes: [Int], sun: [Recurrence.SunTime])? {
        guard let times, !times.isEmpty else {
            problems.append(ScheduleError("times", "days need times of day, such as [\"07:00\"]"))
            return nil
        }
        var minutes: [Int] = []
        var sun: [Recurrence.SunTime] = []
        for time in times {
            if let event = [SunTimes.Event.sunrise, .sunset].first(where: { time.lowercased().hasPrefix($0.rawValue) }) {
                guard let offset = Self.offsetMinutes(time.dropFirst(event.rawValue.count)) else {
                    problems.append(
                        ScheduleError(
                            "times",
                            "\(time.debugDescription) is not \(event.rawValue), \(event.rawValue)+30m or \(event.rawValue)-1h (at most 12 hours before or after)"
                        ))
                    return nil
                }
                sun.append(Recurrence.SunTime(event, offsetMinutes: offset))
                continue
            }
            let parts = time.split(separator: ":")
            guard parts.count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
            else {
                problems.append(ScheduleError("times", "\(time.debugDescription) is not a time of day such as 07:00"))
                return nil
            }
            minutes.append(h * 60 + m)
        }
        return (Array(Set(minutes)).sorted(), sun)
    }

    /// `""`, `+30m`, `-1h`, `+90m`: minutes, at most 12 hours either way; nil for anything else.
    static func offsetMinutes(_ text: Substring) -> Int? {
        guard let sign = text.first else { return 0 }
        guard sign == "+" || sign == "-", let unit = text.last, unit == "m" || unit == "h",
            let count = Int(text.dropFirst().dropLast()), count >= 0
        else { return nil }
        let minutes = count * (unit == "h" ? 60 : 1)
        guard minutes <= 12 * 60 else { return nil }
        return sign == "-" ? -minutes : minutes
    }

    /// The message's fields for one occurrence (the content, alignment and sender; the quick
    /// message's fields are merged in by the runner). Its id is ``occurrenceID(at:key:)``'s.
    func messageFields(at occurrence: Date, key: [UInt8]) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "id": .string(occurrenceID(at: occurrence, key: key)),
            "sender": ["id": .string(senderID), "name": .string(name)],
            "createdAt": .string(occurrence.formatted(.iso8601)),
            "expiresAt": .string(occurrence.addingTimeInterval(TimeInterval((holdMinutes ?? Self.defaultHoldMinutes) * 60)).formatted(.iso8601))
        ]
        if let text { fields["text"] = .string(text) }
        if let codes { fields["codes"] = JSONValue(rows: codes) }
        if let pattern { fields["pattern"] = .array(pattern.map { .array($0.map(JSONValue.string)) }) }
        if let vbml { fields["vbml"] = vbml }
        if let align { fields["align"] = .string(align) }
        return fields
    }
}

/// Every problem of a schedule.
public struct ScheduleErrors: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each problem.
    public var problems: [ScheduleError]
    /// The problems.
    public init(_ problems: [ScheduleError]) { self.problems = problems }
    /// The problems, separated by semicolons.
    public var description: String { problems.map(\.description).joined(separator: "; ") }
}
