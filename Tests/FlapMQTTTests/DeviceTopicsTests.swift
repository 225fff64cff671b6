import FlapMessaging
import Testing
@testable import FlapMQTT

/// A topic's name is written once and parsed once: every name flapd subscribes to comes back as
/// what it is, and every topic it publishes is under its device.
@Suite struct DeviceTopicsTests {
    let topics = DeviceTopics(base: "vestawidget", device: "hall", groups: ["family"])

    @Test func everySubscriptionParsesAsItsTopic() {
        #expect(topics.parse("vestawidget/hall/message") == .message)
        #expect(topics.parse("vestawidget/hall/command") == .command)
        #expect(topics.parse("vestawidget/hall/slot/mum") == .slot(sender: "mum"))
        #expect(topics.parse("vestawidget/hall/ha/set") == .homeAssistantText)
        for control in HomeAssistantControl.allCases { #expect(topics.parse(topics.name(control)) == .control(control)) }
        #expect(topics.parse("vestawidget/group/family/message") == .group("family"))
        #expect(
            topics.subscriptions == [
                "vestawidget/hall/message", "vestawidget/hall/command", "vestawidget/hall/slot/+", "vestawidget/hall/ha/set",
                "vestawidget/hall/ha/clear", "vestawidget/hall/ha/pause/set", "vestawidget/hall/ha/mute/set",
                "vestawidget/hall/ha/volume/set", "vestawidget/hall/ha/transition/set", "vestawidget/group/family/message"
            ])
    }

    @Test func sourcesAreAsReceiptsHaveAlwaysSaid() {
        #expect(topics.parse("vestawidget/hall/command").source.rawValue == "mqtt-command")
        #expect(topics.parse("vestawidget/hall/ha/set").source.rawValue == "home-assistant")
        #expect(topics.parse("vestawidget/hall/slot/x").source.rawValue == "mqtt")
        #expect(topics.parse("vestawidget/group/family/message").source.rawValue == "mqtt")
    }

    @Test func publishedTopicsAreUnderTheDevice() {
        #expect(topics.name(.state) == "vestawidget/hall/state")
        #expect(topics.name(.panelState("left")) == "vestawidget/hall/state/left")
        #expect(topics.name(.panelPicture("left")) == "vestawidget/hall/board/left.png")
        #expect(topics.name(.picture) == "vestawidget/hall/board.png")
        #expect(topics.name(.homeAssistantOutcome) == "vestawidget/hall/ha/outcome")
        #expect(topics.name(.availability) == "vestawidget/hall/availability")
    }
}
