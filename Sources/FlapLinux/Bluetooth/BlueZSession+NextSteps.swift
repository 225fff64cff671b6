import FlapHardware
import FlapHeartRate

extension BlueZSession {
    // MARK: What to do next

    /// Compares what is with what should be, and asks for what is missing.
    mutating func reconcile(now: C.Instant) -> [BlueZRequest] {
        guard let objects else {
            guard !loading, nextLoad.map({ now >= $0 }) ?? true else { return [] }
            loading = true
            return [.loadObjects]
        }
        let wanted = sensor.adapter.map { "/org/bluez/" + $0 }
        guard let adapter = wanted ?? objects.adapters.first, let properties = objects.properties(adapter, BlueZObjects.adapter) else {
            setSource(
                .lost(
                    reason: sensor.adapter.map { "Bluetooth adapter \($0) is not there" } ?? "no Bluetooth adapter",
                    remedy: "plug one in; `rfkill list` shows whether one is blocked"))
            loseLinks(reason: "the adapter went away", remedy: nil)
            discovery = nil
            return []
        }
        let adapterName = String(adapter.split(separator: "/").last ?? "")
        guard properties["Powered"]?.bool == true else {
            setSource(
                .lost(
                    reason: "Bluetooth adapter \(adapterName) is off", remedy: "`bluetoothctl power on`; `rfkill unblock bluetooth` if it is blocked")
            )
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

    mutating func reconcile(_ path: String, _ device: BlueZObjects.Properties, objects: BlueZObjects, now: C.Instant) -> [BlueZRequest] {
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
        guard var link = links[path] else { return [] }
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
            if let status = states.set(link.strap, .lost(reason: "disconnected", remedy: "is it worn, and within about 10 m of the adapter?")) {
                emit(.status(status))
            }
        }
        return []
    }

    func wants(_ device: BlueZObjects.Properties) -> Bool {
        guard !sensor.follow.isEmpty else {
            return device["UUIDs"]?.strings?.contains { $0.lowercased() == HeartRateService.service } ?? false
        }
        let address = device["Address"]?.string?.uppercased()
        let names = [device["Name"]?.string, device["Alias"]?.string].compactMap { $0 }
        return sensor.follow.contains { $0.uppercased() == address || names.contains($0) }
    }
}
