import FlapMessaging
import Testing

@testable import FlapMQTT

/// A topic's name is written once and parsed once: every name flapd subscribes to comes back as
/// what it is, and every topic it publishes is under its device.
@Suite struct DeviceTopicsTests {
    let topics = DeviceTopics(base: "vestawidget", device: "hall", groups: ["family"])

    @Test func everySubscriptionParsesAsItsTopic() {
        #expect(topics.kind(of: "vestawidget/hall/message").name == "message")
        #expect(topics.kind(of: "vestawidget/hall/command").name == "command")
        #expect(topics.kind(of: "vestawidget/hall/slot/mum").name == "slot")
        #expect(topics.kind(of: "vestawidget/hall/ha/set").name == "ha/set")
        for control in HomeAssistantControl.allCases { #expect(topics.kind(of: topics.name(control)).name == "control") }
        #expect(topics.kind(of: "vestawidget/group/family/message").name == "group")
        #expect(topics.kind(of: "vestawidget/group/strangers/message").name == "message", "a group it is not in is not a group's")
        #expect(topics.kind(of: "vestawidget/hall/slot/mum/extra").name == "message", "+ is one level")
        #expect(
            topics.subscriptions == [
                "vestawidget/hall/message", "vestawidget/hall/command", "vestawidget/hall/slot/+", "vestawidget/hall/ha/set",
                "vestawidget/hall/ha/clear", "vestawidget/hall/ha/pause/set", "vestawidget/hall/ha/mute/set",
                "vestawidget/hall/ha/volume/set", "vestawidget/hall/ha/transition/set", "vestawidget/group/family/message"
            ])
    }

    @Test func sourcesAreAsReceiptsHaveAlwaysSaid() {
        #expect(topics.kind(of: "vestawidget/hall/command").source.rawValue == "mqtt-command")
        #expect(topics.kind(of: "vestawidget/hall/ha/set").source.rawValue == "home-assistant")
        #expect(topics.kind(of: "vestawidget/hall/slot/x").source.rawValue == "mqtt")
        #expect(topics.kind(of: "vestawidget/group/family/message").source.rawValue == "mqtt")
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
