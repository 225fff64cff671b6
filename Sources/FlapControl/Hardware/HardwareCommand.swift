import ArgumentParser
import FlapEndpoints
import FoundationEssentials

/// `flapctl hardware`: "Find my board" from a shell, as the page does it: this machine's serial
/// ports and devices, and with `--search` what answers on each free port.
struct HardwareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hardware", abstract: "List this machine's serial ports and devices; --search asks each free port what it is.",
        discussion: HelpExamples.discussion(
            "hardware",
            "Nothing is written to a port without --search, and a port another program holds, or this board already uses, is left alone."))
    @OptionGroup var connection: ConnectionOptions
    @Flag(help: "Ask each free serial port with each driver's greeting (takes seconds).") var search = false
    @Option(help: "The first RS-485 ID asked.") var firstID: Int?
    @Option(help: "The last RS-485 ID asked (at most 64 IDs a search).") var lastID: Int?
    @Option(help: "Ask this name or address whether a Vestaboard answers there (vestaboard.local is the usual name).")
    var vestaboard: String?
    @Option(help: "With --vestaboard: the Local API enablement token Vestaboard e-mailed you; flapd turns the Local API on and keeps the key.")
    var enablementToken: String?
    @Flag(help: "Listen for Bluetooth heart-rate straps (ten seconds).") var straps = false
    @OptionGroup var answer: JSONAnswerOption

    struct StrapsFound: Decodable {
        struct Strap: Decodable {
            var strap: String
            var state: String
            var bpm: Int?
        }
        var source: String
        var state: String
        var straps: [Strap]
    }

    struct VestaboardFound: Decodable {
        var address: String
        var said: String
    }

    struct Found: Decodable {
        struct Port: Decodable {
            var path: String
            var device: String
            var heldBy: String?
            var answered: Answered?
        }
        struct Answered: Decodable {
            var driver: String?
            var modules: Modules?
            var drum: String?
        }
        /// A controller's count, or the RS-485 modules that answered.
        enum Modules: Decodable {
            case count(Int)
            case list([Module])
            init(from decoder: any Decoder) throws {
                let single = try decoder.singleValueContainer()
                if let count = try? single.decode(Int.self) { self = .count(count) } else { self = .list(try single.decode([Module].self)) }
            }
        }
        struct Module: Decodable {
            var id: Int
            var stepsPerRevolution: Int
        }
        struct Local: Decodable {
            var framebuffers: [String]
            var spi: [String]
            var gpioChips: [String]
        }
        var serialPorts: [Port]
        var local: Local
    }

    struct Listing: Decodable {
        var listed: Found
        var searching: String?
    }

    func run() async throws {
        let flapd = try connection.connection()
        if straps {
            StandardStream.writeError("listening for straps for ten seconds…\n")
            let reply = try await flapd.expect(.findStraps, json: Data("{}".utf8), timeout: .seconds(60))
            if answer.printed(reply) { return }
            guard let found = reply.decoded(StrapsFound.self) else { throw ConnectionError("flapd's answer was not about straps") }
            let lines = found.straps.map { "\($0.strap): \($0.state)\($0.bpm.map { ", \($0) BPM" } ?? "")" }
            StandardStream.writeOutput((lines.isEmpty ? ["no strap heard (\(found.source): \(found.state))"] : lines).joined(separator: "\n") + "\n")
            return
        }
        if let vestaboard {
            var body = ["address": vestaboard]
            if let enablementToken { body["enablementToken"] = enablementToken }
            let reply = try await flapd.expect(.findVestaboard, json: try JSONEncoder().encode(body), timeout: .seconds(30))
            if answer.printed(reply) { return }
            guard let found = reply.decoded(VestaboardFound.self) else { throw ConnectionError("flapd's answer was not about a Vestaboard") }
            StandardStream.writeOutput("\(found.address): \(found.said)\n")
            return
        }
        let found: Found?
        if search {
            var body: [String: Int] = [:]
            if let firstID { body["firstID"] = firstID }
            if let lastID { body["lastID"] = lastID }
            StandardStream.writeError("asking each free serial port; this takes some seconds…\n")
            let reply = try await flapd.expect(.searchHardware, json: try JSONEncoder().encode(body), timeout: .seconds(120))
            if answer.printed(reply) { return }
            found = reply.decoded(Found.self)
        } else {
            let reply = try await flapd.expect(.hardware)
            if answer.printed(reply) { return }
            let listing = reply.decoded(Listing.self)
            if let doing = listing?.searching { StandardStream.writeOutput("a search is under way: \(doing)\n") }
            found = listing?.listed
        }
        guard let found else { throw ConnectionError("flapd's answer was not a list of hardware") }
        StandardStream.writeOutput(Self.lines(found, searched: search).joined(separator: "\n") + "\n")
    }

    static func lines(_ found: Found, searched: Bool) -> [String] {
        var lines = found.serialPorts.isEmpty ? ["no serial ports"] : []
        for port in found.serialPorts {
            let name = port.path == port.device ? port.path : "\(port.path) (\(port.device))"
            lines.append("\(name): " + said(port, searched: searched))
        }
        func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }
        lines.append("screens: \(list(found.local.framebuffers)); SPI: \(list(found.local.spi)); GPIO chips: \(list(found.local.gpioChips))")
        return lines
    }

    private static func said(_ port: Found.Port, searched: Bool) -> String {
        if let holder = port.heldBy { return "held by \(holder), left alone" }
        guard let answered = port.answered else { return searched ? "not asked" : "not asked yet (flapctl hardware --search)" }
        switch (answered.driver, answered.modules) {
        case ("rs485", .list(let modules)?):
            let steps = Set(modules.map(\.stepsPerRevolution)).sorted().map(String.init).joined(separator: "/")
            return "RS-485 modules \(modules.map { String($0.id) }.joined(separator: ", ")) (\(steps) steps a turn): driver = \"rs485\""
        case ("chainlink", let modules):
            let count = if case .count(let count)? = modules { "\(count) modules" } else { "modules not counted yet" }
            return "a Chainlink controller, \(count)\(answered.drum.map { ", drum \"\($0)\"" } ?? ""): driver = \"chainlink\""
        default:
            return "nothing any driver knows answered"
        }
    }
}
