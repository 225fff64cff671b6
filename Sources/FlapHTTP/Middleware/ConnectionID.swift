import NIOCore

/// A connection's identity while it is open: what ``ConnectionGate`` counts it by and a request's
/// context names it by, both from the channel itself, so nothing a client sends can claim another's.
struct ConnectionID: Hashable, Sendable {
    let value: UInt64

    init(_ channel: any Channel) { value = UInt64(UInt(bitPattern: ObjectIdentifier(channel))) }
}
