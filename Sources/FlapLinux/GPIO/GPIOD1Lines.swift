import CGPIOD
import FlapHardware
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// GPIO lines through libgpiod 1 (`libgpiod.so.2`): outputs (coils) requested low, inputs
/// (sensors) as they are; all set or read in one bulk call.
final class GPIOD1Lines: GPIOLines {
    let name: String
    let count: Int
    private let outputs: [Int]
    private let state: Mutex<Handles>

    struct Handles {
        var chip: OpaquePointer?
        var out = gpiod1_line_bulk()
        var input = gpiod1_line_bulk()
    }

    /// Requests `outputs` and `inputs` (offsets on `chip`: a name such as `gpiochip0`, a number,
    /// a path or a label) for `consumer`. Line indices are outputs first, then inputs.
    init(chip: String, outputs: [Int], inputs: [Int], consumer: String) throws {
        name = chip
        count = outputs.count + inputs.count
        self.outputs = outputs
        guard let handle = vw_gpiod1_chip_open_lookup(chip) else { throw GPIOChipError.cannotOpen(chip, errno: errno) }
        var handles = Handles(chip: handle)
        func bulk(_ offsets: [Int]) throws -> gpiod1_line_bulk {
            var bulk = gpiod1_line_bulk()
            var raw = offsets.map { UInt32($0) }
            guard vw_gpiod1_chip_get_lines(handle, &raw, UInt32(raw.count), &bulk) == 0 else {
                throw HardwareError(device: chip, problem: "lines \(offsets) do not exist", errno: .last)
            }
            return bulk
        }
        do {
            handles.out = try bulk(outputs)
            handles.input = try bulk(inputs)
            var low = [Int32](repeating: 0, count: outputs.count)
            guard outputs.isEmpty || vw_gpiod1_line_request_bulk_output(&handles.out, consumer, &low) == 0 else {
                throw HardwareError(
                    device: chip, problem: "cannot take lines \(outputs) as outputs", errno: .last, remedy: "is another program using them?")
            }
            guard inputs.isEmpty || vw_gpiod1_line_request_bulk_input(&handles.input, consumer) == 0 else {
                throw HardwareError(
                    device: chip, problem: "cannot take lines \(inputs) as inputs", errno: .last, remedy: "is another program using them?")
            }
        } catch {
            vw_gpiod1_chip_close(handle)
            throw error
        }
        state = Mutex(handles)
    }

    func set(_ levels: [Int: Bool]) throws {
        try state.withLock { h in
            guard h.chip != nil else { throw HardwareError(device: name, problem: "released") }
            var values = [Int32](repeating: 0, count: outputs.count)
            guard vw_gpiod1_line_get_value_bulk(&h.out, &values) == 0 else { throw failure("read back outputs") }
            for (index, level) in levels where index < outputs.count { values[index] = level ? 1 : 0 }
            guard vw_gpiod1_line_set_value_bulk(&h.out, &values) == 0 else { throw failure("set outputs") }
        }
    }

    func get() throws -> [Bool] {
        try state.withLock { h in
            guard h.chip != nil else { throw HardwareError(device: name, problem: "released") }
            var out = [Int32](repeating: 0, count: outputs.count)
            var input = [Int32](repeating: 0, count: count - outputs.count)
            guard outputs.isEmpty || vw_gpiod1_line_get_value_bulk(&h.out, &out) == 0,
                input.isEmpty || vw_gpiod1_line_get_value_bulk(&h.input, &input) == 0
            else { throw failure("read lines") }
            return (out + input).map { $0 != 0 }
        }
    }

    func release() {
        state.withLock { h in
            guard let chip = h.chip else { return }
            // Closing the chip releases every line: outputs go back to inputs, the coils off.
            vw_gpiod1_chip_close(chip)
            h.chip = nil
        }
    }

    private func failure(_ what: String) -> HardwareError {
        HardwareError(device: name, problem: "cannot \(what)", errno: .last)
    }
}
