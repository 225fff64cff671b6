import HTTPTypes
import Testing

@testable import FlapHTTP

/// The header names flapd spells itself are tokens, each the name it means.
@Suite struct HeaderNamesTests {
    @Test func eachNameIsTheOneWritten() {
        let names: [(HTTPField.Name, String)] = [
            (.hostField, "host"), (.secFetchSite, "sec-fetch-site"), (.mcpSessionID, "mcp-session-id"),
            (.mcpProtocolVersion, "mcp-protocol-version"), (.vestaboardEnablementToken, "x-vestaboard-local-api-enablement-token"),
            (.vestaboardLocalKey, "x-vestaboard-local-api-key"), (.idempotencyKey, "idempotency-key")
        ]
        for (name, written) in names { #expect(name.canonicalName == written) }
    }
}
