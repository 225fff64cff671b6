import CMosquitto
import Foundation

/// An MQTT client over libmosquitto: MQTT 5 (or 3.1.1), QoS 0–2, retained messages, a will,
/// a persistent session, TLS, username and password.
///
/// A dedicated thread runs libmosquitto's network loop. Whenever the connection is lost or
/// cannot be made it waits 1, 2, 4, 8 … up to 30 s, each with ±25 % jitter so a fleet does not
/// reconnect in step, and tries again, for ever. What happens arrives as ``events``.
public final class MQTTClient: @unchecked Sendable {
    public let options: MQTTOptions
    private let mosq: OpaquePointer
    private let box: CallbackBox
    private let lock = NSLock()
    private var running = false
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    /// Connections, losses and messages, in order.
    public let events: AsyncStream<MQTTEvent>

    public init(options: MQTTOptions) throws(MQTTError) {
        mosquitto_lib_init()
        self.options = options
        let (stream, continuation) = AsyncStream.makeStream(of: MQTTEvent.self)
        events = stream
        box = CallbackBox(continuation: continuation)
        guard let handle = mosquitto_new(options.clientID, !options.persistentSession, Unmanaged.passUnretained(box).toOpaque()) else {
            throw MQTTError("cannot make an MQTT client (out of memory, or a persistent session without a client id)")
        }
        mosq = handle
        mosquitto_threaded_set(mosq, true)
        _ = mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, options.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311)
        // Small packets (a PUBLISH, its PUBACK) go out at once: with Nagle's algorithm they wait
        // for the peer's delayed ACK, tens of milliseconds each.
        _ = mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1)
        if let username = options.username {
            try Self.check(mosquitto_username_pw_set(mosq, username, options.password), "username")
        }
        if let tls = options.tls {
            try Self.check(mosquitto_tls_set(mosq, tls.caFile, nil, tls.certificateFile, tls.keyFile, nil), "TLS files")
        }
        if let will = options.will {
            try Self.check(will.payload.withUnsafeBytes {
                mosquitto_will_set_v5(mosq, will.topic, Int32($0.count), $0.baseAddress, Int32(will.qos), will.retain, nil)
            }, "will")
        }
        mosquitto_connect_v5_callback_set(mosq) { _, user, rc, flags, _ in
            let box = CallbackBox.from(user)
            box.answered = true
            box.continuation.yield(.connected(code: Int(rc), sessionPresent: flags & 1 == 1))
        }
        mosquitto_disconnect_v5_callback_set(mosq) { _, user, rc, _ in
            CallbackBox.from(user).continuation.yield(.disconnected(code: Int(rc)))
        }
        mosquitto_message_v5_callback_set(mosq) { _, user, message, _ in
            guard let m = message?.pointee else { return }
            let payload = m.payloadlen > 0 ? Array(UnsafeRawBufferPointer(start: m.payload, count: Int(m.payloadlen))) : []
            CallbackBox.from(user).continuation.yield(.message(MQTTMessage(
                topic: String(cString: m.topic), payload: payload, qos: Int(m.qos), retained: m.retain, received: .now)))
        }
    }

    deinit {
        stop()
        mosquitto_destroy(mosq)
    }

    /// Starts connecting (and reconnecting) on the network thread.
    public func start() {
        lock.withLock {
            guard !running else { return }
            running = true
            let thread = Thread { [self] in networkLoop() }
            thread.name = "mqtt \(options.host):\(options.port)"
            self.thread = thread
            thread.start()
        }
    }

    /// Disconnects cleanly (no will) and stops the thread.
    public func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        mosquitto_disconnect(mosq)
        done.wait()
        box.continuation.finish()
    }

    /// Subscribes to `filter`; libmosquitto queues it until connected. Subscriptions are made
    /// again on every connection by the caller (on `.connected`).
    public func subscribe(_ filter: String, qos: Int = 1) throws(MQTTError) {
        try Self.check(mosquitto_subscribe(mosq, nil, filter, Int32(qos)), "subscribe \(filter)")
    }

    /// Publishes `payload`. `expiry` (seconds) becomes the MQTT 5 message expiry interval.
    public func publish(_ topic: String, _ payload: [UInt8], qos: Int = 1, retain: Bool = false, expiry: UInt32? = nil) throws(MQTTError) {
        var properties: OpaquePointer?
        defer { mosquitto_property_free_all(&properties) }
        if let expiry, options.protocolVersion == .v5 {
            _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL.rawValue), expiry)
        }
        let rc = payload.withUnsafeBytes {
            mosquitto_publish_v5(mosq, nil, topic, Int32($0.count), $0.baseAddress, Int32(qos), retain, properties)
        }
        try Self.check(rc, "publish \(topic)")
    }

    private func networkLoop() {
        var attempt = 0
        var properties: OpaquePointer?
        if options.persistentSession, options.protocolVersion == .v5 {
            // A session that outlives a lost connection (MQTT 5 ends it at once by default).
            _ = mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), options.sessionExpiry)
        }
        defer { mosquitto_property_free_all(&properties) }
        while lock.withLock({ running }) {
            box.answered = false
            var rc = mosquitto_connect_bind_v5(mosq, options.host, Int32(options.port), Int32(options.keepAlive), nil, properties)
            if rc == MOSQ_ERR_SUCCESS.rawValue {
                while lock.withLock({ running }) {
                    quickAcknowledge()
                    rc = mosquitto_loop(mosq, 100, 1)
                    if rc != MOSQ_ERR_SUCCESS.rawValue { break }
                }
                // Lost before the broker answered (a TLS handshake that failed, say): a failed attempt.
                if box.answered {
                    attempt = 0
                } else if lock.withLock({ running }) {
                    box.continuation.yield(.connectFailed(reason: Self.describe(rc)))
                }
            } else {
                box.continuation.yield(.connectFailed(reason: Self.describe(rc)))
            }
            guard lock.withLock({ running }) else { break }
            sleepBackoff(&attempt)
        }
        done.signal()
    }

    /// Acknowledges received data at once instead of after the kernel's delayed-ACK timer.
    /// Brokers send with Nagle's algorithm by default (mosquitto's `set_tcp_nodelay false`): the
    /// next PUBLISH then waits for our ACK of the previous one, which a delayed ACK holds back for
    /// tens of milliseconds. Linux clears quick-ACK mode by itself, so it is set on every pass.
    private func quickAcknowledge() {
        let fd = mosquitto_socket(mosq)
        guard fd >= 0 else { return }
        var on: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    private func sleepBackoff(_ attempt: inout Int) {
        let base = min(30.0, pow(2, Double(attempt)))
        attempt += 1
        let delay = base * Double.random(in: 0.75...1.25)
        let end = Date().addingTimeInterval(delay)
        while Date() < end, lock.withLock({ running }) { Thread.sleep(forTimeInterval: 0.05) }
    }

    static func describe(_ rc: Int32) -> String {
        rc == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(rc))
    }

    static func check(_ rc: Int32, _ what: String) throws(MQTTError) {
        guard rc == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTError("\(what): \(describe(rc))") }
    }
}

/// Where libmosquitto's callbacks (on its thread) hand over to Swift.
private final class CallbackBox: @unchecked Sendable {
    let continuation: AsyncStream<MQTTEvent>.Continuation
    private let lock = NSLock()
    private var answeredValue = false
    /// Whether the broker has answered (CONNACK) since the last connection attempt.
    var answered: Bool {
        get { lock.withLock { answeredValue } }
        set { lock.withLock { answeredValue = newValue } }
    }
    init(continuation: AsyncStream<MQTTEvent>.Continuation) { self.continuation = continuation }
    static func from(_ user: UnsafeMutableRawPointer?) -> CallbackBox { Unmanaged<CallbackBox>.fromOpaque(user!).takeUnretainedValue() }
}
