import FlapSettings

/// Where flapd's configuration comes from: flapd.toml (or no file) and the settings changed from
/// the page over it.
extension Flapd {
    /// flapd.toml, or no file, and the settings changed from the page over it.
    func layeredConfiguration() throws -> LayeredConfiguration {
        let path = config ?? (simulate || panel != nil ? nil : "/etc/flapd/flapd.toml")
        guard let path else { return try .load(text: "", filePath: nil, stateDirectory: stateDir) }
        guard let text = try ConfigurationParser.read(path) else {
            if config == nil {
                throw ServiceError.noConfiguration(path: path)
            }
            throw ServiceError.unreadableConfiguration(path: path)
        }
        return try .load(text: text, filePath: path, stateDirectory: stateDir)
    }

    func loadConfiguration() throws -> FlapdConfiguration {
        let layered = try layeredConfiguration()
        guard layered.filePath != nil || layered.pageChangedSomething else { return FlapdConfiguration() }
        do {
            var configuration = try layered.read()
            // Simulated hardware: the real driver talks to the simulated device (a Chainlink
            // controller). A device chosen on the page was found on this machine: it is used.
            if simulate {
                let chosen = layered.layers.merged().fromPage.map(\.description)
                for i in configuration.panels.indices
                where configuration.panels[i].kind.simulatedUnderSimulate && !chosen.contains("panel[\(i)].device") {
                    configuration.panels[i].device = "simulated"
                }
            }
            return configuration
        } catch {
            throw ServiceError.invalidConfiguration(error)
        }
    }
}
