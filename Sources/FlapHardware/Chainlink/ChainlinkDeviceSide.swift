/// The controller's side of the wire: decoding what the host sends and encoding what the
/// controller answers. The simulated controller speaks through these, so host and device code
/// meet only in bytes.
extension ToSplitflap {
    /// Decodes a host message (protobuf, no CRC); a message the firmware would reject throws.
    public init(decoding bytes: [UInt8]) throws(ChainlinkError) {
        var reader = ProtobufReader(bytes)
        var nonce: UInt32 = 0
        var payload: Payload?
        while let (field, value) = try reader.next() {
            switch (field, value) {
            case (1, .varint(let n)): nonce = UInt32(truncatingIfNeeded: n)
            case (3, .bytes(let body)):
                var modules: [ModuleConfig] = []
                var config = ProtobufReader(body)
                while let (f, v) = try config.next() {
                    guard f == 1, case .bytes(let moduleBytes) = v else { continue }
                    var module = ModuleConfig(targetFlapIndex: 0)
                    var m = ProtobufReader(moduleBytes)
                    while let (mf, mv) = try m.next() {
                        guard case .varint(let n) = mv else { continue }
                        switch mf {
                        case 1: module.targetFlapIndex = UInt8(truncatingIfNeeded: n)
                        case 2: module.movementNonce = UInt8(truncatingIfNeeded: n)
                        case 3: module.resetNonce = UInt8(truncatingIfNeeded: n)
                        default: break
                        }
                    }
                    modules.append(module)
                }
                payload = .config(modules)
            case (4, .bytes): payload = .requestState
            default: break
            }
        }
        guard let payload else { throw ChainlinkError("a message with no payload the controller knows") }
        self.init(nonce: nonce, payload: payload)
    }
}

extension FromSplitflap {
    /// The protobuf encoding (no CRC): splitflap_state = 1, log = 2, ack = 3, general_state = 5.
    public func encoded() -> [UInt8] {
        var w = ProtobufWriter()
        switch self {
        case .state(let state):
            var s = ProtobufWriter()
            for module in state.modules {
                var m = ProtobufWriter()
                m.uint(1, UInt64(module.state.rawValue))
                m.uint(2, UInt64(module.flapIndex))
                m.bool(3, module.moving)
                m.bool(4, module.homeState)
                m.uint(5, UInt64(module.countUnexpectedHome))
                m.uint(6, UInt64(module.countMissedHome))
                s.bytes(1, m.bytes, always: true)
            }
            s.bool(2, state.loopbacksOK)
            w.bytes(1, s.bytes, always: true)
        case .log(let text):
            var l = ProtobufWriter()
            l.bytes(1, Array(text.utf8))
            w.bytes(2, l.bytes, always: true)
        case .ack(let nonce):
            var a = ProtobufWriter()
            a.uint(1, UInt64(nonce))
            w.bytes(3, a.bytes, always: true)
        case .general(let general):
            var g = ProtobufWriter()
            g.uint(1, UInt64(general.serialProtocolVersion))
            g.uint(2, UInt64(general.uptimeMillis))
            g.bytes(4, general.flapCharacterSet)
            w.bytes(5, g.bytes, always: true)
        case .other(let field):
            w.bytes(field, [], always: true)
        }
        return w.bytes
    }
}

extension ChainlinkFrame {
    /// A controller's frame for `message`, ending with the 0x00 delimiter.
    public static func encode(_ message: FromSplitflap) -> [UInt8] { wrap(message.encoded()) }

    /// The host's message in one frame; a bad CRC throws, as the firmware rejects it.
    public static func decodeHostMessage(_ frame: [UInt8]) throws(ChainlinkError) -> ToSplitflap {
        try ToSplitflap(decoding: unwrap(frame))
    }
}
