import FlapHardware

/// ANT+ heart-rate straps through an ANT USB stick on a serial port (the kernel's
/// usb_serial_simple presents 0fcf:1008 and 0fcf:1009 as ttyUSB; 0fcf:1004 is a CP210x serial
/// bridge). The straps to follow by device number, each on a channel of its own, or any strap
/// in range through the stick's continuous scan mode (also used when there are more straps than
/// channels).
public struct ANTHeartRateSensor<C: Clock>: HeartRateSensor where C.Duration == Duration, C.Instant: Sendable {
    /// `ant` and the stick's port, as the status names it.
    public let name: String
    private let device: String
    private let deviceNumbers: [UInt16]
    private let clock: C
    private let open: @Sendable () async throws -> any SerialPort

    /// How long the stick has to answer a command.
    static var answerTime: Duration { .seconds(1) }
    /// A channel searches this long (in 2.5 s units: 30 s) before it closes and is opened again.
    static var searchTimeout: UInt8 { 12 }

    /// Follows the straps `deviceNumbers` (empty: any strap in range) through the stick on the
    /// port `open` opens, named `device`.
    public init(device: String, deviceNumbers: [UInt16] = [], clock: C, open: @escaping @Sendable () async throws -> any SerialPort) {
        name = "ant \(device)"
        self.device = device
        self.deviceNumbers = deviceNumbers
        self.clock = clock
        self.open = open
    }

    /// Opens the stick and follows straps until cancelled, opening it again after a failure, telling `emit` each reading and each state.
    public func run(_ emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) async {
        await PortReading.run(
            device: device, clock: clock, missingRemedy: "is the ANT stick plugged in?", failure: "the ANT stick failed",
            emit: emit, open: open
        ) { port, states, connected in
            var session = ANTSession(port: port, device: device, clock: clock)
            let mode = try await session.setUp(deviceNumbers: deviceNumbers)
            connected()
            emit(
                .notice(
                    "\(name): listening for \(deviceNumbers.isEmpty ? "any ANT+ heart-rate strap" : "straps \(deviceNumbers.map(String.init).joined(separator: ", "))") (\(mode))"
                ))
            try await session.listen(mode, states: &states, emit: emit)
        }
    }
}

/// How the stick listens.
enum ANTListening: CustomStringConvertible {
    /// One channel a strap: channel index → device number.
    case channels([UInt16])
    /// Continuous scan on channel 0; only these device numbers (empty: any).
    case scan(only: Set<UInt16>)

    var description: String {
        switch self {
        case .channels(let numbers): "\(numbers.count) channel\(numbers.count == 1 ? "" : "s")"
        case .scan: "continuous scan"
        }
    }
}

/// One connection to a stick: its set-up and its stream of messages.
struct ANTSession<C: Clock> where C.Duration == Duration, C.Instant: Sendable {
    let port: any SerialPort
    let device: String
    let clock: C
    private var reader = ANTFrameReader()
    private var received: [ANTMessage] = []
    private var receivers: [UInt16: ANTHeartRateReceiver] = [:]
    /// What was wrong with the bytes skipped since last asked.
    private var skipped: [HeartRateDecodingError] = []

    init(port: any SerialPort, device: String, clock: C) {
        self.port = port
        self.device = device
        self.clock = clock
    }

    mutating func setUp(deviceNumbers: [UInt16]) async throws -> ANTListening {
        try await send(ANT.resetSystem())
        _ = try await next(within: .seconds(2), "the stick did not start after a reset", remedy: "unplug it and plug it in again") {
            $0.id == ANT.ID.startup
        }
        try await send(ANT.requestMessage(ANT.ID.capabilities))
        let capabilities = try await next(within: ANTHeartRateSensor<C>.answerTime, "the stick did not say its capabilities", remedy: nil) {
            $0.id == ANT.ID.capabilities && !$0.payload.isEmpty
        }
        let channels = Int(capabilities.payload[0])
        try await command(ANT.setNetworkKey(ANT.antPlusNetworkKey))
        if !deviceNumbers.isEmpty, deviceNumbers.count <= channels {
            for (index, number) in deviceNumbers.enumerated() { try await openChannel(UInt8(index), deviceNumber: number) }
            return .channels(deviceNumbers)
        }
        try await command(ANT.libConfig(0xC0))  // channel id and RSSI with every broadcast
        try await command(ANT.assignReceiveChannel(0))
        try await command(ANT.channelID(0, deviceNumber: 0, deviceType: ANT.HeartRateChannel.deviceType))
        try await command(ANT.radioFrequency(0, ANT.HeartRateChannel.radioFrequency))
        try await command(ANT.openRxScanMode())
        return .scan(only: Set(deviceNumbers))
    }

    private mutating func openChannel(_ channel: UInt8, deviceNumber: UInt16) async throws {
        try await command(ANT.assignReceiveChannel(channel))
        try await command(ANT.channelID(channel, deviceNumber: deviceNumber, deviceType: ANT.HeartRateChannel.deviceType))
        try await command(ANT.channelPeriod(channel, ANT.HeartRateChannel.period))
        try await command(ANT.radioFrequency(channel, ANT.HeartRateChannel.radioFrequency))
        try await command(ANT.searchTimeout(channel, ANTHeartRateSensor<C>.searchTimeout))
        try await command(ANT.openChannel(channel))
    }

    mutating func listen(_ mode: ANTListening, states: inout StrapStates<C.Instant>, emit: @Sendable (HeartRateEvent<C.Instant>) -> Void) async throws
    {
        if case .channels(let numbers) = mode {
            for number in numbers { if let status = states.set(strap(number), .searching) { emit(.status(status)) } }
        }
        while !Task.isCancelled {
            let arrived = try await messages(waiting: .milliseconds(500))
            for error in skipped { emit(.notice("ant \(device): \(error)")) }
            skipped.removeAll()
            for message in arrived {
                switch message.id {
                case ANT.ID.broadcastData:
                    take(message, mode: mode, states: &states, emit: emit)
                case ANT.ID.channelEvent where message.payload.count >= 3 && message.payload[1] == 0x01:
                    let channel = message.payload[0]
                    guard case .channels(let numbers) = mode, Int(channel) < numbers.count else { break }
                    switch message.payload[2] {
                    case ANT.Event.rxFailGoToSearch:
                        if let status = states.set(
                            strap(numbers[Int(channel)]), .lost(reason: "out of range", remedy: "is it worn and within about 10 m of the stick?"))
                        {
                            emit(.status(status))
                        }
                    case ANT.Event.channelClosed:
                        // The search timed out: search again (the timeout paces it).
                        try await send(ANT.openChannel(channel))
                    default: break
                    }
                case ANT.ID.startup:
                    throw HardwareError(
                        device: device, problem: "the ANT stick restarted by itself", remedy: "a weak USB supply can do this; try a powered hub")
                default: break
                }
            }
            for status in states.silent(now: clock.now) { emit(.status(status)) }
        }
    }

    private mutating func take(
        _ message: ANTMessage, mode: ANTListening, states: inout StrapStates<C.Instant>, emit: @Sendable (HeartRateEvent<C.Instant>) -> Void
    ) {
        let broadcast: ANTBroadcast
        do { broadcast = try ANTBroadcast(decoding: message) } catch {
            emit(.notice("ant \(device): \(error)"))
            return
        }
        let number: UInt16
        switch mode {
        case .channels(let numbers):
            guard Int(broadcast.channel) < numbers.count else { return }
            number = numbers[Int(broadcast.channel)]
        case .scan(let only):
            guard let found = broadcast.deviceNumber, broadcast.deviceType.map({ $0 & 0x7F == ANT.HeartRateChannel.deviceType }) ?? true else {
                return
            }
            guard only.isEmpty || only.contains(found) else { return }
            if receivers[found] == nil { emit(.notice("ant \(device): heart-rate strap \(found) heard")) }
            number = found
        }
        var receiver = receivers[number] ?? ANTHeartRateReceiver()
        defer { receivers[number] = receiver }
        let reading: ANTHeartRateReceiver.Reading?
        do { reading = try receiver.receive(broadcast.page) } catch {
            emit(.notice("ant \(device): strap \(number): \(error)"))
            return
        }
        guard let reading else { return }
        let sample = HeartRateSample(
            strap: strap(number), bpm: reading.bpm, rrIntervals: reading.rrIntervals,
            battery: reading.battery, rssi: broadcast.rssi, instant: clock.now)
        if let status = states.heard(sample) { emit(.status(status)) }
        emit(.sample(sample))
    }

    private func strap(_ number: UInt16) -> StrapIdentity { StrapIdentity(driver: "ant", address: "\(number)") }

    // MARK: The wire

    private func send(_ message: ANTMessage) async throws { try await port.write(message.encoded()) }

    /// Sends a configuration command and waits for the stick's answer to it.
    private mutating func command(_ message: ANTMessage) async throws {
        try await send(message)
        let channel = message.payload.first ?? 0
        let answer = try await next(
            within: ANTHeartRateSensor<C>.answerTime, "the stick did not answer command 0x\(hex(message.id))",
            remedy: "unplug it and plug it in again"
        ) {
            $0.id == ANT.ID.channelEvent && $0.payload.count >= 3 && $0.payload[1] == message.id
                && ($0.payload[0] == channel || message.id == ANT.ID.libConfig)
        }
        guard answer.payload[2] == 0 else {
            throw HardwareError(device: device, problem: "the stick refused command \(message) with code 0x\(hex(answer.payload[2]))")
        }
    }

    /// The next message that `matches`, waiting at most `time`; messages before it are dropped
    /// (during set-up nothing else matters).
    private mutating func next(
        within time: Duration, _ problem: String, remedy: String?, matching matches: (ANTMessage) -> Bool
    ) async throws -> ANTMessage {
        let deadline = clock.now.advanced(by: time)
        while clock.now < deadline {
            while !received.isEmpty {
                let message = received.removeFirst()
                if matches(message) { return message }
            }
            received = try await messages(waiting: min(.milliseconds(100), clock.now.duration(to: deadline)))
        }
        throw HardwareError(device: device, problem: problem, remedy: remedy)
    }

    /// The messages that arrive within `time` (at least one read's worth, or none).
    private mutating func messages(waiting time: Duration) async throws -> [ANTMessage] {
        let bytes = try await port.read(maximum: 256, timeout: max(time, .milliseconds(1)))
        var messages: [ANTMessage] = []
        for result in reader.append(bytes) {
            switch result {
            case .success(let message): messages.append(message)
            case .failure(let error): skipped.append(error)
            }
        }
        return messages
    }
}
