import FoundationEssentials

/// Which of a Vestaboard's APIs flapd talks to, and with what credential.
public enum VestaboardAPI: Sendable, Equatable {
    /// The board's own Local API on the home network (`http://HOST:7000`), with its Local API key.
    case local(URL, key: String)
    /// The Cloud API (`https://cloud.vestaboard.com/`), with an API token from the web app.
    case cloud(URL, token: String)
    /// The older Read/Write API (`https://rw.vestaboard.com/`), with its Read/Write key.
    case readWrite(URL, key: String)

    // swift-format-ignore: NeverForceUnwrap
    /// Literal addresses, so never nil.
    public static let cloudURL = URL(string: "https://cloud.vestaboard.com/")!
    // swift-format-ignore: NeverForceUnwrap
    /// The Read/Write API's address.
    public static let readWriteURL = URL(string: "https://rw.vestaboard.com/")!

    /// The name in configuration and status pages.
    public var kind: String {
        switch self {
        case .local: "local"
        case .cloud: "cloud"
        case .readWrite: "rw"
        }
    }

    /// Where messages are read and written.
    var messageURL: URL {
        switch self {
        case .local(let base, _): base.appendingPathComponent("local-api/message")
        case .cloud(let base, _), .readWrite(let base, _): base
        }
    }

    /// The header carrying the credential.
    var credential: (name: String, value: String) {
        switch self {
        case .local(_, let key): ("X-Vestaboard-Local-Api-Key", key)
        case .cloud(_, let token): ("X-Vestaboard-Token", token)
        case .readWrite(_, let key): ("X-Vestaboard-Read-Write-Key", key)
        }
    }

    /// The cloud services drop a message written within 15 s of the last one shown (answering as
    /// if it were shown), so writes through them are spaced at least this far apart.
    public var minimumSpacing: Duration? {
        switch self {
        case .local: nil
        case .cloud, .readWrite: .seconds(15)
        }
    }

    /// Where it is, for logs and status: never the credential.
    public var address: String {
        switch self {
        case .local(let url, _), .cloud(let url, _), .readWrite(let url, _): url.absoluteString
        }
    }
}

/// How a board moves to a new message, as the Local API takes it.
public struct BoardTransition: Sendable, Equatable, Codable {
    /// `column`, `reverse-column`, `edges-to-center`, `row`, `diagonal`, `random`.
    public var strategy: String
    /// Modules that move together per step.
    public var stepSize: Int?
    /// Milliseconds between steps.
    public var stepIntervalMs: Int?

    /// A transition of `strategy`, its steps as given.
    public init(strategy: String, stepSize: Int? = nil, stepIntervalMs: Int? = nil) {
        self.strategy = strategy
        self.stepSize = stepSize
        self.stepIntervalMs = stepIntervalMs
    }
}
