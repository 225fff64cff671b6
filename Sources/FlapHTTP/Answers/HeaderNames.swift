import HTTPTypes

/// The header names flapd reads or writes that swift-http-types does not name, each written once.
/// `HeaderNamesTests` checks every one is a token, so none of these is ever nil.
extension HTTPField.Name {
    /// `Host` as an ordinary field: a second one, left among the fields once the first became the authority.
    static let hostField = literal("Host")
    static let secFetchSite = literal("Sec-Fetch-Site")
    static let mcpSessionID = literal("Mcp-Session-Id")
    static let mcpProtocolVersion = literal("MCP-Protocol-Version")
    static let vestaboardEnablementToken = literal("X-Vestaboard-Local-Api-Enablement-Token")
    static let vestaboardLocalKey = literal("X-Vestaboard-Local-Api-Key")
    static let idempotencyKey = literal("Idempotency-Key")

    // swift-format-ignore: NeverForceUnwrap
    /// A name written in the source as a token (letters, digits and hyphens).
    static func literal(_ name: StaticString) -> HTTPField.Name { HTTPField.Name("\(name)")! }
}
