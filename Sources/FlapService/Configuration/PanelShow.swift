/// How a simulated panel is shown: drawn in place when stdout is a terminal (else logged as
/// text), logged, or not at all.
public enum PanelShow: String, CaseIterable, Sendable {
    case terminal, log, none

    /// The choices, as the configuration writes them.
    public static let names = allCases.map(\.rawValue)
}
