import CGPIOD
import FlapHardware
import Glibc
import Synchronization
import SystemPackage

/// GPIO lines through libgpiod 2 (`libgpiod.so.3`): one request holding the outputs (coils,
/// requested low) and the inputs (sensors, as they are), set or read in one call each.
final class GPIOD2Lines: GPIOLines {
    let name: String
    let count: Int
    private let outputs: [UInt32]
    private let request: Mutex<OpaquePointer?>

    /// Requests `outputs` and `inputs` (offsets on `chip`: a name such as `gpiochip0`, a number,
    /// a path or a label, as libgpiod 1 looked chips up) for `consumer`. Line indices are outputs
    /// first, then inputs: the order in which libgpiod 2 reports the values of a request.
    init(chip: String, outputs: [Int], inputs: [Int], consumer: String) throws {
        name = chip
        count = outputs.count + inputs.count
        self.outputs = outputs.map { UInt32($0) }
        self.request = Mutex(try Self.request(chip: chip, outputs: outputs, inputs: inputs, consumer: consumer))
    }

    func set(_ levels: [Int: Bool]) throws {
        let changes = levels.filter { $0.key >= 0 && $0.key < outputs.count }.sorted { $0.key < $1.key }
        guard !changes.isEmpty else { return }
        let offsets = changes.map { outputs[$0.key] }
        let values = changes.map { Int32($0.value ? VW_GPIOD2_VALUE_ACTIVE : VW_GPIOD2_VALUE_INACTIVE) }
        try request.withLock { request in
            guard let request else { throw HardwareError(device: name, problem: "released") }
            guard vw_gpiod2_line_request_set_values_subset(request, offsets.count, offsets, values) == 0 else { throw failure("set outputs") }
        }
    }

    func get() throws -> [Bool] {
        try request.withLock { request in
            guard let request else { throw HardwareError(device: name, problem: "released") }
            var values = [Int32](repeating: 0, count: count)
            guard count == 0 || vw_gpiod2_line_request_get_values(request, &values) == 0 else { throw failure("read lines") }
            return values.map { $0 == Int32(VW_GPIOD2_VALUE_ACTIVE) }
        }
    }

    func release() {
        request.withLock { request in
            guard let held = request else { return }
            // Releasing the request gives the lines back: outputs return to inputs, the coils off.
            vw_gpiod2_line_request_release(held)
            request = nil
        }
    }

    private func failure(_ what: String) -> HardwareError {
        HardwareError(device: name, problem: "cannot \(what)", errno: .last)
    }

    /// The lines requested: the chip opened, both sets of settings added, the chip closed again
    /// (the request keeps its lines without it).
    private static func request(chip: String, outputs: [Int], inputs: [Int], consumer: String) throws -> OpaquePointer {
        let handle = try Self.open(chip)
        defer { vw_gpiod2_chip_close(handle) }
        guard let lineConfig = vw_gpiod2_line_config_new(), let requestConfig = vw_gpiod2_request_config_new() else {
            throw HardwareError(device: chip, problem: "out of memory")
        }
        defer { vw_gpiod2_line_config_free(lineConfig); vw_gpiod2_request_config_free(requestConfig) }
        vw_gpiod2_request_config_set_consumer(requestConfig, consumer)
        func add(_ offsets: [Int], direction: Int32) throws {
            guard !offsets.isEmpty else { return }
            guard let settings = vw_gpiod2_line_settings_new() else { throw HardwareError(device: chip, problem: "out of memory") }
            defer { vw_gpiod2_line_settings_free(settings) }
            _ = vw_gpiod2_line_settings_set_direction(settings, direction)
            if direction == Int32(VW_GPIOD2_DIRECTION_OUTPUT) {
                _ = vw_gpiod2_line_settings_set_output_value(settings, Int32(VW_GPIOD2_VALUE_INACTIVE))
            }
            let raw = offsets.map { UInt32($0) }
            guard vw_gpiod2_line_config_add_line_settings(lineConfig, raw, raw.count, settings) == 0 else {
                throw HardwareError(device: chip, problem: "lines \(offsets)", errno: .last)
            }
        }
        try add(outputs, direction: Int32(VW_GPIOD2_DIRECTION_OUTPUT))
        try add(inputs, direction: Int32(VW_GPIOD2_DIRECTION_INPUT))
        guard let request = vw_gpiod2_chip_request_lines(handle, requestConfig, lineConfig) else {
            let failure = Errno.last
            if failure == .invalidArgument {
                throw HardwareError(device: chip, problem: "lines \(outputs + inputs) do not all exist", errno: failure)
            }
            throw HardwareError(
                device: chip, problem: "cannot take lines \(outputs) as outputs and \(inputs) as inputs", errno: failure,
                remedy: "is another program using them?")
        }
        return request
    }

    /// libgpiod 2 opens chips by path only: a number or a `gpiochipN` name is a file in /dev,
    /// and anything else is looked for among the chips' labels (`pinctrl-rp1` on a Pi 5).
    private static func open(_ chip: String) throws -> OpaquePointer {
        let path: String? =
            if chip.hasPrefix("/") { chip } else if !chip.isEmpty, chip.allSatisfy(\.isASCIIDigit) {
                "/dev/gpiochip\(chip)"
            } else if !chip.contains("/"), access("/dev/\(chip)", F_OK) == 0 { "/dev/\(chip)" } else { nil }
        if let path {
            guard let handle = vw_gpiod2_chip_open(path) else { throw GPIOChipError.cannotOpen(chip, errno: errno) }
            return handle
        }
        for candidate in chipPaths() {
            guard let handle = vw_gpiod2_chip_open(candidate) else { continue }
            if let info = vw_gpiod2_chip_get_info(handle) {
                let label = String(cString: vw_gpiod2_chip_info_get_label(info))
                vw_gpiod2_chip_info_free(info)
                if label == chip { return handle }
            }
            vw_gpiod2_chip_close(handle)
        }
        throw GPIOChipError.cannotOpen(chip, errno: ENOENT)
    }

    /// The GPIO chips' device files (`/dev/gpiochip0`, …).
    private static func chipPaths() -> [String] {
        guard let directory = opendir("/dev") else { return [] }
        defer { closedir(directory) }
        var paths: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            let path = "/dev/" + name
            if name.hasPrefix("gpiochip"), vw_gpiod2_is_gpiochip_device(path) { paths.append(path) }
        }
        return paths.sorted()
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
