import FlapCore
import FlapPictures
import FoundationEssentials
import Synchronization

/// The retained topics of what the display shows (`state`, `board.png`, each panel's with
/// several), kept as last published so every new connection publishes them again: a
/// broker that lost its retained messages, or a new device id, still gets what the board shows.
final class RetainedBoards: RetainedOutput {
    let publisher: TopicPublisher
    /// The panels' ids, the first the one `state` shows; with several, each is also on `state/<panel>`.
    let panels: [String]
    /// Whether Home Assistant's pictures and room are published.
    let homeAssistant: Bool
    private let last = Mutex<[OutgoingTopic: [UInt8]]>([:])

    init(publisher: TopicPublisher, panels: [String], homeAssistant: Bool) {
        self.publisher = publisher
        self.panels = panels
        self.homeAssistant = homeAssistant
    }

    /// The panel's board as JSON on `state` and as the picture of `/v1/board.png` on `board.png`.
    func publishState(panel: String, board: Board, messageId: String?) {
        let body = StateBody(panel: panel, codes: board.codeRows, text: board.lines, message: messageId)
        guard let data = try? JSONEncoder.sorted.encode(body) else { return }
        let picture = homeAssistant ? try? BoardPNG.encode(board) : nil
        if panels.count > 1 {
            retain(.panelState(panel), Array(data))
            if let picture { retain(.panelPicture(panel), picture) }
        }
        guard panel == panels.first || panels.isEmpty else { return }
        retain(.state, Array(data))
        if let picture { retain(.picture, picture) }
    }

    /// Everything retained, published again (on connecting).
    func republish() {
        for (topic, payload) in last.withLock({ $0 }) { publisher.publish(topic, payload, retain: true) }
    }

    private func retain(_ topic: OutgoingTopic, _ payload: [UInt8]) {
        last.withLock { $0[topic] = payload }
        publisher.publish(topic, payload, retain: true)
    }
}
