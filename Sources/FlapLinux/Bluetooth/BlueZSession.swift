import FlapHardware
import FlapHeartRate

/// The BLE driver's state across connections to the bus, and one connection's event loop.
struct BlueZSession<C: Clock> where C.Duration == Duration, C.Instant: Sendable {
    let sensor: BlueZHeartRateSensor<C>
    let emit: @Sendable (HeartRateEvent<C.Instant>) -> Void
    var states = StrapStates<C.Instant>()
    /// bluetoothd's objects; nil until read, and while bluetoothd is away.
    var objects: BlueZObjects?
    var loading = false
    var nextLoad: C.Instant?
    var loadBackoff = Backoff(seed: 0x5EED_B1E)
    var discovery: (adapter: String, on: Bool)?
    var nextDiscovery: C.Instant?
    var links: [String: BlueZLink<C.Instant>] = [:]
    /// 0x2A37 characteristic path → device path, for the straps that notify.
    var measurements: [String: String] = [:]
    var sourceState: HeartRateSensorState = .searching

    init(sensor: BlueZHeartRateSensor<C>, emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) {
        self.sensor = sensor
        self.emit = emit
    }

    static var rules: [String] {
        [
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
            "type='signal',interface='org.freedesktop.DBus.ObjectManager',path='/'",
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez'"
        ]
    }

    /// Runs on one bus connection until it ends or the task is cancelled; why it ended.
    mutating func run() async -> DBusError {
        let (events, continuation) = AsyncStream<BlueZEvent>.makeStream()
        let bus: DBusConnection
        do {
            bus = try DBusConnection.system(address: sensor.busAddress) { continuation.yield(.closed($0)) }
        } catch {
            return error as? DBusError ?? DBusError(name: "local.Failed", message: "\(error)")
        }
        defer { bus.close() }
        var matches: [DBusMatch] = []
        do {
            for rule in Self.rules { matches.append(try await bus.onSignals(rule) { continuation.yield(.signal($0)) }) }
        } catch {
            return error as? DBusError ?? DBusError(name: "local.Failed", message: "\(error)")
        }
        objects = nil
        loading = false
        nextLoad = nil
        var ended = DBusError(name: "local.Cancelled", message: "stopped")
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [clock = sensor.clock] in
                while !Task.isCancelled {
                    continuation.yield(.tick)
                    try? await clock.sleep(for: .milliseconds(500), tolerance: nil)
                }
            }
            for await event in events {
                if case .closed(let error) = event {
                    ended = error
                    break
                }
                for request in handle(event) {
                    group.addTask { continuation.yield(.answered(request, await request.perform(on: bus))) }
                }
            }
            // Calls still waiting fail when the bus closes, so the group ends promptly.
            bus.close()
            group.cancelAll()
        }
        for match in matches { match.cancel() }
        return ended
    }

    /// The bus connection ended (the system bus went away): every strap is lost.
    mutating func busEnded(_ error: DBusError) {
        objects = nil
        discovery = nil
        setSource(.lost(reason: "the system bus is not reachable (\(error.message))", remedy: "is dbus running? `systemctl status dbus`"))
        loseLinks(reason: "the system bus went away", remedy: nil)
    }

    // MARK: Events

    mutating func handle(_ event: BlueZEvent) -> [BlueZRequest] {
        let now = sensor.clock.now
        switch event {
        case .signal(let signal): receive(signal, now: now)
        case .answered(let request, let result): answered(request, result, now: now)
        case .tick, .closed: break
        }
        for status in states.silent(now: now) { emit(.status(status)) }
        return reconcile(now: now)
    }

    mutating func receive(_ signal: DBusSignal, now: C.Instant) {
        switch signal.member {
        case "NameOwnerChanged":
            guard signal.body.count == 3, let owner = signal.body[2].string else { return }
            objects = nil
            loading = false
            discovery = nil
            if owner.isEmpty {
                // Its return is announced the same way; look now and then all the same.
                nextLoad = now.advanced(by: .seconds(30))
                setSource(.lost(reason: "bluetoothd stopped", remedy: "systemd restarts it; if not, `sudo systemctl restart bluetooth`"))
                loseLinks(reason: "bluetoothd stopped", remedy: nil)
            } else {
                loadBackoff.reset()
                nextLoad = nil
            }
        case "InterfacesAdded":
            guard signal.body.count == 2, let path = signal.body[0].string else { return }
            objects?.added(path, signal.body[1])
        case "InterfacesRemoved":
            guard signal.body.count == 2, let path = signal.body[0].string else { return }
            objects?.removed(path, signal.body[1].strings ?? [])
        case "PropertiesChanged":
            guard signal.body.count >= 2, let interface = signal.body[0].string else { return }
            if interface == BlueZObjects.characteristic, let device = measurements[signal.path],
                let value = signal.body[1].dictionary?["Value"]?.bytes
            {
                notified(value, device: device)
                return
            }
            if interface == BlueZObjects.adapter, signal.body[1].dictionary?["Discovering"]?.bool == false, discovery?.adapter == signal.path {
                discovery = nil  // stopped by someone else, or by the adapter going off: start it again
            }
            objects?.changed(signal.path, interface, signal.body[1], invalidated: signal.body.count > 2 ? signal.body[2].strings ?? [] : [])
        default: break
        }
    }

    mutating func answered(_ request: BlueZRequest, _ result: Result<[DBusValue], DBusError>, now: C.Instant) {
        switch (request, result) {
        case (.loadObjects, .success(let values)):
            loading = false
            loadBackoff.reset()
            objects = BlueZObjects(managed: values.first)
        case (.loadObjects, .failure(let error)):
            loading = false
            nextLoad = now.advanced(by: loadBackoff.delay())
            if error.isServiceMissing {
                setSource(
                    .lost(reason: "bluetoothd is not running", remedy: "`sudo apt install bluez`, then `sudo systemctl enable --now bluetooth`"))
            } else if error.name.hasSuffix("AccessDenied") {
                setSource(
                    .lost(
                        reason: "BlueZ refused access: \(error.message)",
                        remedy: "flapd needs the system bus policy in systemd/ (see hardware/heart-rate.md)"))
            } else {
                setSource(.lost(reason: "BlueZ did not answer: \(error)", remedy: nil))
            }
        case (.startDiscovery(let adapter), .success):
            if discovery?.adapter == adapter { discovery?.on = true }
        case (.startDiscovery(let adapter), .failure(let error)):
            if discovery?.adapter == adapter { discovery = nil }
            nextDiscovery = now.advanced(by: .seconds(5))
            emit(.notice("\(sensor.name): cannot scan for straps: \(error)"))
        case (.connect(let device), .success):
            if links[device]?.phase == .connecting { links[device]?.phase = .resolving }
        case (.connect(let device), .failure(let error)):
            retry(device, after: "cannot connect: \(error.message.isEmpty ? error.name : error.message)", now: now)
        case (.startNotify(_, let device), .success):
            guard links[device]?.phase == .subscribing else { return }
            links[device]?.phase = .live
        case (.startNotify(_, let device), .failure(let error)):
            retry(device, after: "cannot start its heart-rate notifications: \(error)", now: now)
        case (.readLocation(_, let device), .success(let values)):
            links[device]?.location = try? HeartRateService.bodySensorLocation(decoding: values.first?.bytes ?? [])
        case (.readLocation, .failure):
            break  // the location is a nicety
        }
    }

    mutating func retry(_ device: String, after problem: String, now: C.Instant) {
        guard var link = links[device] else { return }
        measurements = measurements.filter { $0.value != device }
        let wait = link.backoff.delay()
        link.phase = .idle
        link.nextAttempt = now.advanced(by: wait)
        links[device] = link
        emit(.notice("\(sensor.name): strap \(link.strap.address): \(problem); trying again in \(Int((wait / .seconds(1)).rounded())) s"))
    }

    mutating func notified(_ value: [UInt8], device: String) {
        guard var link = links[device], link.phase == .live || link.phase == .subscribing else { return }
        let measurement: HeartRateMeasurement
        do { measurement = try HeartRateMeasurement(decoding: value) } catch {
            emit(.notice("\(sensor.name): strap \(link.strap.address): \(error)"))
            return
        }
        link.backoff.reset()
        links[device] = link
        let sample = HeartRateSample(
            strap: link.strap, bpm: measurement.bpm, contact: measurement.contact, rrIntervals: measurement.rrIntervals,
            energyExpended: measurement.energyExpended,
            battery: objects?.properties(device, BlueZObjects.battery)?["Percentage"]?.integer,
            bodyLocation: link.location, rssi: objects?.properties(device, BlueZObjects.device)?["RSSI"]?.integer,
            instant: sensor.clock.now)
        if let status = states.heard(sample) { emit(.status(status)) }
        emit(.sample(sample))
    }

    // MARK: States

    mutating func setSource(_ state: HeartRateSensorState) {
        guard sourceState != state else { return }
        sourceState = state
        emit(.status(HeartRateStatus(strap: nil, state)))
    }

    mutating func lose(_ path: String, reason: String, remedy: String?, remove: Bool) {
        guard let link = links[path] else { return }
        measurements = measurements.filter { $0.value != path }
        if remove {
            links[path] = nil
        } else {
            links[path]?.phase = .idle
        }
        if let status = states.set(link.strap, .lost(reason: reason, remedy: remedy)) { emit(.status(status)) }
    }

    mutating func loseLinks(reason: String, remedy: String?) {
        for path in links.keys.sorted() { lose(path, reason: reason, remedy: remedy, remove: true) }
    }
}
