/// How a simulated panel is shown: drawn in place when stdout is a terminal (else logged as
/// text), logged, or not at all.
public enum PanelShow: String, CaseIterable, Sendable {
    case terminal, log, none

    public static let names = allCases.map(\.rawValue)
}
