import FlapMQTTClient
import FoundationEssentials

/// `flapctl send --mqtt`: one message to several displays (or a group) over MQTT, with each
/// display's receipt gathered and shown.
struct MQTTSend {
    var url: String
    var devices: [String]
    var group: String?
    var message: OutgoingMessage
    var slot: Bool
    var expiresIn: Int?
    var timeout: Double

    /// Publishes and waits for receipts; the exit status is 0 when every display took it.
    func run() async throws {
        guard !devices.isEmpty || group != nil else { throw InputError("--mqtt needs --to DEVICE[,DEVICE…] or --group NAME") }
        guard devices.count <= 10 else { throw InputError("--to takes at most 10 devices (\(devices.count) given); use a group for more") }
        var message = self.message
        let id = message.id ?? "flapctl-\(UUID().uuidString.lowercased())"
        message.id = id
        if slot, message.sender == nil { throw InputError("--slot needs --sender: a slot belongs to a sender") }
        let body = try JSONEncoder().encode(message)

        // Connected and listening for receipts before anything is published.
        let connection = try await CommandConnection.open(url: url, timeout: timeout)
        defer { connection.close() }
        let client = connection.client
        // flapd's topics are under vestawidget/ unless its [mqtt] base_topic says otherwise.
        let base = "vestawidget"
        try client.subscribe("\(base)/+/receipt", qos: 1)
        try await Task.sleep(for: .milliseconds(100))

        if let group {
            try client.publish("\(base)/group/\(group)/message", Array(body), qos: 1)
        } else {
            for device in devices {
                let sender = message.sender?.id ?? ""
                let topic = slot ? "\(base)/\(device)/slot/\(sender)" : "\(base)/\(device)/message"
                try client.publish(topic, Array(body), qos: 1, retain: slot, expiry: slot ? UInt32(expiresIn ?? 48 * 3600) : nil)
            }
        }

        var answers: [String: String] = [:]
        while group != nil || answers.count < devices.count {
            guard let event = await connection.events.next() else { break }
            guard case .message(let m) = event,
                let receipt = try? JSONDecoder().decode(ReceiptAnswer.self, from: Data(m.payload)),
                receipt.id == id, let device = receipt.device
            else { continue }
            let status = receipt.status ?? "?"
            // The first answer per display: accepted (or duplicate) means delivered.
            if answers[device] == nil || status == "rejected" {
                answers[device] = status + (receipt.reason.map { ": \($0)" } ?? "")
            }
        }
        let targets = group == nil ? devices : answers.keys.sorted()
        let delivered = targets.filter { answers[$0].map { !$0.hasPrefix("rejected") } ?? false }
        print("\(id)")
        for device in targets { print("  \(device): \(answers[device] ?? "no answer within \(Int(timeout)) s")") }
        print(group.map { "delivered to \(delivered.count) display(s) of group \($0)" } ?? "delivered \(delivered.count)/\(targets.count)")
        if delivered.count < targets.count || targets.isEmpty {
            throw ConnectionError(targets.isEmpty ? "no display of group \(group ?? "") answered" : "not every display took the message")
        }
    }
}

/// What flapctl reads of a receipt on `…/receipt`.
struct ReceiptAnswer: Decodable {
    var id: String?
    var device: String?
    var status: String?
    var reason: String?
}
