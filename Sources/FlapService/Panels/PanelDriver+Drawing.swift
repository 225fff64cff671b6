import FlapSimulated

extension PanelDriver {
    /// Draws a simulated panel as it changes, until cancelled: in the terminal when it is the
    /// one drawn there (`inTerminal`), else as log lines when `show` asks; nil when nothing is drawn.
    func drawing(inTerminal: Bool) -> (@Sendable () async -> Void)? {
        let show = configuration.show
        var renderer: (TerminalRenderer, AsyncStream<PanelSnapshot>)?
        if show != .none, let snapshots {
            renderer = (TerminalRenderer(isTerminal: show == .terminal && inTerminal) { text in StandardStreams.output(text) }, snapshots)
        }
        var ledTerminal: (LEDTerminalRenderer, any SimulatedPixelDevice)?
        if show == .terminal, inTerminal, let ledDevice { ledTerminal = (LEDTerminalRenderer { text in StandardStreams.output(text) }, ledDevice) }
        guard renderer != nil || ledTerminal != nil else { return nil }
        return { [renderer, ledTerminal] in
            if let (renderer, snapshots) = renderer { await renderer.run(snapshots, clock: ContinuousClock()) }
            if let (renderer, device) = ledTerminal { await renderer.run(device, clock: ContinuousClock()) }
        }
    }
}
