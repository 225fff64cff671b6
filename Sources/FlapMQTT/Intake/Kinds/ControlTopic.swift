import FlapMQTTClient
import FlapMessaging

/// Home Assistant's button, switches, number and select (`<device>/ha/clear`, `ha/pause/set`, …),
/// done through the board's controls.
struct ControlTopic: IncomingTopicKind {
    let name = "control"
    let source = MessageSource.mqtt

    func filters(_ topics: DeviceTopics) -> [String] { HomeAssistantControl.allCases.map(topics.name) }

    func take(_ message: MQTTMessage, with intake: TopicIntake) async throws -> IntakeTicket? {
        if let control = HomeAssistantControl(rawValue: String(message.topic.dropFirst(intake.topics.prefix.count))) {
            await intake.controls.handle(control, message.payload)
        }
        return nil
    }
}
