import FlapSettings
import FlapTOML
import FoundationEssentials
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// flapd's appliances, one after another in one process: the first from the configuration, and
/// after each change of settings from the page the next, from flapd.toml and the page's settings
/// as they now are, with the command line's flags over both. A change that does not start (a
/// device that is not there) is taken back, and flapd goes on with the settings before it.
struct ApplianceRuns {
    let command: Flapd
    let logger: Logger

    func run(from first: FlapdConfiguration) async throws {
        let restart = SettingsRestart()
        var configuration = first
        var fallback: TOMLTable?
        var ports: BoundPorts.Ports?
        while true {
            let layered = try command.layeredConfiguration()
            let keeper = ApplianceSettings(layered) { before in await restart.request(before: before) }
            // The log level is a setting too: each appliance logs at its own.
            var logger = logger
            logger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? logger.logLevel
            let appliance: Appliance
            do {
                appliance = try await Appliance(configuration: configuration, drawInTerminal: isatty(1) == 1, settings: keeper, logger: logger)
            } catch {
                guard let before = fallback else { throw error }
                configuration = try goBack(to: before, in: layered.pageFile, because: error, ports: ports)
                fallback = nil
                continue
            }
            restart.running(appliance)
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { [listen = configuration.listen] in await appliance.announce(listen: listen) }
                try await appliance.run()
                group.cancelAll()
            }
            guard let before = restart.take() else { return }
            fallback = before
            ports = await appliance.ports.waitUntilBound()
            logger.notice("settings changed from the page: flapd's parts start again from them")
            do {
                configuration = try keeping(ports, in: command.flapdConfiguration())
            } catch {
                configuration = try goBack(to: before, in: layered.pageFile, because: error, ports: ports)
                fallback = nil
            }
        }
    }

    /// Keeps `before` as the page's settings again, and the configuration it makes.
    private func goBack(to before: TOMLTable, in file: SettingsFile, because error: any Error, ports: BoundPorts.Ports?) throws -> FlapdConfiguration
    {
        logger.error("the settings changed from the page did not start, so flapd goes back to those before them: \(error)")
        try file.write(before)
        return try keeping(ports, in: command.flapdConfiguration())
    }

    /// `configuration` with the ports the last appliance was given by the system (port 0) kept,
    /// so the pages open on them find the next.
    private func keeping(_ ports: BoundPorts.Ports?, in configuration: FlapdConfiguration) -> FlapdConfiguration {
        guard let ports else { return configuration }
        var kept = configuration
        if kept.api.port == 0 { kept.api.port = ports.native }
        if kept.api.httpsPort == 0 { kept.api.httpsPort = ports.https }
        if kept.localAPI.port == 0 { kept.localAPI.port = ports.local }
        return kept
    }
}
