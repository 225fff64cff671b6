/// TOML 1.0's rules for how a date, a time and a decimal float are written (RFC 3339's
/// fields, each in range; digits and underscores where the grammar puts them), checked on the
/// text as written before it is taken as a value.
enum TOMLDateTime {
    /// `1979-05-27`, `07:32:00[.999]`, or a date and a time joined by `T`, `t` or a space, with an
    /// optional `Z`, `z` or `±HH:MM` offset.
    static func isValid(_ text: ArraySlice<Unicode.Scalar>) -> Bool {
        var scanner = Scanner(scalars: Array(text))
        if scanner.peek(at: 2) == ":" { return scanner.time() && scanner.atEnd }
        guard scanner.date() else { return false }
        if scanner.atEnd { return true }
        guard let separator = scanner.next(), "Tt ".unicodeScalars.contains(separator), scanner.time() else { return false }
        if scanner.atEnd { return true }
        guard let offset = scanner.next() else { return false }
        if offset == "Z" || offset == "z" { return scanner.atEnd }
        guard offset == "+" || offset == "-", let hours = scanner.number(2), hours < 24, scanner.next() == ":",
            let minutes = scanner.number(2), minutes < 60
        else { return false }
        return scanner.atEnd
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        var atEnd: Bool { index == scalars.count }
        func peek(at offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }

        mutating func next() -> Unicode.Scalar? {
            guard index < scalars.count else { return nil }
            defer { index += 1 }
            return scalars[index]
        }

        /// Exactly `count` ASCII digits.
        mutating func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let scalar = next(), ("0"..."9").contains(scalar) else { return nil }
                value = value * 10 + Int(scalar.value - 0x30)
            }
            return value
        }

        mutating func date() -> Bool {
            guard let year = number(4), next() == "-", let month = number(2), (1...12).contains(month), next() == "-",
                let day = number(2), day >= 1
            else { return false }
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
            return day <= days
        }

        mutating func time() -> Bool {
            guard let hour = number(2), hour < 24, next() == ":", let minute = number(2), minute < 60, next() == ":",
                let second = number(2), second < 60
            else { return false }
            guard peek(at: 0) == "." else { return true }
            index += 1
            var digits = 0
            while let scalar = peek(at: 0), ("0"..."9").contains(scalar) { index += 1; digits += 1 }
            return digits > 0
        }
    }
}

enum TOMLNumber {
    /// `[+-] int-part (frac [exp] | exp)`: the integer part without leading zeros, digits on
    /// both sides of the point, and each underscore between two digits.
    static func isDecimalFloat(_ word: String) -> Bool {
        var scalars = Array(word.unicodeScalars)[...]
        if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
        let exponentAt = scalars.firstIndex { $0 == "e" || $0 == "E" }
        let mantissa = scalars[..<(exponentAt ?? scalars.endIndex)]
        let point = mantissa.firstIndex(of: ".")
        let integerPart = mantissa[..<(point ?? mantissa.endIndex)]
        guard digitGroups(integerPart), integerPart.first != "0" || integerPart.count == 1 else { return false }
        if let point, !digitGroups(mantissa[mantissa.index(after: point)...]) { return false }
        guard let exponentAt else { return point != nil }
        var exponent = scalars[scalars.index(after: exponentAt)...]
        if exponent.first == "+" || exponent.first == "-" { exponent = exponent.dropFirst() }
        return digitGroups(exponent)
    }

    /// One or more digits, an underscore only between two of them.
    private static func digitGroups(_ scalars: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = scalars.first, let last = scalars.last, isDigit(first), isDigit(last) else { return false }
        var previousWasUnderscore = false
        for scalar in scalars {
            if scalar == "_" {
                if previousWasUnderscore { return false }
                previousWasUnderscore = true
            } else if isDigit(scalar) {
                previousWasUnderscore = false
            } else {
                return false
            }
        }
        return true
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
}
