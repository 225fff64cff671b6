import FlapHardware

/// The ANT messages a receiver of ANT+ heart-rate straps sends and receives.
public enum ANT {
    /// Message ids.
    public enum ID {
        /// A channel's event or a command's response.
        public static let channelEvent: UInt8 = 0x40
        /// Assign a channel.
        public static let assignChannel: UInt8 = 0x42
        /// Set a channel's message period.
        public static let channelPeriod: UInt8 = 0x43
        /// Set a channel's search timeout.
        public static let searchTimeout: UInt8 = 0x44
        /// Set a channel's radio frequency.
        public static let radioFrequency: UInt8 = 0x45
        /// Set a network's key.
        public static let setNetworkKey: UInt8 = 0x46
        /// Reset the stick.
        public static let resetSystem: UInt8 = 0x4A
        /// Open a channel.
        public static let openChannel: UInt8 = 0x4B
        /// Close a channel.
        public static let closeChannel: UInt8 = 0x4C
        /// Ask the stick for a message.
        public static let requestMessage: UInt8 = 0x4D
        /// A broadcast data page.
        public static let broadcastData: UInt8 = 0x4E
        /// Set (or report) a channel's device.
        public static let channelID: UInt8 = 0x51
        /// The stick's capabilities.
        public static let capabilities: UInt8 = 0x54
        /// Open continuous scan mode.
        public static let openRxScanMode: UInt8 = 0x5B
        /// Set what extended data broadcasts carry.
        public static let libConfig: UInt8 = 0x6E
        /// The stick has started (after a reset).
        public static let startup: UInt8 = 0x6F
    }

    /// Codes of a channel event (message 0x40 with message id 1).
    public enum Event {
        /// A search found nothing in its time.
        public static let searchTimeout: UInt8 = 0x01
        /// A message was missed.
        public static let rxFail: UInt8 = 0x02
        /// The channel is closed.
        public static let channelClosed: UInt8 = 0x07
        /// Messages were missed for long enough that the channel searches again.
        public static let rxFailGoToSearch: UInt8 = 0x08
    }

    /// The ANT+ heart-rate profile's channel: device type 120, RF channel 57 (2457 MHz), period
    /// 8070/32768 s (about 4.06 messages a second).
    public enum HeartRateChannel {
        /// Heart-rate monitors' device type.
        public static let deviceType: UInt8 = 120
        /// RF channel 57 (2457 MHz).
        public static let radioFrequency: UInt8 = 57
        /// 8070/32768 s between messages.
        public static let period: UInt16 = 8070
    }

    /// The ANT+ managed network's key. Published with the ANT+ profiles for their adopters and
    /// in every open ANT+ receiver; without it a stick hears no ANT+ device.
    public static let antPlusNetworkKey: [UInt8] = [0xB9, 0xA5, 0x21, 0xFB, 0xBD, 0x72, 0xC3, 0x45]

    /// Resets the stick.
    public static func resetSystem() -> ANTMessage { ANTMessage(ID.resetSystem, [0x00]) }
    /// Asks for message `id` of `channel`.
    public static func requestMessage(_ id: UInt8, channel: UInt8 = 0) -> ANTMessage { ANTMessage(ID.requestMessage, [channel, id]) }
    /// Gives `network` the key `key`.
    public static func setNetworkKey(_ key: [UInt8], network: UInt8 = 0) -> ANTMessage { ANTMessage(ID.setNetworkKey, [network] + key) }
    /// A receive (slave) channel on `network`.
    public static func assignReceiveChannel(_ channel: UInt8, network: UInt8 = 0) -> ANTMessage {
        ANTMessage(ID.assignChannel, [channel, 0x00, network])
    }
    /// The device a channel looks for; 0 is a wildcard for the number and the transmission type.
    public static func channelID(_ channel: UInt8, deviceNumber: UInt16, deviceType: UInt8, transmissionType: UInt8 = 0) -> ANTMessage {
        ANTMessage(ID.channelID, [channel, UInt8(deviceNumber & 0xFF), UInt8(deviceNumber >> 8), deviceType, transmissionType])
    }
    /// Sets `channel`'s message period, in 1/32768 s.
    public static func channelPeriod(_ channel: UInt8, _ period: UInt16) -> ANTMessage {
        ANTMessage(ID.channelPeriod, [channel, UInt8(period & 0xFF), UInt8(period >> 8)])
    }
    /// Sets `channel`'s RF channel (2400 MHz + `frequency`).
    public static func radioFrequency(_ channel: UInt8, _ frequency: UInt8) -> ANTMessage { ANTMessage(ID.radioFrequency, [channel, frequency]) }
    /// In units of 2.5 s; 0xFF searches for ever.
    public static func searchTimeout(_ channel: UInt8, _ timeout: UInt8) -> ANTMessage { ANTMessage(ID.searchTimeout, [channel, timeout]) }
    /// Opens `channel`.
    public static func openChannel(_ channel: UInt8) -> ANTMessage { ANTMessage(ID.openChannel, [channel]) }
    /// Closes `channel`.
    public static func closeChannel(_ channel: UInt8) -> ANTMessage { ANTMessage(ID.closeChannel, [channel]) }
    /// Continuous scanning on channel 0: every master in range, each broadcast with its channel id.
    public static func openRxScanMode() -> ANTMessage { ANTMessage(ID.openRxScanMode, [0x00]) }
    /// Extended data on every broadcast: 0x80 the channel id, 0x40 the RSSI.
    public static func libConfig(_ flags: UInt8) -> ANTMessage { ANTMessage(ID.libConfig, [0x00, flags]) }
}

/// A broadcast data message (0x4E): the channel, the eight bytes of the data page and, when the
/// stick adds extended data, the sender's channel id and the signal strength.
public struct ANTBroadcast: Sendable, Equatable {
    /// The channel it came on.
    public var channel: UInt8
    /// The eight bytes of the data page.
    public var page: [UInt8]
    /// The sender's device number, when the stick adds it.
    public var deviceNumber: UInt16?
    /// The sender's device type, when the stick adds it.
    public var deviceType: UInt8?
    /// The sender's transmission type, when the stick adds it.
    public var transmissionType: UInt8?
    /// Signal strength in dBm, when the stick adds it.
    public var rssi: Int?

    /// A broadcast as given.
    public init(
        channel: UInt8, page: [UInt8], deviceNumber: UInt16? = nil, deviceType: UInt8? = nil, transmissionType: UInt8? = nil, rssi: Int? = nil
    ) {
        self.channel = channel
        self.page = page
        self.deviceNumber = deviceNumber
        self.deviceType = deviceType
        self.transmissionType = transmissionType
        self.rssi = rssi
    }

    /// The broadcast in `message`, or what is wrong with it.
    public init(decoding message: ANTMessage) throws(HeartRateDecodingError) {
        let what = "ANT broadcast (0x4E)"
        let p = message.payload
        guard message.id == ANT.ID.broadcastData else { throw HeartRateDecodingError(what, byte: 2, "message id 0x\(hex(message.id)) is not 0x4E") }
        guard p.count >= 9 else {
            throw HeartRateDecodingError(what, byte: 3 + p.count, "\(p.count) payload bytes (a channel and 8 data bytes were expected)")
        }
        channel = p[0]
        page = Array(p[1...8])
        guard p.count > 9 else { return }
        // Extended data: a flag byte, then the fields it announces, in this order.
        let flags = p[9]
        var offset = 10
        if flags & 0x80 != 0 {
            guard offset + 4 <= p.count else {
                throw HeartRateDecodingError(what, byte: 3 + p.count, "the extended channel id (flag 0x80) is cut short")
            }
            deviceNumber = UInt16(p[offset]) | UInt16(p[offset + 1]) << 8
            deviceType = p[offset + 2]
            transmissionType = p[offset + 3]
            offset += 4
        }
        if flags & 0x40 != 0 {
            guard offset + 3 <= p.count else { throw HeartRateDecodingError(what, byte: 3 + p.count, "the extended RSSI (flag 0x40) is cut short") }
            rssi = Int(Int8(bitPattern: p[offset + 1]))
        }
    }

    /// The message a stick sends (for the simulated stick and tests).
    public func encoded() -> ANTMessage {
        var payload = [channel] + page
        var flags: UInt8 = 0
        var extended: [UInt8] = []
        if let deviceNumber, let deviceType {
            flags |= 0x80
            extended += [UInt8(deviceNumber & 0xFF), UInt8(deviceNumber >> 8), deviceType, transmissionType ?? 1]
        }
        if let rssi {
            flags |= 0x40
            extended += [0x20, UInt8(bitPattern: Int8(clamping: rssi)), 0xB0]  // measurement type: dBm; threshold -80
        }
        if flags != 0 { payload += [flags] + extended }
        return ANTMessage(ANT.ID.broadcastData, payload)
    }
}
