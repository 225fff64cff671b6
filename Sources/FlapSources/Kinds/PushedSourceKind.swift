import FlapJSON

/// A kind that is pushed to (`POST /v1/sources/{name}`) rather than fetched: its document is the
/// values last pushed, each push checked by the kind before it is kept.
public protocol PushedSourceKind: SourceKind where Document == [String: JSONValue] {
    /// The values `body` sets (a null clears one), or what is wrong with it, field by field.
    func accept(_ body: JSONValue, options: Options) throws(SourcePushError) -> [String: JSONValue]
    /// The file holding a key of its own, which may push to it besides any member's; nil for none.
    func keyFile(_ options: Options) -> String?
}

extension PushedSourceKind {
    /// Never fetched.
    public var defaultInterval: Duration? { nil }
    /// Never called: a pushed kind is not fetched.
    public func read(_ body: [UInt8], options: Options) throws(SourceProblem) -> [String: JSONValue] {
        throw SourceProblem("a \(name) source is not fetched")
    }
    /// No key of its own, unless the kind says.
    public func keyFile(_ options: Options) -> String? { nil }
}
