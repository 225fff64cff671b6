/// Follows every module's reported state (from a controller's reports or the local stepping
/// engine) and turns changes into notices naming the module's row and column: lost steps, a
/// fault, a recovery. A module in sensor error is due for re-homing 2 s after it stopped, then
/// after 4, 8 … up to 5 min between attempts, while the others go on working.
public struct ModuleFaultWatch<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// One module as reported.
    public struct Report: Sendable, Equatable {
        /// Its state.
        public var state: StepperModule.State
        /// Home edges missed since it started.
        public var missedHomes: Int
        /// Home edges where none should be since it started.
        public var unexpectedHomes: Int

        /// A report of these.
        public init(state: StepperModule.State, missedHomes: Int, unexpectedHomes: Int) {
            self.state = state
            self.missedHomes = missedHomes
            self.unexpectedHomes = unexpectedHomes
        }
    }

    /// How soon after a sensor error a module is first re-homed.
    public static var firstRehomeDelay: Duration { .seconds(2) }
    /// The longest wait between re-homing attempts.
    public static var rehomeBackoffLimit: Duration { .seconds(300) }

    private let columns: Int
    /// Modules needing attention, by row-major index.
    public private(set) var faults: [Int: ModuleFault] = [:]
    private var rehomeAt: [Int: (due: Instant, delay: Duration)] = [:]
    private var last: [Report] = []

    /// A watch over a board `columns` wide (to name rows and columns).
    public init(columns: Int) { self.columns = columns }

    /// Compares `reports` with the previous ones; returns what to say and which modules to
    /// re-home now.
    public mutating func review(_ reports: [Report], now: Instant) -> (notices: [PanelNotice], rehome: [Int]) {
        var notices: [PanelNotice] = []
        var rehome: [Int] = []
        for (i, report) in reports.enumerated() {
            let (row, column) = (i / columns + 1, i % columns + 1)
            let before = i < last.count ? last[i] : nil
            if report.missedHomes > (before?.missedHomes ?? 0) {
                notices.append(PanelNotice(.warning, "\(ModuleFault(row: row, column: column, kind: .missedHome)): steps were lost; it re-homes"))
            }
            if report.unexpectedHomes > (before?.unexpectedHomes ?? 0) {
                notices.append(PanelNotice(.warning, "\(ModuleFault(row: row, column: column, kind: .unexpectedHome)): it re-homes"))
            }
            let kind: ModuleFault.Kind? =
                switch report.state {
                case .sensorError: .sensorError
                case .panic: .panic
                case .disabled: .disabled
                case .normal, .lookForHome: nil
                }
            if let kind, faults[i]?.kind != kind {
                let fault = ModuleFault(row: row, column: column, kind: kind, attempts: faults[i]?.attempts ?? 0)
                faults[i] = fault
                notices.append(PanelNotice(.error, "\(fault)" + (kind == .sensorError ? "; re-homing it in \(Self.firstRehomeDelay)" : "")))
                if kind == .sensorError, rehomeAt[i] == nil { rehomeAt[i] = (now.advanced(by: Self.firstRehomeDelay), Self.firstRehomeDelay) }
            } else if report.state == .normal, let fault = faults[i] {
                faults[i] = nil
                rehomeAt[i] = nil
                notices.append(PanelNotice(.info, "module at row \(row), column \(column) works again (after \(fault.kind.rawValue))"))
            }
            // Its turn has come, and it has given up again (not still searching from the last try).
            if report.state == .sensorError, let entry = rehomeAt[i], entry.due <= now, var fault = faults[i] {
                fault.attempts += 1
                faults[i] = fault
                let delay = min(entry.delay * 2, Self.rehomeBackoffLimit)
                rehomeAt[i] = (now.advanced(by: delay), delay)
                notices.append(PanelNotice(.info, "\(fault): re-homing (attempt \(fault.attempts); next in \(delay) if it fails)"))
                rehome.append(i)
            }
        }
        last = reports
        return (notices, rehome)
    }

    /// The faults in row-major order.
    public var sorted: [ModuleFault] { faults.sorted { $0.key < $1.key }.map(\.value) }
}
