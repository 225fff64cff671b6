import FlapHardware
import FlapHeartRate

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
                let filter = DBusValue.properties([
                    "UUIDs": .strings([HeartRateService.service]), "Transport": .string("le"), "DuplicateData": .bool(false)
                ])
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
