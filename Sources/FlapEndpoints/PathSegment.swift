extension String {
    /// This text as one segment of a URL path: everything but unreserved characters escaped, so
    /// a `/`, `?` or space in a name cannot change the path.
    public var pathSegment: String {
        var escaped = ""
        for byte in utf8 {
            if Self.unreserved.contains(byte) {
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                escaped += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return escaped
    }

    /// RFC 3986's unreserved characters (ASCII only).
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
}
