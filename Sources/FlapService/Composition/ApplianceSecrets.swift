import FlapStorage
import Logging

/// The keys the APIs check: each from the configuration, else from its file in the state
/// directory, made there (and said so) on first start.
struct ApplianceSecrets {
    let apiKey: String
    /// Reads the board, its picture and its events only.
    let viewerKey: String
    let localAPIToken: String
    let localAPIKey: String

    init(_ configuration: FlapdConfiguration, in state: StateDirectory, logger: Logger) throws {
        apiKey = try Self.secret(configuration.api.key, file: "api-key", purpose: "API key", in: state, logger: logger)
        viewerKey = try Self.secret(
            configuration.api.viewerKey, file: "viewer-key", purpose: "viewer key (reads the board only)",
            in: state, logger: logger)
        localAPIToken = try Self.secret(
            configuration.localAPI.enablementToken, file: "local-api-enablement-token",
            purpose: "Local API enablement token", in: state, logger: logger)
        localAPIKey = try Self.secret(nil, file: "local-api-key", purpose: "Local API key", in: state, logger: logger)
    }

    private static func secret(_ configured: Secret?, file: String, purpose: String, in state: StateDirectory, logger: Logger) throws -> String {
        if let configured { return try configured.read(purpose: purpose) }
        let (value, created) = try state.secret(file)
        if created { logger.notice("made a new \(purpose)", metadata: ["file": "\(state.file(file))"]) }
        return value
    }
}
