import Glibc

extension String {
    /// `format` filled in by the C library's printf (`%5ld`, `%.3f`, `%02lx`): numbers only, no
    /// `%@`. What Foundation's `String(format:)` did, without linking Foundation (and ICU) for it.
    /// A Swift `Int` is a C `long`: give it as `%ld`.
    public init(cFormat format: String, _ arguments: any CVarArg...) {
        self = Self.printed(format, arguments)
    }

    private static func printed(_ format: String, _ arguments: [any CVarArg]) -> String {
        var size = 64
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let needed = withVaList(arguments) { vsnprintf(&buffer, size, format, $0) }
            guard needed >= size else {
                return String(decoding: buffer.prefix(Swift.max(0, Int(needed))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            size = Int(needed) + 1
        }
    }
}
