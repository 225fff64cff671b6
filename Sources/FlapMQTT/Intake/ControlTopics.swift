import FlapCore
import FoundationEssentials
import Logging
import Synchronization

/// Home Assistant's button, switches, number and select: each command done through the board's
/// controls. A change reaches `ha/controls` as the controls tell their subscribers
/// (``RetainedControls``); a command refused publishes the state as it stands, so Home
/// Assistant's entity goes back to what flapd has.
final class ControlTopics: Sendable {
    let publisher: TopicPublisher
    let homeAssistant: Bool
    let logger: Logger
    /// What the controls change, once the service has composed it.
    private let controls = Mutex<(any BoardControls)?>(nil)

    init(publisher: TopicPublisher, homeAssistant: Bool, logger: Logger) {
        self.publisher = publisher
        self.homeAssistant = homeAssistant
        self.logger = logger
    }

    func attach(_ controls: any BoardControls) {
        self.controls.withLock { $0 = controls }
    }

    func handle(_ control: HomeAssistantControl, _ payload: [UInt8]) async {
        guard let controls = controls.withLock({ $0 }) else { return }
        let value = String(decoding: payload, as: UTF8.self).trimmed
        do {
            switch control {
            case .clear: try await controls.clearBoard()
            case .pause: try await controls.setPaused(value.uppercased() == "ON")
            case .mute: try await controls.setMuted(value.uppercased() == "ON")
            case .volume:
                if let volume = Double(value), (0...100).contains(volume) {
                    try await controls.setVolume(Int(volume.rounded()))
                } else {
                    logger.warning("Home Assistant's volume is not 0 to 100", metadata: ["value": "\(value)"])
                }
            case .transition:
                if let strategy = TransitionStrategy(rawValue: value) {
                    try await controls.setTransition(strategy)
                } else {
                    logger.warning("Home Assistant's transition is not one flapd knows", metadata: ["value": "\(value)"])
                }
            }
        } catch {
            logger.warning("Home Assistant's control was not done", metadata: ["topic": "\(control.rawValue)", "error": "\(error)"])
            await publishState()
        }
    }

    /// The controls' state as it stands, retained for Home Assistant's switches, number and select.
    private func publishState() async {
        guard homeAssistant, let controls = controls.withLock({ $0 }) else { return }
        guard let data = try? JSONEncoder.sorted.encode(await controls.controlState()) else { return }
        publisher.publish(.homeAssistantControls, Array(data), retain: true)
    }
}
