import FlapHardware

/// What Universal Firmware adds to v7's behaviour: `v` answered at once (and in turn to a range
/// broadcast), a module with no ID announcing its serial number, and numbering by serial.
extension SimulatedRS485Module {
    /// The ID of a module not yet numbered: nothing addressed to it is answered.
    public static let unnumbered = 255
    /// The firmware version it says.
    public static let universalVersion = 31
    /// How long any `m*` frame holds its announcements back.
    public static let quietAfterBroadcast = Duration.seconds(30)

    /// A Universal Firmware serial number of 20 hexadecimal digits, made from `number`.
    public static func serial(made number: Int) -> String {
        let hex = String(number, radix: 16, uppercase: true)
        return "5657" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Its serial number, when it runs Universal Firmware.
    public var serial: String? {
        guard case .universal(let serial) = firmware else { return nil }
        return serial
    }

    /// `m05v:31:5:<serial>`, or nil on v7.
    var versionAnswer: [UInt8]? {
        serial.map { Array("m\(RS485Address.module(id))v:\(Self.universalVersion):\(id):\($0)\n".utf8) }
    }

    /// `m05A:31:5:<serial>:<offset>:<steps>:<auto-home>:<flap>:0:<count>:<flaps>`, or nil on v7.
    var aboutAnswer: [UInt8]? {
        guard let serial else { return nil }
        let state = "\(Self.universalVersion):\(id):\(serial):\(offset):\(stepsPerRevolution):\(autoHome ? 1 : 0):\(flap ?? 0):0"
        return Array("m\(RS485Address.module(id))A:\(state):\(reel.count):".utf8) + reel + [UInt8(ascii: "\n")]
    }

    /// `N<count>:<flaps>`: Universal Firmware's flaps from now on, taken verbatim (`:` included)
    /// when the count is 1 to 64 and says how many follow; v7 ignores it, as any command it does not know.
    mutating func takeFlaps(_ rest: [UInt8]) {
        guard serial != nil, let colon = rest.firstIndex(of: UInt8(ascii: ":")),
            let count = Int(String(decoding: rest[..<colon], as: UTF8.self)), (1...64).contains(count), rest.count - colon - 1 == count
        else { return }
        reel = Array(rest[(colon + 1)...])
    }

    /// Universal Firmware answers `v`, `d` and `A` sent to it as soon as their command byte is
    /// read, before the frame's end.
    func answersAtOnce(_ frame: [UInt8]) -> Bool {
        guard serial != nil, let command = frame.last, [UInt8(ascii: "v"), UInt8(ascii: "d"), UInt8(ascii: "A")].contains(command), frame.count >= 3
        else {
            return false
        }
        let digits = frame.dropFirst().dropLast()
        return digits.count <= 3 && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// `m*v<lo>-<hi>`: each module in the range answers 30 ms + (its ID − lo) × 100 ms later.
    func rangeVersion(_ range: [UInt8], at time: Duration) -> Effect {
        let bounds = String(decoding: range, as: UTF8.self).split(separator: "-").compactMap { Int($0) }
        guard bounds.count == 2, (bounds[0]...max(bounds[0], bounds[1])).contains(id), id != Self.unnumbered, let answer = versionAnswer else {
            return Effect()
        }
        return Effect(answer: answer, answerAfter: .milliseconds(30) + .milliseconds(100) * (id - bounds[0]))
    }

    /// `mXI<serial>:<id>`: the module with that serial takes the ID and says so.
    mutating func bySerial(_ rest: [UInt8]) -> Effect {
        guard let serial, rest.first == UInt8(ascii: "I") else { return Effect() }
        let parts = String(decoding: rest.dropFirst(), as: UTF8.self).split(separator: ":")
        guard parts.count == 2, parts[0].uppercased() == serial, let new = Int(parts[1]), (0..<Self.unnumbered).contains(new) else {
            return Effect()
        }
        id = new
        nextAnnouncement = nil
        return Effect(answer: Array("mXack:\(serial):\(new)\n".utf8))
    }

    /// Announces itself when it is due, unless a broadcast quieted it or the bus was busy in the
    /// last 20 ms (it then tries again at its next time).
    mutating func announce(at due: Duration) -> [UInt8]? {
        guard let serial, id == Self.unnumbered else {
            nextAnnouncement = nil
            return nil
        }
        if due < quietUntil {
            nextAnnouncement = quietUntil + announcementWait()
            return nil
        }
        nextAnnouncement = due + announcementWait()
        if let lastHeard, due - lastHeard < .milliseconds(20) { return nil }
        announcements += 1
        return Array("mXadv:\(serial)\n".utf8)
    }

    /// 10 s and up to 5 s more: spread by the serial number and the count, the same every run.
    func announcementWait() -> Duration {
        let seed = (serial ?? "").unicodeScalars.reduce(announcements &* 7919) { ($0 &* 31 &+ Int($1.value)) & 0xFFFF }
        return .seconds(10) + .milliseconds(seed % 5000)
    }
}
