extension String {
    /// This path with `name` added below it: /var/lib/flapd + clock → /var/lib/flapd/clock.
    public func appendingPathComponent(_ name: String) -> String {
        hasSuffix("/") ? self + name : self + "/" + name
    }

    /// The directory this path is in: "." for a bare name, "/" for a file at the root.
    public var deletingLastPathComponent: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
