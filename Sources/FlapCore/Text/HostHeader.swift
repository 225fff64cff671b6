/// A Host header (`name`, `name:port`, `[v6]:port`) taken apart, for links back to this machine
/// by the name the browser used. Anything but a plain name or address is refused (nil), so a
/// forged header cannot put markup or another scheme into a link.
public enum HostHeader {
    /// The name or address without the port (an IPv6 address keeps its brackets).
    public static func host(of authority: String) -> String? {
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
        } else {
            host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        }
        let plain = !host.isEmpty && host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-[]:".contains($0)) }
        return plain ? String(host) : nil
    }

    /// The port, when the header gives one.
    public static func port(of authority: String) -> Int? {
        guard let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") else { return nil }
        return Int(authority[authority.index(after: colon)...])
    }
}
