/// The host's end of a Chainlink serial link: frames out with nonces, one message in flight,
/// resent every 250 ms until acked (a newer config replaces one not yet acked: each carries the
/// whole board); frames in, split at 0x00 and checked, reported as ``ChainlinkLinkEvent``s. A bare
/// 0x00 goes first, and before every resend, to bring a controller out of its plaintext mode
/// (after a reboot, say). A port that fails is reopened, with backoff, by `open`.
public actor ChainlinkLink<C: Clock> where C.Duration == Duration {
    /// How long the host waits for an Ack before sending again.
    public static var resendInterval: Duration { .milliseconds(250) }
    /// No frame from the controller for this long while a message waits: it is not answering.
    public static var silenceLimit: Duration { .seconds(1) }
    /// The firmware reports its general state every 2 s; quiet for longer, the link asks for
    /// state, which also finds a controller that restarted into its plaintext mode.
    public static var keepAliveAfter: Duration { .milliseconds(2500) }

    private let open: @Sendable () async throws -> any SerialPort
    private let clock: C
    private var port: (any SerialPort)?
    private var splitter = ChainlinkFrameSplitter()
    private var nextNonce: UInt32
    private var queue: [ToSplitflap.Payload] = []
    private var inFlight: (nonce: UInt32, payload: ToSplitflap.Payload)?
    private var lastAck: UInt32?
    private var lastHeard: C.Instant
    private var waitingSince: C.Instant?
    private var answering = true
    private var tasks: [Task<Void, Never>] = []
    private let continuation: AsyncStream<ChainlinkLinkEvent>.Continuation
    /// What the controller says, and what happens to the link, in order.
    public nonisolated let events: AsyncStream<ChainlinkLinkEvent>
    /// Frames sent, resends among them, and frames received that failed their checks.
    public private(set) var framesSent = 0
    /// Frames sent again for want of an Ack.
    public private(set) var resends = 0
    /// Frames received that failed their COBS, CRC or protobuf checks.
    public private(set) var badFrames = 0
    /// Why the port last failed to open, while it keeps failing (nil once open).
    public private(set) var openFailure: (error: HardwareError, attempts: Int)?
    /// The controller's latest reports.
    public private(set) var latestState: SplitflapState?
    /// The controller's latest general report (version, uptime, drum).
    public private(set) var latestGeneral: GeneralState?

    /// A link that opens its port with `open` (again after a failure), nonces from `firstNonce`.
    public init(clock: C, firstNonce: UInt32 = 1, open: @escaping @Sendable () async throws -> any SerialPort) {
        self.open = open
        self.clock = clock
        nextNonce = firstNonce
        lastHeard = clock.now
        (events, continuation) = AsyncStream.makeStream(of: ChainlinkLinkEvent.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Starts reading and writing; call once.
    public func start() {
        guard tasks.isEmpty else { return }
        tasks = [Task { await self.readLoop() }, Task { await self.writeLoop() }]
    }

    /// Stops both loops and closes the port.
    public func stop() async {
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        tasks = []
        await port?.close()
        port = nil
        continuation.finish()
    }

    /// Queues `payload`; a config replaces any config still queued (it carries the whole board).
    public func submit(_ payload: ToSplitflap.Payload) async {
        if case .config = payload { queue.removeAll { if case .config = $0 { true } else { false } } }
        queue.append(payload)
        // Nothing in flight: send at once rather than at the writer's next look (up to 2 ms later).
        if inFlight == nil, port != nil, queue.count == 1 {
            inFlight = (takeNonce(), queue.removeFirst())
            waitingSince = waitingSince ?? clock.now
            await transmit(resend: false)
        }
    }

    /// True when nothing waits to be sent or acked.
    public var isIdle: Bool { queue.isEmpty && inFlight == nil }

    // MARK: Port

    private func currentPort() async -> (any SerialPort)? {
        if let port { return port }
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                let opened = try await open()
                port = opened
                openFailure = nil
                try await opened.write([0])
                continuation.yield(.connected(opened.name))
                return opened
            } catch {
                continuation.yield(.portFailed(String(describing: error)))
                let failure = error as? HardwareError ?? HardwareError(device: "serial port", problem: "cannot open: \(error)")
                openFailure = (failure, (openFailure?.attempts ?? 0) + 1)
                try? await clock.sleep(for: delay, tolerance: nil)
                delay = min(delay * 2, .seconds(5))
            }
        }
        return nil
    }

    private func failed(_ error: any Error) async {
        continuation.yield(.portFailed(String(describing: error)))
        await port?.close()
        port = nil
    }

    // MARK: Reading

    private func readLoop() async {
        while !Task.isCancelled {
            guard let port = await currentPort() else { return }
            do {
                let bytes = try await port.read(maximum: 4096, timeout: .milliseconds(50))
                received(bytes)
            } catch is CancellationError {
                return
            } catch {
                await failed(error)
            }
        }
    }

    private func received(_ bytes: [UInt8]) {
        let discardedBefore = splitter.discardedBytes
        for frame in splitter.frames(after: bytes) {
            do {
                let message = try ChainlinkFrame.decode(frame)
                heard()
                switch message {
                case .ack(let nonce): lastAck = nonce
                case .state(let state):
                    latestState = state
                    continuation.yield(.state(state))
                case .general(let general):
                    latestGeneral = general
                    continuation.yield(.general(general))
                case .log(let text): continuation.yield(.controllerLog(text))
                case .other: break
                }
            } catch {
                // A plaintext line from a controller not yet framed, or line noise.
                badFrames += 1
                continuation.yield(.badFrame(bytes: frame.count, reason: error.description))
            }
        }
        if splitter.discardedBytes > discardedBefore {
            badFrames += 1
            continuation.yield(
                .badFrame(bytes: splitter.discardedBytes - discardedBefore, reason: "no frame delimiter within \(splitter.limit) bytes"))
        }
    }

    private func heard() {
        lastHeard = clock.now
        if !answering {
            answering = true
            continuation.yield(.answering)
        }
    }

    // MARK: Writing

    private func writeLoop() async {
        while !Task.isCancelled {
            if inFlight == nil, queue.isEmpty, lastHeard.duration(to: clock.now) > Self.keepAliveAfter {
                queue.append(.requestState)
            }
            if inFlight == nil, !queue.isEmpty {
                inFlight = (nextNonce, queue.removeFirst())
                waitingSince = waitingSince ?? clock.now
                nextNonce &+= 1
                if nextNonce == 0 { nextNonce = 1 }
                await transmit(resend: false)
            }
            guard let message = inFlight else {
                try? await clock.sleep(for: .milliseconds(2), tolerance: nil)
                continue
            }
            let deadline = clock.now.advanced(by: Self.resendInterval)
            while lastAck != message.nonce, clock.now < deadline, !Task.isCancelled {
                try? await clock.sleep(for: .milliseconds(1), tolerance: nil)
            }
            if lastAck == message.nonce {
                inFlight = nil
                waitingSince = nil
                continuation.yield(.acked(nonce: message.nonce))
                continue
            }
            if answering, let waitingSince, max(waitingSince, lastHeard).duration(to: clock.now) >= Self.silenceLimit {
                answering = false
                continuation.yield(.notAnswering)
            }
            // Unacked: a newer config, if one waits, goes instead (with its own nonce); it
            // carries the whole board, so it is as good as a resend.
            if case .config = message.payload, let newer = queue.firstIndex(where: { if case .config = $0 { true } else { false } }) {
                inFlight = (takeNonce(), queue.remove(at: newer))
            }
            await transmit(resend: true)
        }
    }

    private func takeNonce() -> UInt32 {
        defer { nextNonce = nextNonce == .max ? 1 : nextNonce + 1 }
        return nextNonce
    }

    private func transmit(resend: Bool) async {
        guard let message = inFlight, let port = await currentPort() else { return }
        let frame = ChainlinkFrame.encode(ToSplitflap(nonce: message.nonce, payload: message.payload))
        do {
            try await port.write(resend ? [0] + frame : frame)
            framesSent += 1
            if resend { resends += 1 }
            continuation.yield(.sent(nonce: message.nonce, bytes: frame.count, resend: resend))
        } catch {
            await failed(error)
        }
    }
}

/// What happens on a Chainlink link.
public enum ChainlinkLinkEvent: Sendable, Equatable {
    case connected(String)
    case portFailed(String)
    case sent(nonce: UInt32, bytes: Int, resend: Bool)
    case acked(nonce: UInt32)
    case state(SplitflapState)
    case general(GeneralState)
    case controllerLog(String)
    case badFrame(bytes: Int, reason: String)
    /// Messages go unacked and nothing has come back for ``ChainlinkLink/silenceLimit``.
    case notAnswering
    /// A good frame arrived after ``notAnswering``.
    case answering
}
