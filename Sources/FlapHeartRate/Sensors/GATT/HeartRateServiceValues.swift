import FlapHardware

/// The Heart Rate Service's and Battery Service's identifiers and their small values.
public enum HeartRateService {
    /// The Heart Rate service (0x180D) and its characteristics, as 128-bit UUID strings (BlueZ's form).
    public static let service = uuid(0x180D)
    /// Heart Rate Measurement (0x2A37).
    public static let measurement = uuid(0x2A37)
    /// Body Sensor Location (0x2A38).
    public static let bodySensorLocation = uuid(0x2A38)
    /// The Battery service (0x180F) and its level (0x2A19).
    public static let batteryService = uuid(0x180F)
    /// Battery Level (0x2A19).
    public static let batteryLevel = uuid(0x2A19)

    /// `0000XXXX-0000-1000-8000-00805f9b34fb`: a 16-bit Bluetooth SIG number in full.
    public static func uuid(_ short: UInt16) -> String {
        let digits = Array("0123456789abcdef")
        let four = (0..<4).map { digits[Int(short >> (12 - 4 * $0) & 0xF)] }
        return "0000\(String(four))-0000-1000-8000-00805f9b34fb"
    }

    /// Body Sensor Location (0x2A38): one byte, 0–6.
    public static func bodySensorLocation(decoding value: some Collection<UInt8>) throws(HeartRateDecodingError) -> BodySensorLocation {
        let what = "Body Sensor Location (0x2A38)"
        guard value.count == 1, let byte = value.first else {
            throw HeartRateDecodingError(what, byte: min(1, value.count), "\(value.count) bytes (1 was expected)")
        }
        guard let location = BodySensorLocation(rawValue: byte) else {
            throw HeartRateDecodingError(what, byte: 0, "\(byte) is not a location (0 to 6)")
        }
        return location
    }

    /// Battery Level (0x2A19): one byte, a percentage 0–100.
    public static func batteryLevel(decoding value: some Collection<UInt8>) throws(HeartRateDecodingError) -> Int {
        let what = "Battery Level (0x2A19)"
        guard value.count == 1, let byte = value.first else {
            throw HeartRateDecodingError(what, byte: min(1, value.count), "\(value.count) bytes (1 was expected)")
        }
        guard byte <= 100 else { throw HeartRateDecodingError(what, byte: 0, "\(byte) is not a percentage (0 to 100)") }
        return Int(byte)
    }
}
