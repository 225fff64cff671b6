/// Which firmware an RS-485 module runs, as far as the host can tell: Adam G Makes' v7 answers
/// only `c` and `d`; avandeputte's Universal Firmware also answers `v` (at once), tests itself
/// and can be numbered by serial.
public enum RS485Firmware: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// Adam G Makes' firmware v6 or v7.
    case v7
    /// avandeputte's Universal Firmware.
    case universal

    /// As the configuration spells it.
    public var description: String { rawValue }

    /// Said to a household: "firmware v7", "Universal Firmware".
    public var said: String { self == .v7 ? "firmware v7" : "Universal Firmware" }

    /// Whether a module of this firmware knows `command`: v7 has no `v`, `A` or tests of its own.
    public func knows(_ command: RS485Command) -> Bool {
        switch (self, command) {
        case (.v7, .version), (.v7, .about), (.v7, .hallTest), (.v7, .diagnostics), (.v7, .mechanicalTest): false
        default: true
        }
    }
}
