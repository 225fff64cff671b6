/// The host's side of a bus of SBB/annax modules: each frame after a BREAK, and a question's
/// answer read as the raw bytes its command says, from the one module asked. Unlike the RS-485
/// modules' bus, nothing is said unasked, so the bus is read only while a question waits.
///
/// The port is opened when first needed and again after it fails, so an adapter unplugged and
/// plugged back in is taken up again.
public actor SBBBus<C: Clock> where C.Duration == Duration {
    private let open: @Sendable () throws -> any SerialPort
    private let clock: C
    /// The device, for errors (`/dev/ttyUSB0`).
    public nonisolated let device: String
    private var port: (any SerialPort)?

    /// A bus on the port `open` gives (called again after a failure).
    public init(device: String, clock: C, open: @escaping @Sendable () throws -> any SerialPort) {
        self.device = device
        self.clock = clock
        self.open = open
    }

    /// How long a module may take to answer: adfinis/sbb-fallblatt waits up to 2 s for a
    /// serial number, which its modules give within milliseconds.
    public static var answerWait: Duration { .milliseconds(200) }

    /// Sends `command` to the module at `address`, after a BREAK. A number no byte of the frame
    /// can carry is refused before anything is sent.
    public func send(_ command: SBBCommand, to address: Int) async throws {
        let frame = try command.frame(to: address)
        try await withPort { port in
            try await port.sendBreak(for: SBBLine.breakTime)
            try await port.write(frame)
        }
    }

    /// Asks the module at `address` `command` and reads its answer: nil when nothing came within
    /// `wait` (no module at that address); an answer cut short or overlong is an error.
    public func ask(_ command: SBBCommand, of address: Int, within wait: Duration = answerWait) async throws -> SBBAnswer? {
        let frame = try command.frame(to: address)
        return try await withPort { port in
            // Whatever is still on the line (an answer that came late) is no answer to this.
            while !(try await port.read(maximum: 64, timeout: .zero)).isEmpty {}
            try await port.sendBreak(for: SBBLine.breakTime)
            try await port.write(frame)
            let deadline = clock.now.advanced(by: SBBLine.airtime(of: frame.count) + wait)
            var bytes: [UInt8] = []
            while bytes.count < command.answerLength, clock.now < deadline {
                bytes += try await port.read(maximum: command.answerLength - bytes.count, timeout: clock.now.duration(to: deadline))
            }
            guard !bytes.isEmpty else { return nil }
            // A moment more for what should not be there: another module answering too.
            bytes += try await port.read(maximum: 8, timeout: SBBLine.airtime(of: 2))
            return try SBBAnswer.read(bytes, answering: command)
        }
    }

    /// Finds the modules at `addresses` by asking each its serial number (`DF`), telling
    /// `progress` each address asked and what answered there.
    public func find(
        _ addresses: ClosedRange<Int>, progress: @Sendable (_ address: Int, _ serial: UInt32?) async -> Void = { _, _ in }
    ) async throws -> [(address: Int, serial: UInt32)] {
        guard addresses.lowerBound >= 0, addresses.upperBound <= 255 else { throw SBBFrameError.outOfRange("an address", addresses.upperBound) }
        var found: [(address: Int, serial: UInt32)] = []
        for address in addresses {
            var serial: UInt32?
            do {
                if case .serial(let told)? = try await ask(.serial, of: address) { serial = told }
            } catch is SBBAnswerError {
                // Two modules at one address, or noise: nothing that can be told apart.
            }
            if let serial { found.append((address, serial)) }
            await progress(address, serial)
        }
        return found
    }

    /// Closes the port.
    public func stop() async {
        await port?.close()
        port = nil
    }

    private func withPort<T>(_ body: (any SerialPort) async throws -> T) async throws -> T {
        let current: any SerialPort
        do {
            current = try port ?? open()
        } catch {
            throw HardwareError(device: device, problem: "cannot open it: \(error)", remedy: "is the RS-485 adapter plugged in?")
        }
        port = current
        do {
            return try await body(current)
        } catch let error as HardwareError {
            await current.close()
            port = nil
            throw error
        }
    }
}
