/// The release flapd and flapctl belong to (debian/changelog names the same).
public enum Release {
    public static let version = "0.1.0"
}
