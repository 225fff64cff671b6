import FoundationEssentials

/// A time zone's offsets from UTC through history and into the future, read from a TZif file of
/// the system's zoneinfo (RFC 8536), with the POSIX TZ rule at its end for the years after its
/// last transition. flapd's own because FoundationEssentials knows only UTC: its time zones come
/// with ICU, whose data alone is 34 MB.
public struct ZoneRules: Sendable, Equatable, CustomStringConvertible {
    /// The IANA name (Europe/Berlin), or UTC.
    public let identifier: String
    /// Instants (seconds since 1970, UTC) at which the offset changes, ascending.
    let transitions: [Int64]
    /// The offset (seconds east of UTC) from each transition on.
    let offsets: [Int32]
    /// The offset before the first transition.
    let initialOffset: Int32
    /// The rule after the last transition.
    let rule: PosixZoneRule?

    /// Coordinated Universal Time: no offset, ever.
    public static let utc = ZoneRules(identifier: "UTC", transitions: [], offsets: [], initialOffset: 0, rule: nil)

    init(identifier: String, transitions: [Int64], offsets: [Int32], initialOffset: Int32, rule: PosixZoneRule?) {
        self.identifier = identifier
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// A zone given as a POSIX TZ rule only (`CET-1CEST,M3.5.0,M10.5.0/3`), or nil.
    public init?(posix text: String) {
        guard let rule = PosixZoneRule(text) else { return nil }
        self.init(identifier: text, transitions: [], offsets: [], initialOffset: rule.standardOffset, rule: rule)
    }

    /// The zone's IANA name.
    public var description: String { identifier }

    /// The offset from UTC, in seconds east, at `date`.
    public func secondsFromGMT(for date: Date) -> Int {
        Int(offset(at: Int64(date.timeIntervalSince1970.rounded(.down))))
    }

    func offset(at instant: Int64) -> Int32 {
        if let last = transitions.last, instant >= last, let rule { return rule.offset(at: instant) }
        guard let first = transitions.first, instant >= first else {
            return transitions.isEmpty ? (rule?.offset(at: instant) ?? initialOffset) : initialOffset
        }
        // The last transition at or before the instant.
        var low = 0, high = transitions.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if transitions[middle] <= instant { low = middle } else { high = middle - 1 }
        }
        return offsets[low]
    }

    /// The first instant after `date` at which the offset changes, or nil when it never does.
    public func nextTransition(after date: Date) -> Date? {
        let instant = Int64(date.timeIntervalSince1970.rounded(.down))
        // A listed transition that keeps the offset (files list one at 2038-01-19) is no change.
        for (index, transition) in transitions.enumerated() where transition > instant {
            if offsets[index] != (index > 0 ? offsets[index - 1] : initialOffset) { return Date(timeIntervalSince1970: TimeInterval(transition)) }
        }
        return rule?.nextTransition(after: max(instant, transitions.last ?? instant)).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// The instant the wall clock reads `wall` (seconds since 1970 as if the wall clock were
    /// UTC): the earlier of two when the hour repeats, the end of the gap when it is skipped.
    public func instant(wall: Int64) -> Date {
        let before = Int64(offset(at: wall - 14 * 3600))
        let after = Int64(offset(at: wall + 14 * 3600))
        let candidates = [wall - before, wall - after].filter { $0 + Int64(offset(at: $0)) == wall }
        if let first = candidates.min() { return Date(timeIntervalSince1970: TimeInterval(first)) }
        return nextTransition(after: Date(timeIntervalSince1970: TimeInterval(wall - before - 86400)))
            ?? Date(timeIntervalSince1970: TimeInterval(wall - before))
    }

    /// The wall clock at `date` as seconds since 1970 as if it were UTC.
    public func wall(at date: Date) -> Int64 {
        let instant = Int64(date.timeIntervalSince1970.rounded(.down))
        return instant + Int64(offset(at: instant))
    }

    /// Minutes after local midnight at `date`.
    public func minuteOfDay(at date: Date) -> Int {
        Int(wall(at: date) - wall(at: date).floorDivided(by: 86400) * 86400) / 60
    }
}

extension Int64 {
    /// Division rounding down (towards minus infinity), for days before 1970 too.
    public func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

extension ZoneRules {
    /// A zone file that cannot be read, and where it stops making sense.
    public enum TZifError: Error, Equatable {
        case notTZif
        case truncated
    }

    /// Reads a TZif file's bytes (version 1 to 4; the 64-bit data of version 2 and later).
    public init(tzif bytes: [UInt8], identifier: String) throws(TZifError) {
        var reader = ByteReader(bytes: bytes)
        var header = try Self.header(&reader)
        var timeSize = 4
        if header.version >= 2 {
            // Skip the 32-bit data to the 64-bit header and data.
            try reader.skip(header.v1DataSize)
            header = try Self.header(&reader)
            timeSize = 8
        }
        var transitions: [Int64] = []
        for _ in 0..<header.timeCount { transitions.append(try timeSize == 8 ? reader.int64() : Int64(reader.int32())) }
        var typeIndexes: [Int] = []
        for _ in 0..<header.timeCount { typeIndexes.append(Int(try reader.byte())) }
        var typeOffsets: [Int32] = []
        var typeIsDaylight: [Bool] = []
        for _ in 0..<header.typeCount {
            typeOffsets.append(try reader.int32())
            typeIsDaylight.append(try reader.byte() != 0)
            _ = try reader.byte()
        }
        guard !typeOffsets.isEmpty, typeIndexes.allSatisfy({ $0 < typeOffsets.count }) else { throw .notTZif }
        try reader.skip(header.charCount + header.leapCount * (timeSize + 4) + header.standardCount + header.utcCount)
        var rule: PosixZoneRule?
        if header.version >= 2, let footer = reader.footer() { rule = PosixZoneRule(footer) }
        self.init(
            identifier: identifier, transitions: transitions, offsets: typeIndexes.map { typeOffsets[$0] },
            initialOffset: typeOffsets[0], rule: rule)
    }

    private struct Header {
        var version: Int
        var utcCount, standardCount, leapCount, timeCount, typeCount, charCount: Int
        var v1DataSize: Int { timeCount * 5 + typeCount * 6 + charCount + leapCount * 8 + standardCount + utcCount }
    }

    private static func header(_ reader: inout ByteReader) throws(TZifError) -> Header {
        guard try reader.take(4) == Array("TZif".utf8) else { throw .notTZif }
        let versionByte = try reader.byte()
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        try reader.skip(15)
        var counts: [Int] = []
        for _ in 0..<6 { counts.append(Int(try reader.int32())) }
        guard counts.allSatisfy({ $0 >= 0 }) else { throw .notTZif }
        return Header(
            version: version, utcCount: counts[0], standardCount: counts[1], leapCount: counts[2],
            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    }

    private struct ByteReader {
        let bytes: [UInt8]
        var index = 0

        mutating func take(_ count: Int) throws(TZifError) -> [UInt8] {
            guard count >= 0, index + count <= bytes.count else { throw .truncated }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }

        mutating func skip(_ count: Int) throws(TZifError) { _ = try take(count) }
        mutating func byte() throws(TZifError) -> UInt8 { try take(1)[0] }

        mutating func int32() throws(TZifError) -> Int32 {
            Int32(bitPattern: try take(4).reduce(0) { $0 << 8 | UInt32($1) })
        }

        mutating func int64() throws(TZifError) -> Int64 {
            Int64(bitPattern: try take(8).reduce(0) { $0 << 8 | UInt64($1) })
        }

        /// The POSIX TZ string between the two newlines at the end of a version 2+ file.
        func footer() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\n") else { return nil }
            let rest = bytes[(index + 1)...]
            guard let end = rest.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            return String(decoding: rest[..<end], as: UTF8.self)
        }
    }
}
