import FlapHardware
import FlapHeartRate
import FlapSimulated
import Foundation
import TestSupport
import Testing

@testable import FlapLinux

/// The BLE driver against BlueZ as python-dbusmock plays it on a private dbus-daemon: the
/// filter it sets, the straps it connects, notifications turned into samples, and every way
/// the radio side goes wrong.
@Suite(.cleansUp, .timeLimit(.minutes(2)), .serialized) struct BlueZHeartRateSensorTests {
    static let polar = "C4:7C:8D:6A:12:34"
    static let wahoo = "E8:11:22:33:44:55"
    static let garmin = "F0:99:88:77:66:55"

    typealias Recorder = HeartRateRecorder<ContinuousClock.Instant>

    /// Runs the sensor on the peer's bus while `body` runs.
    func withSensor(
        _ peer: BlueZPeer, adapter: String? = "hci0", straps: [String] = [],
        _ body: (Recorder) async throws -> Void
    ) async throws {
        let sensor = try BlueZHeartRateSensor(adapter: adapter, straps: straps, busAddress: peer.address, clock: ContinuousClock())
        let recorder = Recorder()
        let running = Task { await sensor.run(recorder.emit) }
        do {
            try await body(recorder)
        } catch {
            running.cancel()
            await running.value
            throw error
        }
        running.cancel()
        await running.value
    }

    func strap(_ address: String) -> StrapIdentity { StrapIdentity(driver: "ble", address: address) }

    /// BlueZ with adapter hci0 and these straps (address, advertised name) in range.
    func bluez(_ straps: [(String, String)], policy: String? = nil) async throws -> BlueZPeer {
        let peer = try await BlueZPeer.start(policy: policy)
        try await peer.call("AddAdapter", ["hci0", "kiosk"])
        for (address, name) in straps { try await peer.addStrap(address, name: name) }
        return peer
    }

    @Test func setsTheFilterConnectsAndTurnsNotificationsIntoSamples() async throws {
        let peer = try await bluez([(Self.polar, "Polar H10 6A1234")])
        teardown { await peer.stop() }
        try await withSensor(peer) { recorder in
            try await peer.waitForStrap(Self.polar, "notifying=True")
            let adapter = try await peer.call("AdapterState", ["hci0"])
            #expect(adapter == "discovering=True filter=0000180d-0000-1000-8000-00805f9b34fb/le")
            // Flags 0x16: uint8 value, contact supported and detected, one RR interval.
            try await peer.notify(Self.polar, [0x16, 72, 0x00, 0x04])
            // Flags 0x09: uint16 value, energy expended, no contact bit.
            try await peer.notify(Self.polar, [0x09, 0x2C, 0x01, 0x10, 0x00])
            #expect(try await recorder.until { $0.samples.count == 2 })
            let first = try #require(recorder.samples.first)
            #expect(first.strap == strap(Self.polar))
            #expect(first.bpm == 72)
            #expect(first.contact == .detected)
            #expect(first.rrIntervals == [1024])
            #expect(first.battery == 87)
            #expect(first.rssi == -58)
            let second = recorder.samples[1]
            #expect(second.bpm == 300 && second.energyExpended == 16 && second.contact == .unknown)
            // The body location is read beside StartNotify, so the first samples of a busy
            // machine may come before it is known: the samples after it carry it.
            let located = try await eventually(every: .milliseconds(200)) {
                try await peer.notify(Self.polar, [0x16, 72, 0x00, 0x04])
                return recorder.samples.last?.bodyLocation == .chest
            }
            #expect(located, "no sample said where the strap is worn")
            #expect(recorder.state(of: nil) == .connected)
            #expect(recorder.state(of: strap(Self.polar)) == .connected)
            #expect(recorder.notices.contains { $0.contains("\(Self.polar) (Polar H10 6A1234) found") })
        }
    }

    @Test func aGarbledNotificationIsReportedAndSkipped() async throws {
        let peer = try await bluez([(Self.polar, "Polar H10")])
        teardown { await peer.stop() }
        try await withSensor(peer) { recorder in
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.notify(Self.polar, [0x01, 0x48])  // uint16 value flagged, one byte left
            try await peer.notify(Self.polar, [0x00, 61])
            #expect(try await recorder.until { $0.samples.count == 1 })
            #expect(recorder.samples[0].bpm == 61)
            #expect(recorder.notices.contains { $0.contains(Self.polar) && $0.contains("byte 1") })
        }
    }

    @Test func aStrapThatWalksAwayIsLostAndFoundAgain() async throws {
        let peer = try await bluez([(Self.polar, "Polar H10")])
        teardown { await peer.stop() }
        try await withSensor(peer) { recorder in
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.notify(Self.polar, [0x00, 70])
            #expect(try await recorder.until { $0.state(of: strap(Self.polar)) == .connected })
            try await peer.call("SetInRange", [Self.polar, false])
            #expect(try await recorder.until { if case .lost = $0.state(of: strap(Self.polar)) { true } else { false } })
            // A connection attempt fails while it is away, and the sensor says it tries again.
            #expect(try await recorder.until { $0.notices.contains { $0.contains("cannot connect") && $0.contains("trying again") } })
            try await peer.call("SetInRange", [Self.polar, true])
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.notify(Self.polar, [0x00, 74])
            #expect(try await recorder.until { $0.samples.last?.bpm == 74 })
            #expect(recorder.state(of: strap(Self.polar)) == .connected)
            #expect(recorder.notices.contains { $0.contains("cannot connect") && $0.contains("trying again") })
        }
    }

    @Test func readsSeveralStrapsAtOnceAndIgnoresOtherDevices() async throws {
        let peer = try await bluez([(Self.polar, "Polar H10"), (Self.wahoo, "TICKR 4455"), (Self.garmin, "HRM-Dual")])
        teardown { await peer.stop() }
        try await peer.call("AddDevice", ["hci0", "11:22:33:44:55:66", "Someone's headphones"])
        try await withSensor(peer) { recorder in
            for address in [Self.polar, Self.wahoo, Self.garmin] { try await peer.waitForStrap(address, "notifying=True") }
            for (address, bpm) in [(Self.polar, 61), (Self.wahoo, 88), (Self.garmin, 120)] { try await peer.notify(address, [0x00, UInt8(bpm)]) }
            #expect(try await recorder.until { $0.samples.count == 3 })
            let byStrap = Dictionary(uniqueKeysWithValues: recorder.samples.map { ($0.strap.address, $0.bpm) })
            #expect(byStrap == [Self.polar: 61, Self.wahoo: 88, Self.garmin: 120])
            #expect(!recorder.statuses.contains { $0.strap?.address == "11:22:33:44:55:66" })
        }
    }

    @Test func followsOnlyTheStrapsNamed() async throws {
        let peer = try await bluez([(Self.polar, "Polar H10"), (Self.wahoo, "TICKR 4455"), (Self.garmin, "HRM-Dual")])
        teardown { await peer.stop() }
        try await withSensor(peer, straps: ["TICKR 4455", Self.garmin.lowercased()]) { recorder in
            try await peer.waitForStrap(Self.wahoo, "notifying=True")
            try await peer.waitForStrap(Self.garmin, "notifying=True")
            // A reading from a followed strap, sent after everything about the others, marks the
            // point by which the sensor has handled the unnamed strap it saw first.
            try await peer.notify(Self.wahoo, [0x00, 99])
            #expect(try await recorder.until { $0.samples.contains { $0.bpm == 99 } })
            #expect(try await peer.strapState(Self.polar) == "connected=False notifying=False connects=0")
        }
    }

    @Test func anAdapterSwitchedOffIsAStateWithItsRemedyAndRecovers() async throws {
        let peer = try await bluez([(Self.polar, "Polar H10")])
        teardown { await peer.stop() }
        try await withSensor(peer) { recorder in
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.call("SetPowered", ["hci0", false])
            #expect(
                try await recorder.until {
                    $0.state(of: nil)
                        == .lost(
                            reason: "Bluetooth adapter hci0 is off", remedy: "`bluetoothctl power on`; `rfkill unblock bluetooth` if it is blocked")
                })
            #expect(try await recorder.until { if case .lost = $0.state(of: strap(Self.polar)) { true } else { false } })
            try await peer.call("SetPowered", ["hci0", true])
            try await peer.waitForStrap(Self.polar, "notifying=True")
            #expect(try await peer.call("AdapterState", ["hci0"]).hasPrefix("discovering=True"))
            try await peer.notify(Self.polar, [0x00, 66])
            #expect(try await recorder.until { $0.samples.last?.bpm == 66 })
            #expect(recorder.state(of: nil) == .connected)
        }
    }

    @Test func anAdapterUnpluggedAndPluggedBackIn() async throws {
        let peer = try await bluez([(Self.polar, "Polar H10")])
        teardown { await peer.stop() }
        try await withSensor(peer) { recorder in
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.call("RemoveAdapterWithDevices", ["hci0"])
            #expect(
                try await recorder.until {
                    $0.state(of: nil)
                        == .lost(reason: "Bluetooth adapter hci0 is not there", remedy: "plug one in; `rfkill list` shows whether one is blocked")
                })
            #expect(try await recorder.until { if case .lost = $0.state(of: strap(Self.polar)) { true } else { false } })
            try await peer.call("AddAdapter", ["hci0", "kiosk"])
            try await peer.addStrap(Self.polar, name: "Polar H10")
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.notify(Self.polar, [0x00, 62])
            #expect(try await recorder.until { $0.samples.last?.bpm == 62 })
            #expect(recorder.state(of: nil) == .connected)
        }
    }

    @Test func bluetoothdMissingGoneAndBack() async throws {
        let peer = try await BlueZPeer.start()
        teardown { await peer.stop() }
        try await peer.command("stop-bluez")
        try await withSensor(peer, adapter: nil) { recorder in
            #expect(
                try await recorder.until {
                    $0.state(of: nil)
                        == .lost(
                            reason: "bluetoothd is not running", remedy: "`sudo apt install bluez`, then `sudo systemctl enable --now bluetooth`")
                })
            try await peer.command("start-bluez")
            #expect(
                try await recorder.until {
                    $0.state(of: nil) == .lost(reason: "no Bluetooth adapter", remedy: "plug one in; `rfkill list` shows whether one is blocked")
                })
            try await peer.call("AddAdapter", ["hci0", "kiosk"])
            try await peer.addStrap(Self.polar, name: "Polar H10")
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.notify(Self.polar, [0x00, 58])
            #expect(try await recorder.until { $0.samples.last?.bpm == 58 })

            try await peer.command("stop-bluez")
            #expect(
                try await recorder.until {
                    $0.state(of: nil)
                        == .lost(reason: "bluetoothd stopped", remedy: "systemd restarts it; if not, `sudo systemctl restart bluetooth`")
                })
            #expect(recorder.state(of: strap(Self.polar)) == .lost(reason: "bluetoothd stopped", remedy: nil))
            try await peer.command("start-bluez")
            try await peer.call("AddAdapter", ["hci0", "kiosk"])
            try await peer.addStrap(Self.polar, name: "Polar H10")
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.notify(Self.polar, [0x00, 59])
            #expect(try await recorder.until { $0.samples.last?.bpm == 59 })
            #expect(recorder.state(of: nil) == .connected)
        }
    }

    @Test func theBusPolicyInstalledForFlapdAllowsTheDriverAndNothingMore() async throws {
        let policy = PythonPeer.packageRoot.appendingPathComponent("dbus/vestawidget-bluez.conf").path
        let peer = try await bluez([(Self.polar, "Polar H10")], policy: policy)
        teardown { await peer.stop() }
        try await withSensor(peer) { recorder in
            try await peer.waitForStrap(Self.polar, "notifying=True")
            try await peer.notify(Self.polar, [0x00, 70])
            #expect(try await recorder.until { $0.samples.last?.bpm == 70 && $0.samples.last?.bodyLocation == .chest })
        }
        let bus = try DBusConnection.system(address: peer.address) { _ in }
        defer { bus.close() }
        let device = "/org/bluez/hci0/dev_C4_7C_8D_6A_12_34"
        for (path, interface, member) in [
            (device, "org.bluez.Device1", "Pair"), ("/org/bluez/hci0", "org.bluez.Adapter1", "RemoveDevice"),
            ("/org/bluez/hci0", "org.freedesktop.DBus.Properties", "Set")
        ] {
            await #expect(throws: DBusError.self) {
                do {
                    _ = try await bus.call("org.bluez", path, interface, member, member == "RemoveDevice" ? [.objectPath(device)] : [])
                } catch let error as DBusError {
                    #expect(error.name == "org.freedesktop.DBus.Error.AccessDenied", "\(member): \(error)")
                    throw error
                }
            }
        }
    }

    @Test func aSystemBusThatIsNotThereIsAState() async throws {
        let sensor = try BlueZHeartRateSensor(adapter: "hci0", busAddress: "unix:path=/nonexistent/system_bus_socket", clock: ContinuousClock())
        let recorder = Recorder()
        let running = Task { await sensor.run(recorder.emit) }
        #expect(
            try await recorder.until(5) {
                if case .lost(let reason, let remedy) = $0.state(of: nil) {
                    reason.hasPrefix("the system bus is not reachable") && remedy != nil
                } else {
                    false
                }
            })
        running.cancel()
        await running.value
    }

    @Test func refusesAnAdapterNameThatIsNot() {
        #expect(throws: HardwareError.self) { try BlueZHeartRateSensor(adapter: "hci 0", clock: ContinuousClock()) }
        #expect(throws: HardwareError.self) { try BlueZHeartRateSensor(straps: [" "], clock: ContinuousClock()) }
    }
}
