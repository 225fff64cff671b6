import CSystemd
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
    import SystemPackage
#endif

/// A connection to a D-Bus bus through libsystemd's sd-bus, with async calls and signal
/// handlers. An sd-bus connection must stay on one thread, so it lives on a thread of its own
/// that polls the bus socket and an eventfd that wakes it for work from other threads.
public final class DBusConnection: Sendable {
    private let core: BusThread

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS` is honoured), or to the bus at
    /// `address` (`unix:path=/run/…`). `closed` is told once, with the reason, if the bus
    /// goes away (the daemon stopped, the socket closed); not when ``close()`` is called.
    public static func system(address: String? = nil, closed: @escaping @Sendable (DBusError) -> Void) throws -> DBusConnection {
        var bus: OpaquePointer?
        if let address {
            try DBusMessageCoding.check(sd_bus_new(&bus), "sd_bus_new")
            guard let bus else { throw DBusError(name: "local.NoMemory", message: "sd_bus_new") }
            do {
                try DBusMessageCoding.check(sd_bus_set_address(bus, address), "bus address \(address)")
                try DBusMessageCoding.check(sd_bus_set_bus_client(bus, 1), "bus client")
                try DBusMessageCoding.check(sd_bus_start(bus), "connect to \(address)")
            } catch {
                sd_bus_unref(bus)
                throw error
            }
        } else {
            try DBusMessageCoding.check(sd_bus_open_system(&bus), "connect to the system bus")
        }
        guard let bus else { throw DBusError(name: "local.NoMemory", message: "sd_bus_open") }
        return try DBusConnection(core: BusThread(bus: bus, closed: closed))
    }

    private init(core: BusThread) {
        self.core = core
    }

    deinit { core.stop() }

    /// Ends the connection; calls still waiting fail.
    public func close() { core.stop() }

    /// Calls `member` and returns the reply's values; a D-Bus error reply is thrown as
    /// ``DBusError`` with its name.
    public func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[DBusValue], any Error>) in
            let reply = PendingReply(continuation)
            core.submit(failing: { reply.finish(.failure($0)) }) { thread, bus in
                do {
                    var message: OpaquePointer?
                    try DBusMessageCoding.check(
                        sd_bus_message_new_method_call(bus, &message, destination, path, interface, member), "\(interface).\(member)")
                    defer { sd_bus_message_unref(message) }
                    guard let message else { throw DBusError(name: "local.NoMessage", message: "\(interface).\(member): no message was made") }
                    for argument in arguments { try DBusMessageCoding.append(argument, to: message) }
                    let microseconds = UInt64(timeout.components.seconds) * 1_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000_000)
                    let box = Unmanaged.passRetained(reply)
                    let sent = sd_bus_call_async(
                        bus, nil, message,
                        { message, userdata, _ in
                            guard let userdata, let message else { return 0 }
                            let reply = Unmanaged<PendingReply>.fromOpaque(userdata).takeRetainedValue()
                            reply.finish(PendingReply.outcome(of: message))
                            return 1
                        }, box.toOpaque(), microseconds)
                    if sent < 0 { box.release() }
                    try DBusMessageCoding.check(sent, "send \(interface).\(member)")
                    thread.track(reply)
                } catch {
                    reply.finish(.failure(error))
                }
            }
        }
    }

    /// Calls `handler` on every signal that matches `rule` (a D-Bus match rule) until the
    /// returned match is cancelled or the connection ends. Returns once the bus has the rule,
    /// so no matching signal sent afterwards is missed.
    public func onSignals(_ rule: String, _ handler: @escaping @Sendable (DBusSignal) -> Void) async throws -> DBusMatch {
        let match = DBusMatch(handler: handler, core: core)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            core.submit(failing: { continuation.resume(throwing: $0) }) { thread, bus in
                do {
                    try match.install(rule, on: bus, thread: thread)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        return match
    }
}

/// A registered signal handler; ``cancel()`` removes it.
public final class DBusMatch: Sendable {
    fileprivate let handler: @Sendable (DBusSignal) -> Void
    private let core: BusThread
    /// The sd-bus slot's address (0: none), touched only on the bus thread.
    private let slot = Mutex<UInt>(0)

    fileprivate init(handler: @escaping @Sendable (DBusSignal) -> Void, core: BusThread) {
        self.handler = handler
        self.core = core
    }

    fileprivate func install(_ rule: String, on bus: OpaquePointer, thread: BusThread) throws {
        var installed: OpaquePointer?
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        try DBusMessageCoding.check(
            sd_bus_add_match(
                bus, &installed, rule,
                { message, userdata, _ in
                    guard let userdata else { return 0 }
                    let match = Unmanaged<DBusMatch>.fromOpaque(userdata).takeUnretainedValue()
                    guard let message, let signal = DBusMatch.signal(message) else { return 0 }
                    match.handler(signal)
                    return 0
                }, userdata), "add match \(rule)")
        let address = UInt(bitPattern: installed.map { UnsafeRawPointer($0) })
        slot.withLock { $0 = address }
        thread.retain(self)
    }

    /// Stops the handler.
    public func cancel() {
        core.submit(failing: { _ in }) { thread, _ in
            let address = self.slot.withLock { value -> UInt in
                defer { value = 0 }; return value
            }
            if let installed = UnsafeRawPointer(bitPattern: address) { sd_bus_slot_unref(OpaquePointer(installed)) }
            thread.release(self)
        }
    }

    private static func signal(_ message: OpaquePointer) -> DBusSignal? {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        guard let body = try? DBusMessageCoding.readAll(message) else { return nil }
        return DBusSignal(
            sender: text(sd_bus_message_get_sender(message)), path: text(sd_bus_message_get_path(message)),
            interface: text(sd_bus_message_get_interface(message)), member: text(sd_bus_message_get_member(message)),
            body: body)
    }
}

/// A call waiting for its reply; finished exactly once.
private final class PendingReply: Sendable {
    private let continuation: Mutex<CheckedContinuation<[DBusValue], any Error>?>

    init(_ continuation: CheckedContinuation<[DBusValue], any Error>) {
        self.continuation = Mutex(continuation)
    }

    var isFinished: Bool { continuation.withLock { $0 == nil } }

    func finish(_ result: Result<[DBusValue], any Error>) {
        guard
            let waiting = continuation.withLock({ value -> CheckedContinuation<[DBusValue], any Error>? in
                defer { value = nil }; return value
            })
        else { return }
        waiting.resume(with: result)
    }

    static func outcome(of message: OpaquePointer) -> Result<[DBusValue], any Error> {
        if sd_bus_message_is_method_error(message, nil) > 0, let error = sd_bus_message_get_error(message) {
            return .failure(
                DBusError(
                    name: error.pointee.name.map { String(cString: $0) } ?? "unknown",
                    message: error.pointee.message.map { String(cString: $0) } ?? ""))
        }
        return Result { try DBusMessageCoding.readAll(message) }
    }
}

/// Work for the bus thread, and what to tell its waiter if it never runs.
private struct Job: Sendable {
    var run: @Sendable (BusThread, OpaquePointer) -> Void
    var fail: @Sendable (DBusError) -> Void
}

/// The thread that owns an sd-bus connection.
private final class BusThread: @unchecked Sendable {
    private let bus: OpaquePointer
    /// A pipe whose read end wakes the poll: (read, write).
    private let wake: (Int32, Int32)
    private let closed: @Sendable (DBusError) -> Void
    /// Work for the bus thread, and why it ended once it has.
    private let queue = Mutex<(jobs: [Job], ended: DBusError?)>(([], nil))
    private let stopping = Atomic<Bool>(false)
    // Touched only on the bus thread:
    private var replies: [ObjectIdentifier: PendingReply] = [:]
    private var matches: [ObjectIdentifier: DBusMatch] = [:]

    init(bus: OpaquePointer, closed: @escaping @Sendable (DBusError) -> Void) throws {
        self.bus = bus
        self.closed = closed
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            sd_bus_unref(bus)
            throw DBusError(name: "local.errno.\(errno)", message: "pipe: \(Errno.last)")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        wake = (ends[0], ends[1])
        DetachedThread.start(name: "d-bus") { [self] in loop() }
    }

    func submit(failing: @escaping @Sendable (DBusError) -> Void, _ job: @escaping @Sendable (BusThread, OpaquePointer) -> Void) {
        let ended = queue.withLock { state -> DBusError? in
            if let ended = state.ended { return ended }
            state.jobs.append(Job(run: job, fail: failing))
            return nil
        }
        if let ended { failing(ended) } else { poke() }
    }

    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        poke()
    }

    func track(_ reply: PendingReply) { replies[ObjectIdentifier(reply)] = reply }
    func retain(_ match: DBusMatch) { matches[ObjectIdentifier(match)] = match }
    func release(_ match: DBusMatch) { matches[ObjectIdentifier(match)] = nil }

    private func poke() {
        var one: UInt8 = 1
        _ = Glibc.write(wake.1, &one, 1)
    }

    private func loop() {
        var failure: DBusError?
        while !stopping.load(ordering: .sequentiallyConsistent) {
            for job in queue.withLock({ state in
                defer { state.jobs = [] }; return state.jobs
            }) { job.run(self, bus) }
            var processed: Int32
            repeat { processed = sd_bus_process(bus, nil) } while processed > 0
            if processed < 0 {
                failure = DBusError(name: "local.errno.\(-processed)", message: "the bus connection ended: \(Errno(rawValue: -processed))")
                break
            }
            replies = replies.filter { !$0.value.isFinished }
            var fds = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: wake.0, events: Int16(POLLIN), revents: 0)
            ]
            _ = Glibc.poll(&fds, 2, pollTimeout())
            if fds[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while Glibc.read(wake.0, &drained, 64) > 0 {}
            }
        }
        let reason = failure ?? DBusError(name: "local.Closed", message: "the bus connection was closed")
        let leftover = queue.withLock { state in
            state.ended = reason
            defer { state.jobs = [] }
            return state.jobs
        }
        for job in leftover { job.fail(reason) }
        for reply in replies.values { reply.finish(.failure(reason)) }
        replies = [:]
        matches = [:]
        sd_bus_flush_close_unref(bus)
        Glibc.close(wake.0)
        Glibc.close(wake.1)
        if failure != nil { closed(reason) }
    }

    /// Milliseconds until sd-bus's next timeout (a call's), or -1 for none.
    private func pollTimeout() -> Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(min((deadline - nowMicroseconds + 999) / 1000, 60_000))
    }
}
