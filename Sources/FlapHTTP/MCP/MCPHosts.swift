/// Which `Host` names the MCP endpoint answers to. A browser page on another site can make its
/// name resolve to this machine (DNS rebinding) and reach a server on loopback; a request whose
/// Host is none of flapd's names is refused for that reason.
public struct MCPHosts: Sendable {
    /// Lowercased names without ports: localhost's, the listen address, the machine's name and
    /// its `.local` name, and `[api] allowed_hosts`.
    let names: Set<String>
    /// Listening on every address: a request by any IP address is for this machine.
    let anyAddress: Bool

    /// The names a request may name as its host, for flapd listening on `listen` on the machine `machineName`, and `allowed`.
    public init(listen: String, machineName: String?, allowed: [String]) {
        var names: Set<String> = ["localhost", "127.0.0.1", "::1"]
        anyAddress = ["0.0.0.0", "::", ""].contains(listen)
        if !anyAddress { names.insert(listen.lowercased()) }
        if let machineName = machineName?.lowercased(), !machineName.isEmpty {
            // Its own name, and as mDNS gives it: the first label with .local.
            let label = machineName.split(separator: ".").first.map(String.init) ?? machineName
            names.formUnion([machineName, label, label + ".local"])
        }
        for name in allowed { names.insert(name.lowercased()) }
        self.names = names
    }

    /// Whether a request with this `Host` (an authority: name or address, maybe a port) is for flapd.
    public func allows(_ authority: String) -> Bool {
        let host = Self.host(of: authority.lowercased())
        if names.contains(host) { return true }
        return anyAddress && Self.isAddress(host)
    }

    /// The host of an authority without its port; an IPv6 address without its brackets.
    static func host(of authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        if authority.filter({ $0 == ":" }).count == 1, let colon = authority.firstIndex(of: ":") { return String(authority[..<colon]) }
        return authority
    }

    /// An IPv4 or IPv6 address written as one, not a name.
    static func isAddress(_ host: String) -> Bool {
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part) != nil }
    }
}
