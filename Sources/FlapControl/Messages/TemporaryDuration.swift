import ArgumentParser

/// `flapctl send --for`: how long a temporary message shows, as seconds (`90`) or with a unit
/// (`45s`, `5m`, `2h`). The 10 s to 12 h range is flapd's to check, so its answer says it.
struct TemporaryDuration: ExpressibleByArgument, Equatable {
    var seconds: Int

    init(seconds: Int) { self.seconds = seconds }

    init?(argument: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600]
        var digits = Substring(argument)
        var unit = 1
        if let last = argument.last, let multiple = units[last] {
            digits = digits.dropLast()
            unit = multiple
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int(digits), count > 0 else { return nil }
        let (total, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow else { return nil }
        seconds = total
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
