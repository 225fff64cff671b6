/// What the host sends a Chainlink controller (scottbez1/splitflap's `ToSplitflap`).
public struct ToSplitflap: Equatable, Sendable {
    /// Echoed in the controller's `Ack`; the host resends until it sees it.
    public var nonce: UInt32
    /// What it asks for.
    public var payload: Payload

    /// A config for every module, or a request for the state.
    public enum Payload: Equatable, Sendable {
        /// The whole board: a module left out means target 0.
        case config([ModuleConfig])
        case requestState
    }

    /// One module's part of a config.
    public struct ModuleConfig: Equatable, Sendable {
        /// Drum index to show.
        public var targetFlapIndex: UInt8
        /// Changed to force a full turn back to the same flap.
        public var movementNonce: UInt8
        /// Changed to clear faults and re-home.
        public var resetNonce: UInt8

        /// A module's target, its nonces unchanged unless given.
        public init(targetFlapIndex: UInt8, movementNonce: UInt8 = 0, resetNonce: UInt8 = 0) {
            self.targetFlapIndex = targetFlapIndex
            self.movementNonce = movementNonce
            self.resetNonce = resetNonce
        }
    }

    /// A message numbered `nonce`.
    public init(nonce: UInt32, payload: Payload) {
        self.nonce = nonce
        self.payload = payload
    }

    /// The protobuf encoding: nonce = 1; splitflap_config = 3 { repeated modules = 1 { target = 1,
    /// movement_nonce = 2, reset_nonce = 3 } }; request_state = 4 (empty).
    func encoded() -> [UInt8] {
        var w = ProtobufWriter()
        w.uint(1, UInt64(nonce))
        switch payload {
        case .config(let modules):
            var config = ProtobufWriter()
            for module in modules {
                var m = ProtobufWriter()
                m.uint(1, UInt64(module.targetFlapIndex))
                m.uint(2, UInt64(module.movementNonce))
                m.uint(3, UInt64(module.resetNonce))
                config.bytes(1, m.bytes, always: true)
            }
            w.bytes(3, config.bytes, always: true)
        case .requestState:
            w.bytes(4, [], always: true)
        }
        return w.bytes
    }
}

/// What a Chainlink controller reports (`FromSplitflap`).
public enum FromSplitflap: Equatable, Sendable {
    case state(SplitflapState)
    case log(String)
    case ack(nonce: UInt32)
    case general(GeneralState)
    /// A Chainlink Base's supervisor state, or a payload this version does not know.
    case other(field: Int)

    init(decoding bytes: [UInt8]) throws(ChainlinkError) {
        var reader = ProtobufReader(bytes)
        var result: FromSplitflap?
        while let (field, value) = try reader.next() {
            guard case .bytes(let body) = value else { continue }
            switch field {
            case 1: result = .state(try SplitflapState(decoding: body))
            case 2:
                var log = ProtobufReader(body)
                var text = ""
                while let (f, v) = try log.next() { if f == 1, case .bytes(let b) = v { text = String(decoding: b, as: UTF8.self) } }
                result = .log(text)
            case 3:
                var ack = ProtobufReader(body)
                var nonce: UInt32 = 0
                while let (f, v) = try ack.next() { if f == 1, case .varint(let n) = v { nonce = UInt32(truncatingIfNeeded: n) } }
                result = .ack(nonce: nonce)
            case 5: result = .general(try GeneralState(decoding: body))
            default: result = .other(field: field)
            }
        }
        guard let result else { throw ChainlinkError("a message with no payload") }
        self = result
    }
}

/// Every module's state, in chain order.
public struct SplitflapState: Equatable, Sendable {
    /// One per module, in chain order.
    public var modules: [Module]
    /// The shift-register chain's loopback bits read back as written.
    public var loopbacksOK: Bool

    /// One module as the firmware reports it.
    public struct Module: Equatable, Sendable {
        /// The firmware's module states, by their numbers.
        public enum State: Int, Sendable { case normal = 0, lookForHome, sensorError, panic, disabled }
        /// Whether it is working, homing or in a fault.
        public var state: State = .normal
        /// The drum index it shows (or is passing).
        public var flapIndex: Int = 0
        /// Whether it is turning.
        public var moving = false
        /// Its home sensor, as last read.
        public var homeState = false
        /// Home edges seen where none should be, since start.
        public var countUnexpectedHome = 0
        /// Home edges not seen where they should be, since start.
        public var countMissedHome = 0

        /// A module at rest on flap 0, in normal state.
        public init() {}
    }

    /// A state of `modules`, the chain's loopbacks as given.
    public init(modules: [Module], loopbacksOK: Bool) {
        self.modules = modules
        self.loopbacksOK = loopbacksOK
    }

    init(decoding bytes: [UInt8]) throws(ChainlinkError) {
        var reader = ProtobufReader(bytes)
        modules = []
        loopbacksOK = false
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (1, .bytes(let body)):
                var module = Module()
                var m = ProtobufReader(body)
                while let (f, v) = try m.next() {
                    guard case .varint(let n) = v else { continue }
                    switch f {
                    case 1: module.state = Module.State(rawValue: Int(n)) ?? .panic
                    case 2: module.flapIndex = Int(n)
                    case 3: module.moving = n != 0
                    case 4: module.homeState = n != 0
                    case 5: module.countUnexpectedHome = Int(n)
                    case 6: module.countMissedHome = Int(n)
                    default: break
                    }
                }
                modules.append(module)
            case (2, .varint(let n)): loopbacksOK = n != 0
            default: break
            }
        }
    }
}

/// The controller's general report: protocol version, uptime, its drum.
public struct GeneralState: Equatable, Sendable {
    /// The firmware's serial protocol version.
    public var serialProtocolVersion = 0
    /// Milliseconds since the controller started (a drop means it rebooted).
    public var uptimeMillis = 0
    /// The drum's flaps as the firmware names them (a drum string).
    public var flapCharacterSet: [UInt8] = []

    /// A report of these values.
    public init(serialProtocolVersion: Int = 0, uptimeMillis: Int = 0, flapCharacterSet: [UInt8] = []) {
        self.serialProtocolVersion = serialProtocolVersion
        self.uptimeMillis = uptimeMillis
        self.flapCharacterSet = flapCharacterSet
    }

    init(decoding bytes: [UInt8]) throws(ChainlinkError) {
        var reader = ProtobufReader(bytes)
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (1, .varint(let n)): serialProtocolVersion = Int(n)
            case (2, .varint(let n)): uptimeMillis = Int(n)
            case (4, .bytes(let b)): flapCharacterSet = b
            default: break
            }
        }
    }
}
