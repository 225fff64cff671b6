import FlapHardware
import FlapHeartRate

/// An ANT USB stick with ANT+ heart-rate straps in range, simulated at its serial interface: it
/// answers the host's commands as a stick does (reset, capabilities, network key, channel
/// set-up, continuous scan) and broadcasts each strap's data pages at the channel period, with
/// the page toggle, beat times and counts from the strap's heart rate. Straps can leave range and
/// come back; the line can be garbled. Every message the host sent is kept for tests.
public actor SimulatedANTStick<C: Clock> where C.Duration == Duration {
    /// A strap the stick can hear.
    public struct Strap: Sendable {
        /// Its device number.
        public var deviceNumber: UInt16
        /// Its wearer's heart rate.
        public var bpm: Double
        /// Whether the stick hears it.
        public var inRange = true
        /// Numbered pages with a toggle (every strap since 2007); false: a legacy strap.
        public var numbered = true
        /// Battery charge in percent.
        public var battery = 80
        /// Signal strength in dBm.
        public var rssi = -60
        var beatCount: UInt8 = 0
        var lastBeat: Duration = .zero
        var previousBeat: Duration = .zero
        var nextBeat: Duration = .zero
        var messages = 0

        /// Strap `deviceNumber` beating at `bpm`.
        public init(deviceNumber: UInt16, bpm: Double, inRange: Bool = true, numbered: Bool = true) {
            self.deviceNumber = deviceNumber
            self.bpm = bpm
            self.inRange = inRange
            self.numbered = numbered
        }
    }

    private struct Channel {
        var assigned = false
        var deviceNumber: UInt16 = 0
        var open = false
        var searchTimeout: UInt8 = 10
        /// The strap it has paired with, and how many periods it has missed it.
        var tracking: UInt16?
        var missed = 0
        var searchingFor: Duration = .zero
    }

    private let port: any SerialPort
    private let clock: C
    private let channelCount: Int
    private var straps: [UInt16: Strap] = [:]
    private var channels: [Channel]
    private var scanning = false
    private var extendedFlags: UInt8 = 0
    private var networkKeySet = false
    private var reader = ANTFrameReader()
    private let start: C.Instant
    /// Every message the host sent, in order.
    public private(set) var received: [ANTMessage] = []
    /// Stretches of bytes from the host the stick could not read.
    public private(set) var garbled = 0

    /// The channel period: 8070/32768 s.
    static var period: Duration { .microseconds(8070 * 1_000_000 / 32768) }

    /// A stick on `port` with `channels` channels, `straps` in range.
    public init(port: any SerialPort, clock: C, channels: Int = 8, straps: [Strap] = []) {
        self.port = port
        self.clock = clock
        channelCount = channels
        self.channels = Array(repeating: Channel(), count: channels)
        start = clock.now
        for strap in straps { self.straps[strap.deviceNumber] = strap }
    }

    /// Brings `strap` near.
    public func add(_ strap: Strap) { straps[strap.deviceNumber] = strap }
    /// Takes strap `deviceNumber` out of range, or back.
    public func setInRange(_ deviceNumber: UInt16, _ inRange: Bool) { straps[deviceNumber]?.inRange = inRange }
    /// Sets strap `deviceNumber`'s heart rate.
    public func setHeartRate(_ deviceNumber: UInt16, _ bpm: Double) { straps[deviceNumber]?.bpm = bpm }

    /// Sends bytes that are not ANT messages (line noise) to the host.
    public func sendGarbage(_ bytes: [UInt8]) async throws { try await port.write(bytes) }

    /// Answers and broadcasts until cancelled or the port fails.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.answer() }
            group.addTask { await self.broadcast() }
            await group.next()
            group.cancelAll()
        }
    }

    // MARK: Commands

    private func answer() async {
        while !Task.isCancelled {
            guard let bytes = try? await port.read(maximum: 256, timeout: .milliseconds(100)) else { return }
            for result in reader.append(bytes) {
                switch result {
                case .success(let message):
                    received.append(message)
                    for reply in handle(message) { try? await port.write(reply.encoded()) }
                case .failure:
                    garbled += 1
                }
            }
        }
    }

    private func handle(_ message: ANTMessage) -> [ANTMessage] {
        let p = message.payload
        let channel = Int(p.first ?? 0)
        func ok() -> [ANTMessage] { [ANTMessage(ANT.ID.channelEvent, [UInt8(channel), message.id, 0x00])] }
        func refused(_ code: UInt8) -> [ANTMessage] { [ANTMessage(ANT.ID.channelEvent, [UInt8(channel), message.id, code])] }
        let channelCommands: Set<UInt8> = [
            ANT.ID.assignChannel, ANT.ID.channelID, ANT.ID.channelPeriod, ANT.ID.radioFrequency,
            ANT.ID.searchTimeout, ANT.ID.openChannel, ANT.ID.closeChannel
        ]
        if channelCommands.contains(message.id), channel >= channelCount { return refused(0x15) }  // INVALID_MESSAGE
        switch message.id {
        case ANT.ID.resetSystem:
            channels = Array(repeating: Channel(), count: channelCount)
            scanning = false
            extendedFlags = 0
            networkKeySet = false
            return [ANTMessage(ANT.ID.startup, [0x20])]
        case ANT.ID.requestMessage where p.count >= 2 && p[1] == ANT.ID.capabilities:
            return [ANTMessage(ANT.ID.capabilities, [UInt8(channelCount), 3, 0x00, 0xBA, 0x36, 0x00])]
        case ANT.ID.setNetworkKey:
            networkKeySet = p.count == 9 && Array(p[1...]) == ANT.antPlusNetworkKey
            return ok()
        case ANT.ID.assignChannel:
            channels[channel].assigned = true
            return ok()
        case ANT.ID.channelID where p.count == 5:
            channels[channel].deviceNumber = UInt16(p[1]) | UInt16(p[2]) << 8
            return ok()
        case ANT.ID.searchTimeout where p.count == 2:
            channels[channel].searchTimeout = p[1]
            return ok()
        case ANT.ID.channelPeriod, ANT.ID.radioFrequency:
            return ok()
        case ANT.ID.openChannel:
            guard channels[channel].assigned else { return refused(0x15) }
            channels[channel].open = true
            channels[channel].tracking = nil
            channels[channel].searchingFor = .zero
            return ok()
        case ANT.ID.closeChannel:
            channels[channel].open = false
            return ok() + [ANTMessage(ANT.ID.channelEvent, [UInt8(channel), 0x01, ANT.Event.channelClosed])]
        case ANT.ID.libConfig where p.count == 2:
            extendedFlags = p[1]
            return ok()
        case ANT.ID.openRxScanMode:
            guard channels[0].assigned else { return refused(0x15) }
            scanning = true
            return ok()
        default:
            return refused(0x28)  // INVALID_MESSAGE
        }
    }

    // MARK: Broadcasts

    private func broadcast() async {
        var due = clock.now
        while !Task.isCancelled {
            due = due.advanced(by: Self.period)
            guard (try? await clock.sleep(until: due, tolerance: nil)) != nil else { return }
            let elapsed = start.duration(to: clock.now)
            for message in periodMessages(at: elapsed) {
                guard (try? await port.write(message.encoded())) != nil else { return }
            }
        }
    }

    private func periodMessages(at elapsed: Duration) -> [ANTMessage] {
        // Without the ANT+ network key a stick hears no ANT+ device.
        guard networkKeySet else { return [] }
        if scanning {
            return straps.sorted { $0.key < $1.key }.compactMap { number, strap in
                guard strap.inRange else { return nil }
                let page = nextPage(number, at: elapsed)
                return ANTBroadcast(
                    channel: 0, page: page,
                    deviceNumber: extendedFlags & 0x80 != 0 ? number : nil,
                    deviceType: extendedFlags & 0x80 != 0 ? ANT.HeartRateChannel.deviceType : nil,
                    transmissionType: 1, rssi: extendedFlags & 0x40 != 0 ? strap.rssi : nil
                ).encoded()
            }
        }
        var messages: [ANTMessage] = []
        for index in channels.indices where channels[index].open {
            var channel = channels[index]
            defer { channels[index] = channel }
            let event = { (code: UInt8) in ANTMessage(ANT.ID.channelEvent, [UInt8(index), 0x01, code]) }
            if let number = channel.tracking {
                if straps[number]?.inRange == true {
                    channel.missed = 0
                    messages.append(ANTMessage(ANT.ID.broadcastData, [UInt8(index)] + nextPage(number, at: elapsed)))
                } else {
                    channel.missed += 1
                    // A receiver drops to search after some missed messages (2 s here).
                    if channel.missed < 8 {
                        messages.append(event(ANT.Event.rxFail))
                    } else {
                        messages.append(event(ANT.Event.rxFailGoToSearch))
                        channel.tracking = nil
                        channel.searchingFor = .zero
                    }
                }
                continue
            }
            let taken = Set(channels.compactMap(\.tracking))
            let candidate = straps.sorted { $0.key < $1.key }.first { number, strap in
                strap.inRange && !taken.contains(number) && (channel.deviceNumber == 0 || channel.deviceNumber == number)
            }?.key
            if let candidate {
                channel.tracking = candidate
                channel.missed = 0
                messages.append(ANTMessage(ANT.ID.broadcastData, [UInt8(index)] + nextPage(candidate, at: elapsed)))
            } else if channel.searchTimeout != 0xFF {
                channel.searchingFor += Self.period
                if channel.searchingFor >= .milliseconds(2500) * Int(channel.searchTimeout) {
                    channel.open = false
                    messages += [event(ANT.Event.searchTimeout), event(ANT.Event.channelClosed)]
                }
            }
        }
        return messages
    }

    /// The strap's next data page at `elapsed`: beats up to then, a page number and toggle.
    private func nextPage(_ number: UInt16, at elapsed: Duration) -> [UInt8] {
        guard var strap = straps[number] else { return [] }
        defer { straps[number] = strap }
        if strap.nextBeat == .zero { strap.nextBeat = elapsed }
        while strap.nextBeat <= elapsed {
            strap.previousBeat = strap.lastBeat
            strap.lastBeat = strap.nextBeat
            strap.beatCount &+= 1
            strap.nextBeat += .seconds(60 / max(strap.bpm, 20))
        }
        let m = strap.messages
        strap.messages += 1
        let time = Self.ticks(strap.lastBeat)
        let common: [UInt8] = [UInt8(time & 0xFF), UInt8(time >> 8), strap.beatCount, UInt8(min(255, max(0, strap.bpm.rounded())))]
        guard strap.numbered else { return [0x00, 0xFF, 0xFF, 0xFF] + common }
        let toggle: UInt8 = (m / 4) % 2 == 1 ? 0x80 : 0x00
        // Mostly page 4; every 16th message a background page, in turn 1, 2, 3, 7.
        let background: [UInt8] = [1, 2, 3, 7]
        let page: UInt8 = m % 16 == 15 ? background[(m / 16) % 4] : 4
        let specific: [UInt8]
        switch page {
        case 1:
            let units = Int(elapsed.components.seconds / 2)
            specific = [UInt8(units & 0xFF), UInt8(units >> 8 & 0xFF), UInt8(units >> 16 & 0xFF)]
        case 2: specific = [1, UInt8(number & 0xFF), UInt8(number >> 8)]
        case 3: specific = [1, 1, 1]
        case 7: specific = [UInt8(strap.battery), 0x80, 0x23]  // 3.5 V (0x03), good (0x20)
        default:
            let previous = Self.ticks(strap.previousBeat)
            specific = [0xFF, UInt8(previous & 0xFF), UInt8(previous >> 8)]
        }
        return [page | toggle] + specific + common
    }

    /// A time in 1/1024 s, rolling over at 64 s as the strap's counter does.
    static func ticks(_ duration: Duration) -> UInt16 {
        let (seconds, attoseconds) = duration.components
        return UInt16(truncatingIfNeeded: seconds * 1024 + attoseconds / 976_562_500_000_000)  // 10¹⁸ / 1024
    }
}
