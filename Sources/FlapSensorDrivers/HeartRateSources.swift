import FlapHardware
import FlapHeartRate
import FlapLinux
import FlapSimulated

/// Makes the heart-rate source that settings describe, on the real drivers (or the synthetic
/// one for `simulated`).
public enum HeartRateSources {
    /// The source `settings` describe, on its driver; `seed` varies a simulated one's wearers.
    public static func make(_ settings: SensorSettings, seed: UInt64 = 1) throws -> HeartRateHub.Source {
        if let problem = settings.problems().first { throw problem }
        let clock = ContinuousClock()
        switch settings.driver {
        case .ble:
            return try BlueZHeartRateSensor(adapter: settings.device, straps: settings.straps, clock: clock)
        case .ant:
            let device = settings.device ?? SensorSettings.defaultANTDevice
            let serial = SerialSettings(baudRate: settings.baudRate ?? 115_200)
            return ANTHeartRateSensor(device: device, deviceNumbers: settings.straps.compactMap { UInt16($0) }, clock: clock) {
                try LinuxSerialPort(path: device, settings: serial)
            }
        case .serial:
            guard let device = settings.device else { throw SensorSettingsError.portNeeded }
            let serial = SerialSettings(baudRate: settings.baudRate ?? 9600)
            return SerialHeartRateSensor(device: device, format: settings.format, clock: clock) {
                try LinuxSerialPort(path: device, settings: serial)
            }
        case .simulated:
            return SyntheticHeartRateSensor(count: settings.people, seed: seed, clock: clock)
        }
    }
}
