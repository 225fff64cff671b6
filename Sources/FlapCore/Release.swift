#if canImport(Glibc)
    import Glibc
#endif

/// The release flapd and flapctl belong to: the installed package's version (scripts/package
/// writes it into `/usr/share/vestawidget/version`, beside debian/changelog's entry for it), or
/// this source's own when flapd runs from a build of the repository.
public enum Release {
    /// `0.1.0`, or a build's `0.1.0+git20261128.599.55d3358`.
    public static let version = packaged(at: packagedVersionFile) ?? source

    /// The version this source tree is, for builds that are not packaged.
    public static let source = "0.1.0"

    /// Where the package keeps its version.
    public static let packagedVersionFile = "/usr/share/vestawidget/version"

    /// The version in the file at `path`: its first line, at most 64 bytes of the characters a
    /// Debian version is made of; nil when there is none.
    static func packaged(at path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 65)
        let count = fread(&bytes, 1, bytes.count, file)
        let line = bytes[..<count].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.+~-:".utf8)
        guard count <= 64 || bytes[..<count].contains(UInt8(ascii: "\n")), !line.isEmpty, line.count <= 64, line.allSatisfy(allowed.contains)
        else { return nil }
        return String(decoding: line, as: UTF8.self)
    }
}
