/// BlueZ's objects as bluetoothd last described them: adapters, devices, GATT services and
/// characteristics with their properties, kept current from ObjectManager and
/// PropertiesChanged signals.
struct BlueZObjects {
    typealias Properties = [String: DBusValue]
    private(set) var objects: [String: [String: Properties]] = [:]

    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let characteristic = "org.bluez.GattCharacteristic1"
    static let battery = "org.bluez.Battery1"

    /// From GetManagedObjects' `a{oa{sa{sv}}}`.
    init(managed reply: DBusValue?) {
        for (path, interfaces) in reply?.dictionary ?? [:] { added(path, interfaces) }
    }

    /// InterfacesAdded's `a{sa{sv}}`.
    mutating func added(_ path: String, _ interfaces: DBusValue) {
        for (interface, properties) in interfaces.dictionary ?? [:] {
            objects[path, default: [:]][interface, default: [:]].merge(properties.dictionary ?? [:]) { $1 }
        }
    }

    mutating func removed(_ path: String, _ interfaces: [String]) {
        for interface in interfaces { objects[path]?[interface] = nil }
        if objects[path]?.isEmpty ?? false { objects[path] = nil }
    }

    /// PropertiesChanged on an interface that is known; the rest (an object not announced yet) is
    /// left for the next full read.
    mutating func changed(_ path: String, _ interface: String, _ properties: DBusValue, invalidated: [String]) {
        guard var current = objects[path]?[interface] else { return }
        current.merge(properties.dictionary ?? [:]) { $1 }
        for name in invalidated { current[name] = nil }
        objects[path]?[interface] = current
    }

    func properties(_ path: String, _ interface: String) -> Properties? { objects[path]?[interface] }

    /// Adapter paths, `/org/bluez/hci0` first.
    var adapters: [String] { objects.filter { $0.value[Self.adapter] != nil }.keys.sorted() }

    /// Devices of `adapter`: path and Device1 properties.
    func devices(of adapter: String) -> [(path: String, properties: Properties)] {
        objects.compactMap { path, interfaces in
            guard let properties = interfaces[Self.device], properties["Adapter"]?.string == adapter else { return nil }
            return (path, properties)
        }.sorted { $0.path < $1.path }
    }

    /// The characteristic with `uuid` under the device at `device`.
    func characteristic(_ uuid: String, of device: String) -> (path: String, properties: Properties)? {
        objects.lazy.compactMap { path, interfaces -> (path: String, properties: Properties)? in
            guard path.hasPrefix(device + "/"), let properties = interfaces[Self.characteristic],
                properties["UUID"]?.string?.lowercased() == uuid
            else { return nil }
            return (path, properties)
        }.first
    }
}
