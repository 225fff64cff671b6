/// A source's interval, age or timeout as written: seconds (`600`) or with a unit (`30s`,
/// `10m`, `2h`, `1d`).
public enum SourceInterval {
    /// `text` as a duration, or nil when it is not one.
    public static func parse(_ text: String) -> Duration? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var digits = Substring(text)
        var unit: Int64 = 1
        if let last = text.last, let multiple = units[last] {
            digits = digits.dropLast()
            unit = multiple
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int64(digits), count > 0, count < 1_000_000 else { return nil }
        return .seconds(count * unit)
    }

    /// `600 s` as `10m`, the way it would be written.
    public static func text(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        for (unit, size) in [("d", Int64(86_400)), ("h", 3600), ("m", 60)] where seconds % size == 0 && seconds >= size {
            return "\(seconds / size)\(unit)"
        }
        return "\(seconds)s"
    }
}
