import FlapJSON

/// A Vestaboard Local API write as a message's fields: a bare array of rows of codes, or
/// `{"characters": rows, "strategy", "step_size", "step_interval_ms"}` (Vestaboard's names for
/// the transition's).
public enum LocalAPIBody {
    /// The fields `json` stands for, for ``MessageParser``; nil when it is neither form.
    public static func fields(_ json: JSONValue) -> [String: JSONValue]? {
        if json.array != nil { return ["codes": json] }
        guard let object = json.object, let rows = object["characters"] else { return nil }
        var fields: [String: JSONValue] = ["codes": rows]
        if let strategy = object["strategy"] {
            var transition: [String: JSONValue] = ["strategy": strategy]
            transition["stepSize"] = object["step_size"]
            transition["stepIntervalMs"] = object["step_interval_ms"]
            fields["transition"] = .object(transition)
        }
        return fields
    }
}
