import FlapHardware

/// An Arduino-style pulse sensor that writes a reading a line on a serial port. One strap per
/// port; lines that cannot be read are reported (column and character) and skipped.
public struct SerialHeartRateSensor<C: Clock>: HeartRateSensor where C.Duration == Duration, C.Instant: Sendable {
    /// `serial` and the port, as the status names it.
    public let name: String
    /// Its one strap: the port.
    public let strap: StrapIdentity
    private let format: HeartRateLineFormat
    private let clock: C
    private let open: @Sendable () async throws -> any SerialPort

    /// Longer lines are noise (a sensor at the wrong baud rate, say) and are dropped.
    static var longestLine: Int { 256 }

    /// A sensor on the port `open` opens (again after a failure), named `device` (its path).
    public init(device: String, format: HeartRateLineFormat, clock: C, open: @escaping @Sendable () async throws -> any SerialPort) {
        name = "serial \(device)"
        strap = StrapIdentity(driver: "serial", address: device)
        self.format = format
        self.clock = clock
        self.open = open
    }

    /// Opens the port and reads a reading a line until cancelled, opening it again after a failure.
    public func run(_ emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) async {
        await PortReading.run(
            device: strap.address, clock: clock, missingRemedy: nil, failure: "its port failed",
            emit: emit, open: open
        ) { port, states, connected in
            connected()
            try await read(port, states: &states, emit: emit)
        }
    }

    private func read(_ port: any SerialPort, states: inout StrapStates<C.Instant>, emit: @Sendable (HeartRateEvent<C.Instant>) -> Void) async throws
    {
        var line: [UInt8] = []
        var overlong = false
        while !Task.isCancelled {
            let bytes = try await port.read(maximum: 512, timeout: .milliseconds(500))
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\n"):
                    if overlong {
                        emit(.notice("\(name): a line over \(Self.longestLine) bytes skipped (is the baud rate right?)"))
                    } else if let text = String(validating: line.filter { $0 != UInt8(ascii: "\r") }, as: UTF8.self) {
                        if !text.isEmpty { take(text, states: &states, emit: emit) }
                    } else {
                        emit(.notice("\(name): a line that is not UTF-8 skipped (is the baud rate right?)"))
                    }
                    line.removeAll(keepingCapacity: true)
                    overlong = false
                default:
                    if line.count < Self.longestLine { line.append(byte) } else { overlong = true }
                }
            }
            for status in states.silent(now: clock.now) { emit(.status(status)) }
        }
    }

    private func take(_ text: String, states: inout StrapStates<C.Instant>, emit: @Sendable (HeartRateEvent<C.Instant>) -> Void) {
        do {
            let reading = try format.read(text)
            let sample = HeartRateSample(
                strap: strap, bpm: reading.bpm, contact: reading.contact, rrIntervals: reading.rrIntervals, instant: clock.now)
            if let status = states.heard(sample) { emit(.status(status)) }
            emit(.sample(sample))
        } catch {
            emit(.notice("\(name): \(error)"))
        }
    }
}

extension HardwareError {
    /// `error` as a hardware error of `device` (what a driver reports when a port fails).
    static func describing(_ error: any Error, device: String) -> HardwareError {
        error as? HardwareError ?? HardwareError(device: device, problem: "\(error)")
    }
}
