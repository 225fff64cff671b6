import Foundation

/// A flapd a test talks to, however it runs: as a process of its own (``FlapdProcess``) or in
/// the test's process (FlapServiceTests' `InProcessFlapd`).
public protocol RunningFlapd: Sendable {
    var stateDirectory: String { get }
    var apiPort: Int { get }
    var httpsPort: Int { get }
    var localAPIPort: Int { get }
    var apiKey: String { get }
    /// What it has logged so far.
    var said: String { get }
    func stop() async
}

extension RunningFlapd {
    /// A client of the native API, with the bearer key.
    public var api: HTTPClient { HTTPClient(base: "http://127.0.0.1:\(apiPort)", headers: ["Authorization": "Bearer \(apiKey)"]) }

    public var localAPIBase: String { "http://127.0.0.1:\(localAPIPort)" }

    /// The environment that points flapctl at this flapd.
    public var clientEnvironment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FLAPD_URL"] = "http://127.0.0.1:\(apiPort)"
        environment["FLAPD_API_KEY"] = apiKey
        return environment
    }
}
