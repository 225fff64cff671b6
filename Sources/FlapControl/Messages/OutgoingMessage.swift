import ArgumentParser
import FlapCore
import FlapMCP
import FoundationEssentials

/// A message as flapctl sends it, to `POST /v1/messages` or an MQTT topic; what is not given is
/// left out.
struct OutgoingMessage: Encodable {
    struct Sender: Encodable {
        var id: String
        var name: String?
    }
    struct Transition: Encodable {
        var strategy: String
    }
    var id: String?
    var text: String
    var sender: Sender?
    var align: String?
    var valign: String?
    var transition: Transition?
    var notBefore: String?
    var createdAt: String?
    var expiresAt: String?
    var duration: Int?
}
