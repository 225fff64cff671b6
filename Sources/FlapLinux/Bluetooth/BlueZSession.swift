import FlapHeartRate
import FlapHardware

/// What the session waits for: a signal, the bus closing, the answer to a request, a tick.
enum BlueZEvent: Sendable {
    case signal(DBusSignal)
    case closed(DBusError)
    case answered(BlueZRequest, Result<[DBusValue], DBusError>)
    case tick
}

/// A call to bluetoothd the session makes without waiting for it (a connection takes seconds).
enum BlueZRequest: Sendable {
    case loadObjects
    case startDiscovery(adapter: String)
    case connect(device: String)
    case startNotify(characteristic: String, device: String)
    case readLocation(characteristic: String, device: String)

    static let bluez = "org.bluez"

    func perform(on bus: DBusConnection) async -> Result<[DBusValue], DBusError> {
        do {
            switch self {
            case .loadObjects:
                return .success(try await bus.call(Self.bluez, "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"))
            case .startDiscovery(let adapter):
                let filter = DBusValue.properties(["UUIDs": .strings([HeartRateService.service]), "Transport": .string("le"), "DuplicateData": .bool(false)])
                _ = try await bus.call(Self.bluez, adapter, BlueZObjects.adapter, "SetDiscoveryFilter", [filter])
                do {
                    return .success(try await bus.call(Self.bluez, adapter, BlueZObjects.adapter, "StartDiscovery"))
                } catch let error as DBusError where error.name == "org.bluez.Error.InProgress" {
                    return .success([])
                }
            case .connect(let device):
                // Home Assistant allows LE connections at least 10 s; BlueZ's own limit is about 20.
                return .success(try await bus.call(Self.bluez, device, BlueZObjects.device, "Connect", timeout: .seconds(25)))
            case .startNotify(let characteristic, _):
                return .success(try await bus.call(Self.bluez, characteristic, BlueZObjects.characteristic, "StartNotify"))
            case .readLocation(let characteristic, _):
                return .success(try await bus.call(Self.bluez, characteristic, BlueZObjects.characteristic, "ReadValue", [.properties([:])]))
            }
        } catch let error as DBusError {
            if case .connect = self, error.name == "org.bluez.Error.AlreadyConnected" { return .success([]) }
            return .failure(error)
        } catch {
            return .failure(DBusError(name: "local.Failed", message: "\(error)"))
        }
    }
}

/// One strap the session follows, by its device object.
struct BlueZLink<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    enum Phase { case idle, connecting, resolving, subscribing, live }
    var strap: StrapIdentity
    var phase = Phase.idle
    var nextAttempt: Instant?
    var backoff: Backoff
    var location: BodySensorLocation?
}

/// The BLE driver's state across connections to the bus, and one connection's event loop.
struct BlueZSession<C: Clock> where C.Duration == Duration, C.Instant: Sendable {
    let sensor: BlueZHeartRateSensor<C>
    let emit: @Sendable (HeartRateEvent<C.Instant>) -> Void
    private(set) var states = StrapStates<C.Instant>()
    /// bluetoothd's objects; nil until read, and while bluetoothd is away.
    private var objects: BlueZObjects?
    private var loading = false
    private var nextLoad: C.Instant?
    private var loadBackoff = Backoff(seed: 0x5EED_B1E)
    private var discovery: (adapter: String, on: Bool)?
    private var nextDiscovery: C.Instant?
    private var links: [String: BlueZLink<C.Instant>] = [:]
    /// 0x2A37 characteristic path → device path, for the straps that notify.
    private var measurements: [String: String] = [:]
    private var sourceState: HeartRateSensorState = .searching

    init(sensor: BlueZHeartRateSensor<C>, emit: @escaping @Sendable (HeartRateEvent<C.Instant>) -> Void) {
        self.sensor = sensor
        self.emit = emit
    }

    private static var rules: [String] {
        ["type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
         "type='signal',interface='org.freedesktop.DBus.ObjectManager',path='/'",
         "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez'"]
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

    private mutating func handle(_ event: BlueZEvent) -> [BlueZRequest] {
        let now = sensor.clock.now
        switch event {
        case .signal(let signal): receive(signal, now: now)
        case .answered(let request, let result): answered(request, result, now: now)
        case .tick, .closed: break
        }
        for status in states.silent(now: now) { emit(.status(status)) }
        return reconcile(now: now)
    }

    private mutating func receive(_ signal: DBusSignal, now: C.Instant) {
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
               let value = signal.body[1].dictionary?["Value"]?.bytes {
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

    private mutating func answered(_ request: BlueZRequest, _ result: Result<[DBusValue], DBusError>, now: C.Instant) {
        switch (request, result) {
        case (.loadObjects, .success(let values)):
            loading = false
            loadBackoff.reset()
            objects = BlueZObjects(managed: values.first)
        case (.loadObjects, .failure(let error)):
            loading = false
            nextLoad = now.advanced(by: loadBackoff.delay())
            if error.isServiceMissing {
                setSource(.lost(reason: "bluetoothd is not running", remedy: "`sudo apt install bluez`, then `sudo systemctl enable --now bluetooth`"))
            } else if error.name.hasSuffix("AccessDenied") {
                setSource(.lost(reason: "BlueZ refused access: \(error.message)", remedy: "flapd needs the system bus policy in systemd/ (see hardware/heart-rate.md)"))
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

    private mutating func retry(_ device: String, after problem: String, now: C.Instant) {
        guard var link = links[device] else { return }
        measurements = measurements.filter { $0.value != device }
        let wait = link.backoff.delay()
        link.phase = .idle
        link.nextAttempt = now.advanced(by: wait)
        links[device] = link
        emit(.notice("\(sensor.name): strap \(link.strap.address): \(problem); trying again in \(Int((wait / .seconds(1)).rounded())) s"))
    }

    private mutating func notified(_ value: [UInt8], device: String) {
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

    // MARK: What to do next

    /// Compares what is with what should be, and asks for what is missing.
    private mutating func reconcile(now: C.Instant) -> [BlueZRequest] {
        guard let objects else {
            guard !loading, nextLoad.map({ now >= $0 }) ?? true else { return [] }
            loading = true
            return [.loadObjects]
        }
        let wanted = sensor.adapter.map { "/org/bluez/" + $0 }
        guard let adapter = wanted ?? objects.adapters.first, let properties = objects.properties(adapter, BlueZObjects.adapter) else {
            setSource(.lost(reason: sensor.adapter.map { "Bluetooth adapter \($0) is not there" } ?? "no Bluetooth adapter",
                            remedy: "plug one in; `rfkill list` shows whether one is blocked"))
            loseLinks(reason: "the adapter went away", remedy: nil)
            discovery = nil
            return []
        }
        let adapterName = String(adapter.split(separator: "/").last ?? "")
        guard properties["Powered"]?.bool == true else {
            setSource(.lost(reason: "Bluetooth adapter \(adapterName) is off", remedy: "`bluetoothctl power on`; `rfkill unblock bluetooth` if it is blocked"))
            loseLinks(reason: "the adapter is off", remedy: nil)
            discovery = nil
            return []
        }
        setSource(.connected)
        var requests: [BlueZRequest] = []
        if discovery?.adapter != adapter, nextDiscovery.map({ now >= $0 }) ?? true {
            discovery = (adapter, false)
            requests.append(.startDiscovery(adapter: adapter))
        }
        let devices = objects.devices(of: adapter).filter { wants($0.properties) }
        for gone in Set(links.keys).subtracting(devices.map(\.path)) { lose(gone, reason: "BlueZ forgot it", remedy: nil, remove: true) }
        for (path, device) in devices {
            requests += reconcile(path, device, objects: objects, now: now)
        }
        return requests
    }

    private mutating func reconcile(_ path: String, _ device: BlueZObjects.Properties, objects: BlueZObjects, now: C.Instant) -> [BlueZRequest] {
        let address = device["Address"]?.string?.uppercased() ?? String(path.split(separator: "/").last ?? "")
        if links[path] == nil {
            let strap = StrapIdentity(driver: "ble", address: address)
            var seed: UInt64 = 0xB1E
            for byte in address.utf8 { seed = seed &* 31 &+ UInt64(byte) }
            links[path] = BlueZLink(strap: strap, backoff: Backoff(seed: seed))
            let label = device["Name"]?.string ?? device["Alias"]?.string
            emit(.notice("\(sensor.name): heart-rate strap \(address)\(label.map { " (\($0))" } ?? "") found"))
            if let status = states.set(strap, .searching) { emit(.status(status)) }
        }
        var link = links[path]!
        defer { links[path] = link }
        let connected = device["Connected"]?.bool == true
        let resolved = connected && device["ServicesResolved"]?.bool == true
        let due = link.nextAttempt.map { now >= $0 } ?? true
        switch link.phase {
        case .resolving where !connected:
            let wait = link.backoff.delay()
            link.phase = .idle
            link.nextAttempt = now.advanced(by: wait)
        case .idle, .resolving:
            if !connected {
                guard link.phase == .idle, due else { break }
                link.phase = .connecting
                return [.connect(device: path)]
            }
            guard resolved, due else { break }
            guard let measurement = objects.characteristic(HeartRateService.measurement, of: path) else {
                link.phase = .idle
                link.nextAttempt = now.advanced(by: .seconds(30))
                emit(.notice("\(sensor.name): \(address) has no Heart Rate Measurement characteristic; is it a heart-rate strap?"))
                break
            }
            link.phase = .subscribing
            // Notifications may come before StartNotify's answer does.
            measurements[measurement.path] = path
            var requests: [BlueZRequest] = [.startNotify(characteristic: measurement.path, device: path)]
            if let location = objects.characteristic(HeartRateService.bodySensorLocation, of: path) {
                requests.append(.readLocation(characteristic: location.path, device: path))
            }
            return requests
        case .connecting:
            break
        case .subscribing, .live:
            guard !connected else { break }
            link.phase = .idle
            link.nextAttempt = now.advanced(by: link.backoff.delay())
            measurements = measurements.filter { $0.value != path }
            if let status = states.set(link.strap, .lost(reason: "disconnected", remedy: "is it worn, and within about 10 m of the adapter?")) { emit(.status(status)) }
        }
        return []
    }

    private func wants(_ device: BlueZObjects.Properties) -> Bool {
        guard !sensor.follow.isEmpty else {
            return device["UUIDs"]?.strings?.contains { $0.lowercased() == HeartRateService.service } ?? false
        }
        let address = device["Address"]?.string?.uppercased()
        let names = [device["Name"]?.string, device["Alias"]?.string].compactMap { $0 }
        return sensor.follow.contains { $0.uppercased() == address || names.contains($0) }
    }

    // MARK: States

    private mutating func setSource(_ state: HeartRateSensorState) {
        guard sourceState != state else { return }
        sourceState = state
        emit(.status(HeartRateStatus(strap: nil, state)))
    }

    private mutating func lose(_ path: String, reason: String, remedy: String?, remove: Bool) {
        guard let link = links[path] else { return }
        measurements = measurements.filter { $0.value != path }
        if remove { links[path] = nil } else {
            links[path]?.phase = .idle
        }
        if let status = states.set(link.strap, .lost(reason: reason, remedy: remedy)) { emit(.status(status)) }
    }

    private mutating func loseLinks(reason: String, remedy: String?) {
        for path in links.keys.sorted() { lose(path, reason: reason, remedy: remedy, remove: true) }
    }
}
