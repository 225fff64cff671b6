/// What drives a panel: the `driver` of a `[[panel]]` table, or `--panel`.
public enum PanelDriverKind: String, CaseIterable, Sendable {
    /// Simulated hardware, drawn in the terminal or the log.
    case simulated
    /// A Chainlink controller on a serial port.
    case chainlink
    /// Chainlink Driver boards (shift registers) on the Pi's SPI bus.
    case spi
    /// Modules on ULN2003 boards on GPIO lines.
    case gpio
    /// A real Vestaboard through its Local or cloud API.
    case vestaboard
    case max7219, ws2812, framebuffer, hub75
    /// A web browser's (a TV's, a tablet's) at `/tv?panel=ID`: no hardware of its own; flapd runs
    /// its plans on time and the browsers watching draw them, and play their clacks.
    case browser

    /// Whether it draws the board in light rather than turning flaps.
    public var isLED: Bool {
        switch self {
        case .max7219, .ws2812, .framebuffer, .hub75: true
        case .simulated, .chainlink, .spi, .gpio, .vestaboard, .browser: false
        }
    }

    /// Whether its modules are split-flaps on a 52-flap Chainlink drum unless the drum is named.
    public var turnsChainlinkDrums: Bool {
        switch self {
        case .chainlink, .spi, .gpio: true
        case .simulated, .vestaboard, .max7219, .ws2812, .framebuffer, .hub75, .browser: false
        }
    }

    /// Every driver's name, in the order the configuration's errors list them.
    public static let names = allCases.map(\.rawValue)
}

/// How a simulated panel is shown: drawn in place when stdout is a terminal (else logged as
/// text), logged, or not at all.
public enum PanelShow: String, CaseIterable, Sendable {
    case terminal, log, none

    public static let names = allCases.map(\.rawValue)
}
