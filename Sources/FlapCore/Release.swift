/// The release flapd and flapctl belong to (debian/changelog names the same).
public enum Release {
    /// `0.1.0`.
    public static let version = "0.1.0"
}
