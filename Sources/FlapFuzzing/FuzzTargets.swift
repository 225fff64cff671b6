import FlapCore
import FlapHardware
import FlapHardwareSearch
import FlapHeartRate
import FlapJSON
import FlapMessaging
import FlapPrimitives
import FlapSettings
import FlapSimulated
import FlapSources
import FlapTOML
import FlapVBML
import FoundationEssentials
import NIOCore
import NIOEmbedded

@testable import FlapMQTTClient

/// Every reader of bytes that come from outside flapd, as a fuzz target: fetched calendars,
/// feeds and JSON documents, VBML and its Mustache from members and the broker, the
/// configuration file, MQTT packets, message bodies over HTTP and the Local API, and what
/// serial devices and radios send. Each takes any bytes and reads them as flapd does; an error
/// thrown is the reader doing its job, while a crash, a hang or memory past the sanitizer's
/// limit is a finding. `scripts/fuzz` runs them under libFuzzer (`flapfuzz`); the tests replay
/// every input kept in `Fuzz/` (its seeds and each finding, made a regression) through them.
public enum FuzzTargets {
    /// Every target, by the reader it fuzzes. The name is its folder in `Fuzz/` and what
    /// `FLAPFUZZ_TARGET` says; `scripts/fuzz` takes the list from `flapfuzz` itself.
    public static let all: [FuzzTarget] = [
        FuzzTarget("calendar", reads: FlapSources.Calendar.self, calendar),
        FuzzTarget("feed", reads: Feed.self, feed),
        FuzzTarget("json-pointer", reads: JSONPointer.self, jsonPointer),
        FuzzTarget("vbml", reads: VBMLDocument.self, vbml),
        FuzzTarget("mustache", reads: Mustache.self, mustache),
        FuzzTarget("toml", reads: TOMLParser.self, toml),
        FuzzTarget("settings-change", reads: SettingsLayers.self, settingsChange),
        FuzzTarget("mqtt", reads: MQTTFrameDecoder.self, mqtt),
        FuzzTarget("message", reads: MessageParser.self, message),
        FuzzTarget("local-api", reads: LocalAPIBody.self, localAPI),
        FuzzTarget("chainlink", reads: ChainlinkFrameSplitter.self, chainlink),
        FuzzTarget("rs485", reads: RS485AnswerReader.self, rs485),
        FuzzTarget("sbb", reads: SBBAnswer.self, sbb),
        FuzzTarget("hardware-search", reads: HardwareSearch<ContinuousClock>.self, hardwareSearch),
        FuzzTarget("ant", reads: ANTFrameReader.self, ant),
        FuzzTarget("heart-rate", reads: HeartRateMeasurement.self, heartRate),
        FuzzTarget("heart-rate-trace", reads: TraceHeartRateSensor<ContinuousClock>.self, trace)
    ]

    /// The target called `name`.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// An instant in the window each reader is asked about (2026-11-26 06:00 UTC).
    static let now = Date(timeIntervalSince1970: 1_795_672_800)

    /// A calendar read, and its occurrences over the next 400 days worked out.
    static func calendar(_ bytes: [UInt8]) {
        guard let calendar = try? FlapSources.Calendar(bytes: bytes) else { return }
        _ = calendar.occurrences(from: now, to: now.addingTimeInterval(400 * 86_400), zone: .utc)
    }

    static func feed(_ bytes: [UInt8]) { _ = try? Feed(bytes: bytes) }

    /// A pointer (the first line) into a JSON document (the rest).
    static func jsonPointer(_ bytes: [UInt8]) {
        let (head, rest) = split(bytes, at: 0x0A)
        guard let pointer = try? JSONPointer(String(decoding: head, as: UTF8.self)), let document = try? JSONValue(parsing: rest) else { return }
        _ = pointer.resolve(in: document)
    }

    /// A VBML document drawn on a 6×22 board.
    static func vbml(_ bytes: [UInt8]) {
        guard let json = try? JSONValue(parsing: bytes), let document = try? VBMLDocument(json: json) else { return }
        _ = try? VBMLRenderer.render(document, rows: 6, columns: 22)
    }

    /// A template (before a NUL byte) filled with props (JSON after it; lists of 50 without).
    static func mustache(_ bytes: [UInt8]) {
        let (head, rest) = split(bytes, at: 0x00)
        let props = (try? JSONValue(parsing: rest)) ?? ["l": .array((0..<50).map { .number(Double($0)) }), "s": "text", "o": ["a": ["b": 1]]]
        _ = try? Mustache.render(String(decoding: head, as: UTF8.self), props: props)
    }

    static func toml(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? TOMLParser.parse(text)
        _ = TOMLLineIndex(text)
    }

    /// flapd.toml, settings.toml and changes from the page (`KEY=JSON` lines), parted by lines
    /// of `---`: each change made, the two layers merged, and the page's layer written as TOML,
    /// which must read back.
    static func settingsChange(_ bytes: [UInt8]) {
        let parts = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n---\n")
        guard parts.count == 3, let file = try? TOMLParser.parse(parts[0]), let page = try? TOMLParser.parse(parts[1]) else { return }
        var layers = SettingsLayers(
            file: file, page: page, identities: ["panel": .init(key: "id", implicit: { _ in "main" }), "source": .init(key: "name")])
        for line in parts[2].split(separator: "\n").prefix(64) {
            let halves = line.split(separator: "=", maxSplits: 1).map(String.init)
            guard halves.count == 2, let path = try? SettingPath(parsing: halves[0]), let json = try? JSONValue(parsing: Array(halves[1].utf8))
            else { continue }
            try? layers.set(json == .null ? nil : try? TOMLValue(json: json), at: path)
        }
        _ = layers.merged()
        let written = TOMLWriter.document(layers.page)
        precondition((try? TOMLParser.parse(written)) != nil, "the page's settings were written as TOML that does not read back:\n\(written)")
    }

    /// Bytes from a broker, cut into packets and decoded (MQTT 5 when the first byte is even).
    static func mqtt(_ bytes: [UInt8]) {
        let level: MQTTProtocolLevel = (bytes.first ?? 0) % 2 == 0 ? .v5 : .v311
        let channel = EmbeddedChannel(handler: ByteToMessageHandler(MQTTFrameDecoder(maximumPacketSize: 256 * 1024, level: level)))
        _ = try? channel.writeInbound(ByteBuffer(bytes: bytes.dropFirst()))
        while (try? channel.readInbound(as: MQTTPacket.self)) != nil {}
        _ = try? channel.finish()
    }

    /// A `/v1/messages` body (or an MQTT message's), for a 6×22 board.
    static func message(_ bytes: [UInt8]) {
        _ = try? MessageParser(boardSize: BoardSize(rows: 6, columns: 22), source: .fuzz).parse(bytes, now: now)
    }

    /// A Vestaboard Local API body: rows, or `{"characters": rows, "strategy": …}`.
    static func localAPI(_ bytes: [UInt8]) {
        guard let json = try? JSONValue(parsing: bytes), let fields = LocalAPIBody.fields(json) else { return }
        _ = try? MessageParser(boardSize: BoardSize(rows: 6, columns: 22), source: .localAPI).parse(fields, now: now)
    }

    /// Bytes from a Chainlink controller's serial port: cut into frames, each unstuffed and read.
    static func chainlink(_ bytes: [UInt8]) {
        var splitter = ChainlinkFrameSplitter()
        for frame in splitter.frames(after: bytes) {
            _ = try? ChainlinkFrame.decode(frame)
            _ = try? COBS.decode(frame)
        }
    }

    /// Bytes from an RS-485 bus of split-flap modules: every line read as an answer.
    static func rs485(_ bytes: [UInt8]) {
        var reader = RS485AnswerReader()
        // A module's own flaps (`A`) become the reel it is planned by.
        for case .success(.about(_, _, _, let flaps?)) in reader.read(bytes) { _ = try? RS485Reel(flaps) }
    }

    /// Bytes from a bus of SBB/annax modules: the first byte picks the question, the rest is
    /// read as its answer.
    static func sbb(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        let questions: [SBBCommand] = [.position, .serial, .version, .type, .show(Int(first)), .zero]
        _ = try? SBBAnswer.read(bytes.dropFirst(), answering: questions[Int(first) % questions.count])
    }

    /// What a serial device answers a search's greetings, as both probes read it: the first byte
    /// is the size of the reads it comes in (a device trickles or floods).
    static func hardwareSearch(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        var greeting = ChainlinkGreeting()
        var survey = RS485Survey(ids: 1...254)
        let rest = bytes.dropFirst()
        for start in stride(from: rest.startIndex, to: rest.endIndex, by: Int(first) + 1) {
            let chunk = rest[start..<min(start + Int(first) + 1, rest.endIndex)]
            greeting.take(chunk)
            survey.take(chunk)
        }
    }

    /// Bytes from an ANT stick: cut into messages, each heart-rate page read.
    static func ant(_ bytes: [UInt8]) {
        var reader = ANTFrameReader()
        for result in reader.append(bytes) {
            guard case .success(let message) = result else { continue }
            _ = try? ANTHeartRatePage(decoding: message.payload)
            _ = try? ANTHeartRatePage(decoding: message.payload, numbered: false)
        }
    }

    /// A Bluetooth heart-rate measurement (0x2A37), and the bytes as a serial sensor's lines.
    static func heartRate(_ bytes: [UInt8]) {
        _ = try? HeartRateMeasurement(decoding: bytes)
        let format = HeartRateLineFormat.automatic
        for line in LineBreaks.lines(of: bytes[...]) { _ = try? format.read(String(decoding: line, as: UTF8.self)) }
    }

    /// A heart-rate trace file (seconds,bpm[,rr…] lines).
    static func trace(_ bytes: [UInt8]) {
        _ = try? TraceHeartRateSensor(named: "fuzz", text: String(decoding: bytes, as: UTF8.self), clock: ContinuousClock())
    }

    private static func split(_ bytes: [UInt8], at separator: UInt8) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        guard let index = bytes.firstIndex(of: separator) else { return (bytes[...], []) }
        return (bytes[..<index], bytes[(index + 1)...])
    }
}
