import CSystemd

#if canImport(Glibc)
    import Glibc
    import SystemPackage
#endif

/// Reads and writes ``DBusValue``s in an sd-bus message: sd-bus's typed calls are variadic, so
/// values go one at a time through its basic and container calls.
enum DBusMessageCoding {
    private static func code(_ character: Character) -> CChar { CChar(bitPattern: character.asciiValue ?? 0) }

    /// Every value left in `message` (at the current container level).
    static func readAll(_ message: OpaquePointer) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try read(message) { values.append(value) }
        return values
    }

    /// The next value, or nil at the end of the current container.
    static func read(_ message: OpaquePointer) throws -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        guard peeked > 0 else {
            try check(peeked, "peek")
            return nil
        }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"):
            if inner == "y" {
                var pointer: UnsafeRawPointer?
                var size = 0
                try check(sd_bus_message_read_array(message, code("y"), &pointer, &size), "read ay")
                guard let pointer, size > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: size)))
            }
            let values = try inside(message, "a", inner)
            if inner.hasPrefix("{") {
                let kv = inner.dropFirst().dropLast()
                let keySignature = String(kv.prefix(1))
                let entries = values.compactMap { entry -> DBusEntry? in
                    guard case .structure(let pair) = entry, pair.count == 2 else { return nil }
                    return DBusEntry(pair[0], pair[1])
                }
                return .dictionary(key: keySignature, value: String(kv.dropFirst()), entries)
            }
            return .array(element: inner, values)
        case UInt8(ascii: "e"), UInt8(ascii: "r"):
            return .structure(try inside(message, Character(UnicodeScalar(UInt8(bitPattern: type))), inner))
        case UInt8(ascii: "v"):
            let values = try inside(message, "v", inner)
            guard let value = values.first else { throw DBusError(name: "local.Malformed", message: "an empty variant") }
            return .variant(value)
        default:
            return try readBasic(message, type)
        }
    }

    private static func inside(_ message: OpaquePointer, _ type: Character, _ contents: String) throws -> [DBusValue] {
        try check(sd_bus_message_enter_container(message, code(type), contents), "enter \(type)\(contents)")
        let values = try readAll(message)
        try check(sd_bus_message_exit_container(message), "exit \(type)\(contents)")
        return values
    }

    private static func readBasic(_ message: OpaquePointer, _ type: CChar) throws -> DBusValue {
        func basic<T: BitwiseCopyable>(_ initial: T) throws -> T {
            var value = initial
            try check(sd_bus_message_read_basic(message, type, &value), "read \(Character(UnicodeScalar(UInt8(bitPattern: type))))")
            return value
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return .byte(try basic(UInt8(0)))
        case UInt8(ascii: "b"): return .bool(try basic(Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int16(try basic(Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try basic(UInt16(0)))
        case UInt8(ascii: "i"): return .int32(try basic(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try basic(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try basic(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try basic(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try basic(Double(0)))
        case UInt8(ascii: "h"): return .unixFD(try basic(Int32(-1)))
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            let pointer = try basic(UnsafePointer<CChar>?.none)
            let text = pointer.map { String(cString: $0) } ?? ""
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "o"): return .objectPath(text)
            case UInt8(ascii: "g"): return .signature(text)
            default: return .string(text)
            }
        default:
            throw DBusError(name: "local.Unsupported", message: "a value of D-Bus type \(Character(UnicodeScalar(UInt8(bitPattern: type))))")
        }
    }

    /// Appends `value` to `message`.
    static func append(_ value: DBusValue, to message: OpaquePointer) throws {
        func basic<T: BitwiseCopyable>(_ type: Character, _ value: T) throws {
            var copy = value
            try check(sd_bus_message_append_basic(message, code(type), &copy), "append \(type)")
        }
        func text(_ type: Character, _ value: String) throws {
            try check(value.withCString { sd_bus_message_append_basic(message, code(type), $0) }, "append \(type)")
        }
        func container(_ type: Character, _ contents: String, _ members: [DBusValue]) throws {
            try check(sd_bus_message_open_container(message, code(type), contents), "open \(type)\(contents)")
            for member in members { try append(member, to: message) }
            try check(sd_bus_message_close_container(message), "close \(type)\(contents)")
        }
        switch value {
        case .byte(let v): try basic("y", v)
        case .bool(let v): try basic("b", Int32(v ? 1 : 0))
        case .int16(let v): try basic("n", v)
        case .uint16(let v): try basic("q", v)
        case .int32(let v): try basic("i", v)
        case .uint32(let v): try basic("u", v)
        case .int64(let v): try basic("x", v)
        case .uint64(let v): try basic("t", v)
        case .double(let v): try basic("d", v)
        case .unixFD(let v): try basic("h", v)
        case .string(let v): try text("s", v)
        case .objectPath(let v): try text("o", v)
        case .signature(let v): try text("g", v)
        case .bytes(let bytes):
            try check(bytes.withUnsafeBytes { sd_bus_message_append_array(message, code("y"), $0.baseAddress, $0.count) }, "append ay")
        case .array(let element, let values): try container("a", element, values)
        case .dictionary(let key, let valueType, let entries):
            try check(sd_bus_message_open_container(message, code("a"), "{" + key + valueType + "}"), "open a{}")
            for entry in entries { try container("e", key + valueType, [entry.key, entry.value]) }
            try check(sd_bus_message_close_container(message), "close a{}")
        case .structure(let members): try container("r", members.map(\.signature).joined(), members)
        case .variant(let inner): try container("v", inner.signature, [inner])
        }
    }

    static func check(_ result: Int32, _ what: String) throws {
        guard result < 0 else { return }
        throw DBusError(name: "local.errno.\(-result)", message: "\(what): \(Errno(rawValue: -result))")
    }
}
