import CGPIOD
import FlapHardware
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// GPIO lines through libgpiod v1: outputs (coils) requested low, inputs (sensors) with the
/// bias the board needs; all set or read in one bulk call.
public final class LinuxGPIOLines: GPIOLines {
    public let name: String
    public let count: Int
    private let outputs: [Int]
    private let state: Mutex<Handles>

    struct Handles {
        var chip: OpaquePointer?
        var out = gpiod_line_bulk()
        var input = gpiod_line_bulk()
    }

    /// Requests `outputs` and `inputs` (offsets on `chip`, such as `gpiochip0`) for `consumer`.
    /// Line indices for ``set(_:)`` and ``get()`` are outputs first, then inputs.
    public init(chip: String, outputs: [Int], inputs: [Int], consumer: String = "flapd") throws {
        name = chip
        count = outputs.count + inputs.count
        self.outputs = outputs
        guard let handle = gpiod_chip_open_lookup(chip) else {
            let remedy = errno == ENOENT ? "check the chip name (gpiodetect lists them); this machine may have no GPIO"
                : errno == EACCES ? "add the flapd user to the gpio group (udev/99-vestawidget.rules)" : nil
            throw HardwareError(device: chip, problem: "cannot open: \(String(cString: strerror(errno)))", remedy: remedy)
        }
        var handles = Handles(chip: handle)
        func bulk(_ offsets: [Int]) throws -> gpiod_line_bulk {
            var bulk = gpiod_line_bulk()
            var raw = offsets.map { UInt32($0) }
            guard gpiod_chip_get_lines(handle, &raw, UInt32(raw.count), &bulk) == 0 else {
                throw HardwareError(device: chip, problem: "lines \(offsets) do not exist: \(String(cString: strerror(errno)))")
            }
            return bulk
        }
        do {
            handles.out = try bulk(outputs)
            handles.input = try bulk(inputs)
            var low = [Int32](repeating: 0, count: outputs.count)
            guard outputs.isEmpty || gpiod_line_request_bulk_output(&handles.out, consumer, &low) == 0 else {
                throw HardwareError(device: chip, problem: "cannot take lines \(outputs) as outputs: \(String(cString: strerror(errno)))", remedy: "is another program using them?")
            }
            guard inputs.isEmpty || gpiod_line_request_bulk_input(&handles.input, consumer) == 0 else {
                throw HardwareError(device: chip, problem: "cannot take lines \(inputs) as inputs: \(String(cString: strerror(errno)))", remedy: "is another program using them?")
            }
        } catch {
            gpiod_chip_close(handle)
            throw error
        }
        state = Mutex(handles)
    }

    public func set(_ levels: [Int: Bool]) throws {
        try state.withLock { h in
            guard h.chip != nil else { throw HardwareError(device: name, problem: "released") }
            var values = [Int32](repeating: 0, count: outputs.count)
            guard gpiod_line_get_value_bulk(&h.out, &values) == 0 else { throw failure("read back outputs") }
            for (index, level) in levels where index < outputs.count { values[index] = level ? 1 : 0 }
            guard gpiod_line_set_value_bulk(&h.out, &values) == 0 else { throw failure("set outputs") }
        }
    }

    public func get() throws -> [Bool] {
        try state.withLock { h in
            guard h.chip != nil else { throw HardwareError(device: name, problem: "released") }
            var out = [Int32](repeating: 0, count: outputs.count)
            var input = [Int32](repeating: 0, count: count - outputs.count)
            guard outputs.isEmpty || gpiod_line_get_value_bulk(&h.out, &out) == 0,
                  input.isEmpty || gpiod_line_get_value_bulk(&h.input, &input) == 0 else { throw failure("read lines") }
            return (out + input).map { $0 != 0 }
        }
    }

    public func release() {
        state.withLock { h in
            guard let chip = h.chip else { return }
            // Closing the chip releases every line: outputs go back to inputs, the coils off.
            gpiod_chip_close(chip)
            h.chip = nil
        }
    }

    private func failure(_ what: String) -> HardwareError {
        HardwareError(device: name, problem: "cannot \(what): \(String(cString: strerror(errno)))")
    }
}
