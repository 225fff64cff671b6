import ArgumentParser
import FlapCore
import FlapEndpoints
import FoundationEssentials
import HTTPTypes

/// How flapctl finds flapd: `--url`/`FLAPD_URL` (default http://127.0.0.1:8080) and
/// `--api-key`/`FLAPD_API_KEY`, else the key file flapd keeps in its state directory.
struct ConnectionOptions: ParsableArguments {
    @Option(help: "flapd's native API (default: $FLAPD_URL, else http://127.0.0.1:8080).")
    var url: String?

    @Option(help: "The API key (default: $FLAPD_API_KEY, else the api-key file in the state directory).")
    var apiKey: String?

    @Option(help: "flapd's state directory, to find the key (default: as flapd chooses it).")
    var stateDir: String?

    func connection() throws -> FlapdConnection {
        let environment = ProcessInfo.processInfo.environment
        let base = url ?? environment["FLAPD_URL"] ?? "http://127.0.0.1:8080"
        guard let parsed = URL(string: base), parsed.scheme == "http" || parsed.scheme == "https" else {
            throw InputError("--url \(base): give an address such as http://127.0.0.1:8080")
        }
        if let key = apiKey ?? environment["FLAPD_API_KEY"] { return FlapdConnection(base: base, key: key, keySource: "the given key") }
        for path in keyFiles(environment) {
            if let key = try? String(contentsOfFile: path, encoding: .utf8).trimmed, !key.isEmpty {
                return FlapdConnection(base: base, key: key, keySource: path)
            }
        }
        return FlapdConnection(base: base, key: nil, keySource: "no key (none given, none found in \(keyFiles(environment).joined(separator: ", ")))")
    }

    private func keyFiles(_ environment: [String: String]) -> [String] {
        stateDirectories(environment).map { $0 + "/api-key" }
    }

    /// Where flapd's state directory may be: `--state-dir`, else where flapd would choose it for
    /// this user, then the packaged service's.
    func stateDirectories(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        if let stateDir { return [stateDir] }
        var dirs: [String] = []
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty { dirs.append(xdg + "/flapd") }
        dirs.append((environment["HOME"] ?? "/root") + "/.local/state/flapd")
        dirs.append("/var/lib/flapd")
        return dirs
    }
}

/// Requests to a running flapd, with failures said in words a person can act on.
struct FlapdConnection {
    var base: String
    var key: String?
    var keySource: String

    /// The port flapctl reaches flapd on (the plain HTTP port).
    var port: Int? { base.split(separator: ":").last.flatMap { Int($0.prefix { $0.isNumber }) } }

    struct Reply {
        var status: Int
        var body: Data
        var headers: [String: String]
        var error: String { decoded(ErrorAnswer.self)?.error ?? String(decoding: body, as: UTF8.self) }
    }

    /// Sends a request; with `retries`, a request that got no answer is sent again that many
    /// times (half a second, then a second apart): only for requests safe to repeat, such as a
    /// message carrying an idempotency key.
    func request(
        _ request: EndpointRequest, json: Data? = nil, headers extra: [(String, String)] = [], retries: Int = 0, timeout: Duration = .seconds(10)
    ) async throws -> Reply {
        var headers: [(String, String)] = []
        if let key { headers.append(("Authorization", "Bearer \(key)")) }
        if json != nil { headers.append(("Content-Type", "application/json")) }
        headers += extra
        var answer: HTTPExchange.Answer?
        for attempt in 0...retries where answer == nil {
            if attempt > 0 { try await Task.sleep(for: .milliseconds(500 * attempt)) }
            answer = try? await HTTPExchange.send(request.method.rawValue, base + request.target, headers: headers, body: json, timeout: timeout)
        }
        guard let answer else {
            throw ConnectionError(
                "flapd is not answering at \(base) (is it running? start it with `flapd --simulate` or `systemctl start flapd`, or give --url)")
        }
        let reply = Reply(status: answer.status, body: answer.body, headers: answer.headers)
        if reply.status == 401 {
            throw ConnectionError("flapd refused the API key from \(keySource): \(reply.error). Give the right one with --api-key or FLAPD_API_KEY")
        }
        return reply
    }
}

extension FlapdConnection {
    /// ``request(_:json:headers:retries:)`` to `endpoint` with `values` for its parameters.
    func request(
        _ endpoint: Endpoint, _ values: String..., query: [(String, String)] = [], json: Data? = nil, headers: [(String, String)] = [],
        retries: Int = 0
    ) async throws -> Reply {
        try await request(endpoint.request(values, query: query), json: json, headers: headers, retries: retries)
    }

    /// A request whose answer must have one of `expected` statuses; any other is an error naming it.
    func expect(
        _ endpoint: Endpoint, _ values: String..., query: [(String, String)] = [], json: Data? = nil, expecting expected: Set<Int> = [200],
        timeout: Duration = .seconds(10)
    ) async throws -> Reply {
        let reply = try await request(endpoint.request(values, query: query), json: json, timeout: timeout)
        guard expected.contains(reply.status) else { throw ConnectionError("flapd answered \(reply.status): \(reply.error)") }
        return reply
    }
}

/// flapd could not be reached or refused flapctl. Exit status 1.
struct ConnectionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
