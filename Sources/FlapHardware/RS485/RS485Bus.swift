/// The host's side of an RS-485 bus of split-flap modules: frames out, the modules' answers in.
///
/// The port is opened when first needed and again after it fails, so a dongle unplugged and
/// plugged back in is taken up again. What the modules say is read all the time: answers go to
/// whoever waits for them, lines that are not answers are told as problems, never fatal.
public actor RS485Bus<C: Clock> where C.Duration == Duration {
    private let open: @Sendable () throws -> any SerialPort
    private let clock: C
    /// The device, for errors (`/dev/ttyUSB0`).
    public nonisolated let device: String
    private var port: (any SerialPort)?
    private var reader = RS485AnswerReader()
    private var answers: [RS485Answer] = []
    private var reading: Task<Void, Never>?
    /// Lines on the bus that were not answers, and the port's failures, as they happen (one
    /// consumer: the panel, which tells them as its notices).
    public nonisolated let problems: AsyncStream<String>
    private let problemContinuation: AsyncStream<String>.Continuation
    /// Whether the port is open and took the last frame.
    public private(set) var connected = false
    /// When the last frame sent has crossed the bus: a frame written before then waits behind it.
    public private(set) var idleAt: C.Instant?
    /// How many lines on the bus were no answer (a garbled one among them), so far.
    public private(set) var unreadable = 0
    /// The serial numbers of modules that announced themselves for want of an ID, and when each
    /// was last heard.
    public private(set) var announced: [String: C.Instant] = [:]

    /// A bus on the port `open` gives (called again after a failure).
    public init(device: String, clock: C, open: @escaping @Sendable () throws -> any SerialPort) {
        self.device = device
        self.clock = clock
        self.open = open
        (problems, problemContinuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(64))
    }

    /// Starts reading what the modules say.
    public func start() {
        guard reading == nil else { return }
        reading = Task { [weak self] in
            while !Task.isCancelled {
                guard let self else { return }
                await self.readOnce()
            }
        }
    }

    /// Sends `frame`; a port that fails is closed, to be opened again for the next frame.
    public func send(_ frame: [UInt8]) async throws {
        do {
            let port = try currentPort()
            let now = clock.now
            let airtime = RS485Frame.airtime(of: frame.count)
            let begins = idleAt.map { max($0, now) } ?? now
            idleAt = begins.advanced(by: airtime)
            try await port.write(frame)
            // A write that returned late (a busy machine) put the frame on the line only then.
            if let idle = idleAt, clock.now.advanced(by: airtime) > idle { idleAt = clock.now.advanced(by: airtime) }
            connected = true
        } catch let error as HardwareError {
            await drop(error)
            throw error
        } catch {
            let failure = HardwareError(device: device, problem: "write failed: \(error)", remedy: "is the RS-485 dongle plugged in?")
            await drop(failure)
            throw failure
        }
    }

    /// The next answer from module `id` that arrives within `timeout`, or nil; nil at once when
    /// a line that is no answer arrives after the bus's count of them was `garbledSince` (an
    /// answer that met the end of the frame it answers: the count is taken before the frame is
    /// sent, so one garbled at once is not missed).
    public func answer(from id: Int, within timeout: Duration, garbledSince: Int? = nil) async throws -> RS485Answer? {
        try await answer(within: timeout, garbledSince: garbledSince) { $0.id == id }
    }

    /// The next answer `matching` that arrives within `timeout`, or nil (an ID taken, which a
    /// module says by its serial number); with `garbledSince`, as ``answer(from:within:garbledSince:)``.
    public func answer(within timeout: Duration, garbledSince: Int? = nil, matching: @Sendable (RS485Answer) -> Bool) async throws -> RS485Answer? {
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if let index = answers.firstIndex(where: matching) { return answers.remove(at: index) }
            if let garbledSince, unreadable > garbledSince { return nil }
            try await clock.sleep(for: .milliseconds(10), tolerance: nil)
        }
        return nil
    }

    /// Forgets answers nobody asked for (before a command whose answer is awaited).
    public func discardAnswers() { answers.removeAll() }

    /// Forgets that `serial` announced itself (it has an ID now).
    public func forgetAnnouncement(_ serial: String) { announced[serial] = nil }

    /// Stops reading and closes the port.
    public func stop() async {
        reading?.cancel()
        reading = nil
        await port?.close()
        port = nil
        connected = false
    }

    private func currentPort() throws -> any SerialPort {
        if let port { return port }
        let opened = try open()
        port = opened
        return opened
    }

    private func drop(_ error: HardwareError) async {
        problemContinuation.yield("\(error)")
        connected = false
        await port?.close()
        port = nil
    }

    private func readOnce() async {
        guard let port = try? currentPort() else {
            try? await clock.sleep(for: .milliseconds(500), tolerance: nil)
            return
        }
        do {
            let bytes = try await port.read(maximum: 256, timeout: .milliseconds(100))
            for result in reader.read(bytes) {
                switch result {
                case .success(.announcement(let serial)): announced[serial] = clock.now
                case .success(let answer): answers.append(answer)
                case .failure(let error):
                    unreadable += 1
                    problemContinuation.yield("\(device): \(error)")
                }
            }
            // Answers nobody waits for are not kept for ever.
            if answers.count > 64 { answers.removeFirst(answers.count - 64) }
        } catch {
            await drop(HardwareError(device: device, problem: "read failed: \(error)", remedy: "is the RS-485 dongle plugged in?"))
            try? await clock.sleep(for: .milliseconds(500), tolerance: nil)
        }
    }
}

extension RS485Answer {
    /// The module that answered by its ID; nil for what a module says by its serial number.
    public var id: Int? {
        switch self {
        case .revolution(let id, _), .dump(let id, _, _, _), .version(let id, _, _), .about(let id, _, _, _): id
        case .hall(let id, _), .diagnostics(let id, _), .mechanical(let id, _): id
        case .announcement, .numbered: nil
        }
    }
}
