import FoundationEssentials

extension ZoneRules {
    /// Where Debian keeps the IANA time zones (package tzdata).
    public static let zoneinfo = "/usr/share/zoneinfo"

    /// The zone called `identifier` (Europe/Berlin, UTC), or nil when the system has no such zone.
    public static func named(_ identifier: String, directory: String = zoneinfo) -> ZoneRules? {
        if ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z"].contains(identifier) { return .utc }
        // A name, not a path: nothing above the zoneinfo folder is read.
        guard !identifier.isEmpty, !identifier.hasPrefix("/"), !identifier.split(separator: "/").contains(".."),
            let bytes = FileManager.default.contents(atPath: directory + "/" + identifier)
        else { return nil }
        return try? ZoneRules(tzif: Array(bytes), identifier: identifier)
    }

    /// The system's zone: `TZ` when set (`Europe/Berlin` or `:Europe/Berlin`), else
    /// /etc/localtime (its link's name, read as a TZif file), else UTC.
    public static func current(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        localtime: String = "/etc/localtime", directory: String = zoneinfo
    ) -> ZoneRules {
        if let tz = environment["TZ"], !tz.isEmpty {
            let name = tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
            if let zone = named(name, directory: directory) { return zone }
            if let zone = ZoneRules(posix: name) { return zone }
        }
        guard let bytes = FileManager.default.contents(atPath: localtime) else { return .utc }
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: localtime)) ?? ""
        let name = target.firstRange(of: "zoneinfo/").map { String(target[$0.upperBound...]) } ?? "localtime"
        return (try? ZoneRules(tzif: Array(bytes), identifier: name)) ?? .utc
    }
}
