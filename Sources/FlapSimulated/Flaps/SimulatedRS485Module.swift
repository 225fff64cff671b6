import FlapHardware

/// One RS-485 split-flap module as its firmware (v7, or Universal Firmware) behaves: it reads
/// frames off the bus byte by byte, and while its stepper turns it only buffers what arrives (63
/// bytes; the rest is lost) and reads the buffer once the turn ends. Steps come a millisecond
/// apart, one way only.
public struct SimulatedRS485Module: Sendable {
    /// The firmware it runs: Adam G Makes' v7, or avandeputte's Universal Firmware with the
    /// module's serial number (which also answers `v`, and announces itself until numbered).
    public enum Firmware: Sendable, Equatable {
        case v7
        case universal(serial: String)
    }

    /// Its ID on the bus (255: a Universal Firmware module not yet numbered).
    public var id: Int
    /// Its firmware.
    public let firmware: Firmware
    /// The reel's flaps, as the firmware names them (Universal Firmware is told them by `N`).
    public internal(set) var reel: [UInt8]
    /// Steps a revolution.
    public var stepsPerRevolution: Int
    /// Steps from the magnet to flap 0.
    public var offset = 0
    /// Stored flap positions, by reel index.
    public var stored: [Int: Int] = [:]
    /// Whether it homes by itself when powered (firmware v7 does).
    public var autoHome = true
    /// Where the rotor is, in steps past flap 0; nil until it has homed.
    public private(set) var position: Int?
    /// Where an unhomed rotor really is (the firmware does not know), in steps past flap 0.
    var hiddenPosition: Int
    /// The turn in progress: when it ends.
    public private(set) var busyUntil: Duration?
    /// Bytes received while turning (at most 63).
    var buffer: [UInt8] = []
    var frame: [UInt8] = []
    /// Bytes lost while turning.
    public private(set) var dropped = 0
    /// Universal Firmware: when it next announces itself, while it has no ID.
    var nextAnnouncement: Duration?
    /// Universal Firmware: announcements wait until then after an `m*` frame.
    var quietUntil = Duration.zero
    /// When it last heard a byte (it skips an announcement onto a busy bus).
    var lastHeard: Duration?
    /// How many times it announced itself.
    public internal(set) var announcements = 0
    /// What Universal Firmware's own tests find wrong with it.
    public var faults = Faults()

    /// Bytes it buffers while turning.
    public static let bufferSize = 63
    /// The time between two steps.
    public static let halfStep = Duration.milliseconds(1)

    /// Module `id` with `reel`, its rotor at `rotorStep`.
    public init(id: Int, firmware: Firmware = .v7, reel: [UInt8], stepsPerRevolution: Int = 4096, rotorStep: Int = 0) {
        self.id = id
        self.firmware = firmware
        self.reel = reel
        self.stepsPerRevolution = stepsPerRevolution
        hiddenPosition = rotorStep % stepsPerRevolution
    }

    /// The step flap `index` of the reel shows at.
    public func step(ofFlap index: Int) -> Int { stored[index] ?? (index * stepsPerRevolution + reel.count - 1) / reel.count }

    /// The reel index showing now (at rest), nil before it has homed.
    public var flap: Int? {
        guard let position else { return nil }
        return (0..<reel.count).last { step(ofFlap: $0) <= position } ?? 0
    }

    /// What the module does with the bytes that reached it at `time`: a turn it starts (the
    /// flaps it lands on and when), and an answer it sends.
    public struct Effect: Sendable {
        /// The flaps it lands on, and when.
        public var landings: [(flap: Int, at: Duration)] = []
        /// What it sends back, if anything.
        public var answer: [UInt8]?
        /// How long after the bytes it waits to send it (its turn in a range broadcast).
        public var answerAfter = Duration.zero
    }

    /// Takes `byte`, arrived at `time` (after any turn that ended before it has been finished).
    mutating func receive(_ byte: UInt8, at time: Duration) -> Effect {
        lastHeard = time
        if let busyUntil, time < busyUntil {
            if buffer.count < Self.bufferSize { buffer.append(byte) } else { dropped += 1 }
            return Effect()
        }
        return parse(byte, at: time)
    }

    /// Ends the turns due by `time`, reading what was buffered during each at its end.
    mutating func settle(by time: Duration) -> Effect {
        var effect = Effect()
        while let end = busyUntil, end <= time {
            busyUntil = nil
            let held = buffer
            buffer.removeAll()
            // Read as fast as the loop runs, all at the turn's end; a turn they start holds the rest.
            for byte in held {
                let more = receive(byte, at: end)
                effect.landings += more.landings
                if let answer = more.answer { effect.answer = (effect.answer ?? []) + answer }
            }
        }
        if let due = nextAnnouncement, due <= time, busyUntil == nil, let announcement = announce(at: due) {
            effect.answer = (effect.answer ?? []) + announcement
        }
        return effect
    }

    private mutating func parse(_ byte: UInt8, at time: Duration) -> Effect {
        if byte == UInt8(ascii: "m") && frame.isEmpty {
            frame = [byte]
            return Effect()
        }
        guard !frame.isEmpty else { return Effect() }
        guard byte != UInt8(ascii: "\n") else {
            defer { frame.removeAll() }
            return execute(frame, at: time)
        }
        if frame.count < 64 { frame.append(byte) } else { frame.removeAll() }
        if answersAtOnce(frame) {
            defer { frame.removeAll() }
            return execute(frame, at: time)
        }
        return Effect()
    }

    private mutating func execute(_ frame: [UInt8], at time: Duration) -> Effect {
        var i = 1
        let isDigit = { (b: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) }
        var addressed = false
        if i < frame.count, frame[i] == UInt8(ascii: "*") {
            addressed = true
            i += 1
            if case .universal = firmware {
                quietUntil = time + Self.quietAfterBroadcast
                if frame.dropFirst(2).first == UInt8(ascii: "v") { return rangeVersion(Array(frame.dropFirst(3)), at: time) }
            }
        } else if i < frame.count, frame[i] == UInt8(ascii: "X") {
            return bySerial(Array(frame.dropFirst(2)))
        } else {
            var value = 0, digits = 0
            while i < frame.count, isDigit(frame[i]), digits < 3 {
                value = value * 10 + Int(frame[i] - 48)
                i += 1
                digits += 1
            }
            addressed = digits > 0 && value == id && id != Self.unnumbered
        }
        guard addressed, i < frame.count else { return Effect() }
        let command = frame[i]
        let rest = Array(frame[(i + 1)...])
        func number(_ bytes: ArraySlice<UInt8>) -> (Int, ArraySlice<UInt8>)? {
            var value = 0, n = bytes.startIndex
            while n < bytes.endIndex, isDigit(bytes[n]) { value = value * 10 + Int(bytes[n] - 48); n += 1 }
            return n == bytes.startIndex ? nil : (value, bytes[n...])
        }
        switch command {
        case UInt8(ascii: "-"):
            guard let byte = rest.first, let index = reel.firstIndex(of: byte) else { return Effect() }
            // A frame lost on the way (noise, a full buffer): it stays where it is.
            if faults.losesShows > 0 {
                faults.losesShows -= 1
                return Effect()
            }
            return turn(to: step(ofFlap: index), at: time)
        case UInt8(ascii: "+"):
            guard let (index, _) = number(rest[...]), index < reel.count else { return Effect() }
            return turn(to: step(ofFlap: index), at: time)
        case UInt8(ascii: "h"):
            return home(at: time)
        case UInt8(ascii: "c"):
            // Two passes of the magnet measure a revolution; then it homes.
            var effect = turnSteps(stepsPerRevolution + (stepsPerRevolution - currentStep) % stepsPerRevolution, at: time, landing: false)
            position = 0
            hiddenPosition = 0
            effect.answer = Array("m\(RS485Address.module(id)):\(stepsPerRevolution)\n".utf8)
            return effect
        case UInt8(ascii: "o"): if let (n, _) = number(rest[...]) { offset = n }
        case UInt8(ascii: "t"): if let (n, _) = number(rest[...]), n > 0 { stepsPerRevolution = n }
        case UInt8(ascii: "s"):
            guard let (n, _) = number(rest[...]) else { return Effect() }
            offset += n
            return turnSteps(n, at: time, landing: false)
        case UInt8(ascii: "g"):
            guard let (n, _) = number(rest[...]) else { return Effect() }
            return turn(to: n % stepsPerRevolution, at: time)
        case UInt8(ascii: "w"):
            guard let (flap, after) = number(rest[...]), after.first == UInt8(ascii: ":"), let (at, _) = number(after.dropFirst()) else {
                return Effect()
            }
            stored[flap] = at
        case UInt8(ascii: "i"): if let (n, _) = number(rest[...]), (1...999).contains(n) { id = n }
        case UInt8(ascii: "a"): if let flag = rest.first { autoHome = flag == UInt8(ascii: "1") }
        case UInt8(ascii: "e"): stored.removeAll()
        case UInt8(ascii: "v"):
            return Effect(answer: versionAnswer)  // nil on v7, which does not know `v`
        case UInt8(ascii: "A"):
            return Effect(answer: aboutAnswer)
        case UInt8(ascii: "T"), UInt8(ascii: "Q"), UInt8(ascii: "M"):
            return diagnose(command, rest, at: time)
        case UInt8(ascii: "N"):
            takeFlaps(rest)
        case UInt8(ascii: "d"):
            let positions = stored.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            // v7 waits about 60 ms before it answers; Universal Firmware answers at once.
            return Effect(
                answer: Array("m\(RS485Address.module(id))d:\(offset):\(stepsPerRevolution):\(positions)\n".utf8),
                answerAfter: serial == nil ? .milliseconds(60) : .zero)
        default: break
        }
        return Effect()
    }

    var currentStep: Int { position ?? hiddenPosition }

    /// Home: on to the magnet (a whole turn when it sits at it), then on by the offset to flap 0,
    /// so from an unknown place it may take most of two turns.
    mutating func home(at time: Duration) -> Effect {
        let offset = self.offset % stepsPerRevolution
        let magnet = (stepsPerRevolution - offset) % stepsPerRevolution
        let toMagnet = (magnet - currentStep + stepsPerRevolution) % stepsPerRevolution
        let effect = turnSteps((toMagnet == 0 ? stepsPerRevolution : toMagnet) + offset, at: time, landing: false)
        position = 0
        hiddenPosition = 0
        return effect
    }

    /// The power-up: after ID × 150 ms it homes, unless told not to.
    mutating func powerUp(at time: Duration) -> Effect {
        if id == Self.unnumbered { nextAnnouncement = time + announcementWait() }
        return autoHome ? home(at: time + .milliseconds(150) * (id == Self.unnumbered ? 0 : id)) : Effect()
    }

    private mutating func turn(to target: Int, at time: Duration) -> Effect {
        guard position != nil else {
            // Not homed: home first, then the target.
            var effect = home(at: time)
            let after = turn(to: target, at: busyUntil ?? time)
            effect.landings += after.landings
            return effect
        }
        let steps = (target - currentStep + stepsPerRevolution) % stepsPerRevolution
        return turnSteps(steps, at: time, landing: true)
    }

    /// Turns `steps` steps from `time` (or from the end of the turn in progress), noting each flap landed on.
    mutating func turnSteps(_ steps: Int, at time: Duration, landing: Bool) -> Effect {
        guard steps > 0 else { return Effect() }
        let start = max(time, busyUntil ?? time)
        let from = currentStep
        var effect = Effect()
        if landing {
            for index in 0..<reel.count {
                let ahead = (step(ofFlap: index) - from + stepsPerRevolution) % stepsPerRevolution
                if ahead > 0, ahead <= steps { effect.landings.append((index, start + Self.halfStep * ahead)) }
            }
            effect.landings.sort { $0.at < $1.at }
        }
        let end = (from + steps) % stepsPerRevolution
        if position != nil { position = end } else { hiddenPosition = end }
        busyUntil = start + Self.halfStep * steps
        return effect
    }
}
