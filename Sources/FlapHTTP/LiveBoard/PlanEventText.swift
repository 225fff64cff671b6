import FlapCore

/// A plan event's JSON, written straight into bytes: encoding it through `Codable` (132 modules,
/// each with its path and landing times) took a fifth of flapd's processor time while a message
/// went to the boards, on the same two cores as the board writes it delayed. Keys are sorted, as
/// the encoder sorted them; absent values are left out.
struct PlanEventText {
    private var bytes: [UInt8] = []

    /// The event's data: what `LivePlanEvent` in the OpenAPI description says it is.
    static func json(
        panel: String, plan: FlipPlan, startedAt: Double, duration: Double, volume: Double?, gains: [[Double]]?
    ) -> String {
        var text = PlanEventText()
        text.bytes.reserveCapacity(64 * plan.modules.count + 160)
        text.write("{\"columns\":")
        text.write(number: Double(plan.size.columns))
        text.write(",\"duration\":")
        text.write(number: duration)
        text.write(",\"modules\":[")
        for (index, module) in plan.modules.enumerated() {
            if index > 0 { text.write(",") }
            text.write("{")
            if let gains = gains?[index] {
                text.write("\"gains\":")
                text.write(numbers: gains)
                text.write(",")
            }
            text.write("\"landings\":")
            text.write(numbers: module.landings.map { $0 / .milliseconds(1) })
            text.write(",\"path\":")
            text.write(numbers: module.path.map { Double(plan.drum(of: module).codes[$0].rawValue) })
            text.write(",\"start\":")
            text.write(number: module.start / .milliseconds(1))
            text.write("}")
        }
        text.write("],\"panel\":")
        text.write(string: panel)
        text.write(",\"rows\":")
        text.write(number: Double(plan.size.rows))
        text.write(",\"startedAt\":")
        text.write(number: startedAt)
        if let volume {
            text.write(",\"volume\":")
            text.write(number: volume)
        }
        text.write("}")
        return String(decoding: text.bytes, as: UTF8.self)
    }

    private mutating func write(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Whole numbers as integers (12, not 12.0), others as Swift writes them back exactly.
    private mutating func write(number: Double) {
        if let whole = Int64(exactly: number) {
            bytes.append(contentsOf: String(whole).utf8)
        } else if number.isFinite {
            bytes.append(contentsOf: number.description.utf8)
        } else {
            write("null")
        }
    }

    private mutating func write(numbers: [Double]) {
        write("[")
        for (index, number) in numbers.enumerated() {
            if index > 0 { write(",") }
            write(number: number)
        }
        write("]")
    }

    private mutating func write(string: String) {
        write("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": write("\\\"")
            case "\\": write("\\\\")
            case "\n": write("\\n")
            case "\r": write("\\r")
            case "\t": write("\\t")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                bytes.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default: bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        write("\"")
    }
}
