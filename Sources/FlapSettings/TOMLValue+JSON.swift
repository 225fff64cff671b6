import FlapJSON
import FlapTOML

extension TOMLValue {
    /// The TOML value a JSON value given for a setting stands for: a whole number as an integer,
    /// an object as a table. Null, and a number TOML cannot hold, are refused, saying why.
    public init(json: JSONValue) throws(SettingsLayers.ValueProblem) {
        switch json {
        case .string(let text): self = .string(text)
        case .bool(let flag): self = .bool(flag)
        case .number(let number):
            guard number.isFinite else { throw .init(message: "\(number) is not a number TOML can hold") }
            if number.rounded() == number, abs(number) < 9.0e15 {
                self = .integer(Int(number))
            } else {
                self = .float(number)
            }
        case .array(let elements):
            var values: [TOMLValue] = []
            for element in elements { values.append(try TOMLValue(json: element)) }
            self = .array(values)
        case .object(let fields):
            var table = TOMLTable()
            for key in fields.keys.sorted() { if let value = fields[key] { table[key] = try TOMLValue(json: value) } }
            self = .table(table)
        case .null: throw .init(message: "null is not a value; to use the file's value, take the setting back")
        }
    }

    /// The JSON that shows this value.
    public var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .number(Double(number))
        case .float(let number): .number(number)
        case .bool(let flag): .bool(flag)
        case .dateTime(let text): .string(text)
        case .array(let elements): .array(elements.map(\.json))
        case .table(let table): .object(Dictionary(uniqueKeysWithValues: table.keys.compactMap { key in table[key].map { (key, $0.json) } }))
        }
    }
}

extension SettingsLayers {
    /// A value that cannot be a setting's.
    public struct ValueProblem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Why.
        public var message: String
        /// Why.
        public var description: String { message }
    }
}
