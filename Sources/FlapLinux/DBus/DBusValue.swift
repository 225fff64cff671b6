/// A D-Bus value as it travels in a message body, with its type.
public indirect enum DBusValue: Sendable, Equatable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(Int32)
    /// An array of `element`-typed values (the element signature is kept so empty arrays travel).
    case array(element: String, [DBusValue])
    /// `ay`, kept as bytes: characteristic values arrive this way.
    case bytes([UInt8])
    /// `a{kv}`: a dictionary of entries in order.
    case dictionary(key: String, value: String, [DBusEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .bytes: "ay"
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let members): "(" + members.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// `a{sv}` from a Swift dictionary, keys sorted (the order D-Bus peers see does not matter,
    /// but tests read better when it is fixed).
    public static func properties(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(key: "s", value: "v", entries.sorted { $0.key < $1.key }.map { DBusEntry(.string($0.key), .variant($0.value)) })
    }

    /// `as`.
    public static func strings(_ values: [String]) -> DBusValue { .array(element: "s", values.map { .string($0) }) }

    // MARK: Reading

    /// The value inside any number of variants.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// A string, object path or signature, if it is one.
    public var string: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// A boolean, if it is one.
    public var bool: Bool? {
        if case .bool(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type, widened.
    public var integer: Int? {
        switch unwrapped {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        default: nil
        }
    }

    /// An array of bytes, if it is one.
    public var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let bytes): bytes
        case .array(_, let values):
            values.allSatisfy { if case .byte = $0 { true } else { false } } ? values.compactMap { $0.integer.map(UInt8.init) } : nil
        default: nil
        }
    }

    /// An array's elements, if it is one.
    public var array: [DBusValue]? {
        switch unwrapped {
        case .array(_, let values): values
        case .bytes(let bytes): bytes.map { .byte($0) }
        default: nil
        }
    }

    /// An array's strings, if it is one.
    public var strings: [String]? { array?.compactMap(\.string) }

    /// A dictionary with string or object-path keys.
    public var dictionary: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries { if let key = entry.key.string { result[key] = entry.value } }
        return result
    }
}

/// One entry of a D-Bus dictionary.
public struct DBusEntry: Sendable, Equatable {
    /// The entry's key.
    public var key: DBusValue
    /// The entry's value.
    public var value: DBusValue

    /// The entry `key`: `value`.
    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

/// A signal received on the bus.
public struct DBusSignal: Sendable {
    /// Its sender's unique name.
    public var sender: String
    /// The object it is about.
    public var path: String
    /// Its interface.
    public var interface: String
    /// Its name.
    public var member: String
    /// Its arguments.
    public var body: [DBusValue]
}

/// A method call answered with an error, or a call that could not be made.
public struct DBusError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The error's D-Bus name, `org.bluez.Error.Failed`, or a local `errno:…` for failures here.
    public var name: String
    /// What it says.
    public var message: String

    /// An error `name` saying `message`.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The message and the name.
    public var description: String { message.isEmpty ? name : "\(message) (\(name))" }

    /// The named service is not on the bus (bluetoothd not running, say).
    public var isServiceMissing: Bool {
        name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NameHasNoOwner"
    }
}
