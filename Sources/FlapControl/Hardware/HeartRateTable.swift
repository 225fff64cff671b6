import FlapHeartRate
import FoundationEssentials

/// What `flapctl hr` prints each second: a line for one strap, a table for several.
enum HeartRateTable {
    static func render(_ sensors: [SensorReport], time: String) -> String {
        let straps = sensors.flatMap(\.straps)
        if straps.isEmpty {
            let states = sensors.map { "\($0.name): \($0.state)" + ($0.reason.map { " (\($0))" } ?? "") + ($0.remedy.map { "; \($0)" } ?? "") }
            return "\(time)  no straps yet — " + (states.isEmpty ? "no heart-rate sources" : states.joined(separator: ", ")) + "\n"
        }
        if straps.count == 1 { return "\(time)  \(line(straps[0]))\n" }
        let rows = [["strap", "state", "bpm", "contact", "RR ms", "battery", "signal", "heard"]] + straps.map(cells)
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = "\(time)  \(straps.count) straps\n"
        for row in rows {
            text +=
                zip(row, widths).map { $0 + String(repeating: " ", count: max(0, $1 - $0.count)) }.joined(separator: "  ")
                .trimmingTrailingSpaces() + "\n"
        }
        return text
    }

    static func title(_ strap: StrapReport) -> String {
        strap.name == strap.address ? strap.address : "\(strap.name) (\(strap.address))"
    }

    private static func line(_ strap: StrapReport) -> String {
        guard let bpm = strap.bpm, strap.state == "connected" || strap.state == "no-contact" else {
            return "\(title(strap))  \(strap.state)" + (strap.reason.map { ": \($0)" } ?? "")
        }
        var parts = [title(strap), "\(bpm) bpm"]
        if strap.state == "no-contact" { parts.append("no skin contact") }
        if let rr = strap.rrMilliseconds, !rr.isEmpty { parts.append("RR " + rr.map(String.init).joined(separator: " ") + " ms") }
        if let battery = strap.battery { parts.append("battery \(battery) %") }
        if let rssi = strap.rssi { parts.append("\(rssi) dBm") }
        return parts.joined(separator: "  ")
    }

    private static func cells(_ strap: StrapReport) -> [String] {
        [
            title(strap), strap.state + (strap.reason.map { ": \($0)" } ?? ""), strap.bpm.map(String.init) ?? "–",
            strap.contact ?? "–", strap.rrMilliseconds.map { $0.map(String.init).joined(separator: " ") } ?? "–",
            strap.battery.map { "\($0) %" } ?? "–", strap.rssi.map { "\($0) dBm" } ?? "–",
            strap.secondsSinceReading.map { "\(Int($0.rounded())) s ago" } ?? "–"
        ]
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
