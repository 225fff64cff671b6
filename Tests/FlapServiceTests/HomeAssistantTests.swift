import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// flapd as a device in a real Home Assistant (2024.3.3, its MQTT integration on the suite's
/// mosquitto): what a person sees in Home Assistant and what each entity does to flapd, checked
/// through Home Assistant's REST and WebSocket APIs and through flapd's own.
@Suite(.cleansUp, .timeLimit(.minutes(10))) struct HomeAssistantTests {
    /// Every entity's unique id, as discovery announces them.
    static let objects = ["message", "board", "outcome", "clear", "pause", "mute", "volume", "transition", "board_picture", "displayed"]

    /// flapd on the broker as `device`, its clacks on ALSA's null device so they can be muted.
    func flapd(_ broker: MosquittoBroker, device: String, state: String? = nil) async throws -> FlapdProcess {
        let alsa = FileManager.default.temporaryDirectory.appendingPathComponent("ha-alsa-\(UUID().uuidString).conf").path
        try "pcm.nowhere { type null }\n".write(toFile: alsa, atomically: true, encoding: .utf8)
        return try await FlapdProcess.start(
            stateDirectory: state,
            arguments: [
                "--sound-device", "nowhere", "--mqtt", "mqtt://127.0.0.1:\(broker.port)",
                "--device-id", device
            ], environment: ["ALSA_CONFIG_PATH": alsa])
    }

    /// The entity ids of `device`'s entities, by their unique id's last part, once all are registered.
    func entities(_ home: HomeAssistant, device: String) async throws -> [String: String] {
        var found: [String: String] = [:]
        try await must(every: .milliseconds(500)) {
            let registries = try await home.registries()
            guard let deviceID = registries.devices.first(where: { $0.identifiers.contains("mqtt:vestawidget_\(device)") })?.id else { return false }
            found = [:]
            for entity in registries.entities where entity["device_id"] == deviceID && entity["platform"] == "mqtt" {
                guard let unique = entity["unique_id"], unique.hasPrefix("vestawidget_\(device)_") else { continue }
                found[String(unique.dropFirst("vestawidget_\(device)_".count))] = entity["entity_id"]
            }
            // A display that reads straps (flapd --simulate does) is a kiosk, with its room's sensors too.
            return Set(Self.objects).isSubset(of: found.keys)
        }
        // Registered is not yet available (its availability topic read): Home Assistant skips a
        // service call to an entity that is unavailable.
        for object in Self.objects { try await until(home, found[object]) { $0["state"] as? String != "unavailable" } }
        return found
    }

    /// Waits for `condition`, recording an issue (here, where it was waited for) when it never comes.
    func must(
        every interval: Duration, sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () async throws -> Bool
    ) async throws {
        if try await !eventually(every: interval, condition) {
            Issue.record("timed out after \(minimumPatience)", sourceLocation: sourceLocation)
        }
    }

    func stateOf(_ home: HomeAssistant, _ entity: String?) async throws -> String? {
        guard let entity else { return nil }
        return try await home.state(entity)?["state"] as? String
    }

    /// Waits until `entity`'s state satisfies `condition`; returns the last state seen.
    @discardableResult
    func until(_ home: HomeAssistant, _ entity: String?, _ condition: @escaping @Sendable ([String: Any]) -> Bool) async throws -> [String: Any] {
        nonisolated(unsafe) var last: [String: Any] = [:]
        let met = try await eventually(every: .milliseconds(200)) {
            guard let entity, let state = try await home.state(entity) else { return false }
            last = state
            return condition(state)
        }
        if !met { Issue.record("\(entity ?? "no entity") did not come to the state expected within \(minimumPatience): \(last)") }
        return last
    }

    func boardText(_ flapd: FlapdProcess) async throws -> String {
        let panels = try await flapd.api.get("/v1/board").object["panels"] as? [[String: Any]]
        return (panels?.first?["text"] as? [String] ?? []).joined(separator: " ")
    }

    @Test func theBoardIsADeviceAPersonAutomates() async throws {
        let started = ContinuousClock.now
        /// Each part's time, in the log: Home Assistant's start dominates the suite's time.
        func phase(_ name: String) { print("home assistant test: \(name) at \(started.duration(to: .now))") }
        let broker = try await MosquittoBroker.start()
        teardown { await broker.stop() }
        let home = try await HomeAssistant.start(mqttPort: broker.port)
        teardown { await home.stop() }
        let flapd = try await flapd(broker, device: "wall")
        let state = flapd.stateDirectory
        teardown { await flapd.stop() }

        phase("Discovery")
        // Discovery: every entity, on one device, with its unique id.
        let ids = try await entities(home, device: "wall")
        // The names docs/home-assistant.md uses in its examples.
        #expect(
            ids["message"] == "text.vestawidget_wall_message" && ids["board_picture"] == "image.vestawidget_wall_board_picture"
                && ids["displayed"] == "event.vestawidget_wall_message_shown", "\(ids)")
        let board = try await until(home, ids["board"]) { _ in true }
        #expect((board["attributes"] as? [String: Any])?["text"] != nil, "the board sensor has the board as soon as flapd connects: \(board)")

        phase("A")
        // A: B: A from Home Assistant's text: A shows again, each with its receipt.
        for word in ["HELLO HOME", "DINNER", "HELLO HOME"] {
            try await home.call("text", "set_value", ["entity_id": ids["message"]!, "value": word])
            try await must(every: .milliseconds(100)) { try await boardText(flapd).contains(word) }
        }
        let receipts = try await flapd.api.get("/v1/receipts?sender=home-assistant").object["receipts"] as? [[String: Any]] ?? []
        #expect(receipts.count == 3, "\(receipts)")
        try await until(home, ids["board"]) { $0["state"] as? String == "HELLO HOME" }

        phase("The message shown is an event")
        // The message shown is an event Home Assistant sees, with its sender and text.
        let follower = try await home.follow(ids["displayed"]!, count: 1)
        teardown { await follower.stop() }
        try await home.call("text", "set_value", ["entity_id": ids["message"]!, "value": "MUM IS HOME"])
        try await must(every: .milliseconds(100)) { follower.stdout.split(separator: "\n").count >= 2 }
        let event = try JSONSerialization.jsonObject(with: Data(follower.stdout.split(separator: "\n")[1].utf8)) as? [String: Any]
        let attributes = event?["attributes"] as? [String: Any] ?? [:]
        #expect(
            attributes["event_type"] as? String == "displayed" && attributes["sender"] as? String == "home-assistant"
                && attributes["text"] as? String == "MUM IS HOME", "\(attributes)")

        phase("The picture is")
        // The picture is /v1/board.png's.
        let png = try await flapd.api.get("/v1/board.png").body
        var picture = Data()
        try await must(every: .milliseconds(200)) {
            picture = try await home.api.get("/api/image_proxy/\(ids["board_picture"]!)").body
            return picture == png
        }
        #expect(picture == png, "Home Assistant's picture (\(picture.count) bytes) is not /v1/board.png (\(png.count) bytes)")

        phase("A refused text")
        // A refused text is visible, with its reason.
        try await home.call("text", "set_value", ["entity_id": ids["message"]!, "value": "BAD {99}"])
        let refused = try await until(home, ids["outcome"]) { $0["state"] as? String == "rejected" }
        #expect(((refused["attributes"] as? [String: Any])?["reason"] as? String)?.contains("99") == true, "\(refused)")

        phase("Quiet now")
        // Quiet now, mute, volume and transition: each changes flapd and comes back in Home Assistant.
        try await home.call("switch", "turn_on", ["entity_id": ids["pause"]!])
        try await until(home, ids["pause"]) { $0["state"] as? String == "on" }
        #expect(try await flapd.api.get("/v1/controls").object["paused"] as? Bool == true)
        try await home.call("switch", "turn_on", ["entity_id": ids["mute"]!])
        try await until(home, ids["mute"]) { $0["state"] as? String == "on" }
        try await home.call("number", "set_value", ["entity_id": ids["volume"]!, "value": 40])
        try await until(home, ids["volume"]) { ($0["state"] as? String).flatMap(Double.init) == 40 }
        let sound = try await flapd.api.get("/v1/sound").object
        #expect(sound["mute"] as? Bool == true && sound["volume"] as? Int == 40, "\(sound)")
        try await home.call("select", "select_option", ["entity_id": ids["transition"]!, "option": "diagonal"])
        try await until(home, ids["transition"]) { $0["state"] as? String == "diagonal" }
        #expect(try await flapd.api.get("/v1/controls").object["transition"] as? String == "diagonal")
        // Changed through flapd's API, Home Assistant follows.
        _ = try await flapd.api.request(
            "PATCH", "/v1/controls", body: Data(#"{"paused": false}"#.utf8), headers: ["Content-Type": "application/json"])
        try await until(home, ids["pause"]) { $0["state"] as? String == "off" }

        phase("The household")
        // The owner is a sensor: away, here after a ping, writing while typing, gone while hidden.
        let presence: @Sendable (String) async throws -> Void = { [flapd] body in
            _ = try await flapd.api.request("PATCH", "/v1/presence", body: Data(body.utf8), headers: ["Content-Type": "application/json"])
        }
        var owner: String?
        try await must(every: .milliseconds(500)) {
            owner = try await home.registries().entities.first { $0["unique_id"] == "vestawidget_wall_presence_owner" }?["entity_id"]
            return owner != nil
        }
        #expect(owner == "sensor.vestawidget_wall_owner_at_the_board", "the name docs/home-assistant.md uses")
        try await until(home, owner) { $0["state"] as? String == "away" }
        try await presence(#"{"here": true}"#)
        try await until(home, owner) { $0["state"] as? String == "here" }
        // Writing lasts 5 s after each keystroke reported: reported every 2 s, as the page does, until seen.
        let typing = Task {
            while !Task.isCancelled {
                try? await presence(#"{"writing": true}"#)
                try? await Task.sleep(for: .seconds(2))
            }
        }
        try await until(home, owner) { $0["state"] as? String == "writing" }
        typing.cancel()
        _ = await typing.value
        try await presence(#"{"writing": false}"#)
        try await until(home, owner) { $0["state"] as? String == "here" }
        try await presence(#"{"showMe": false}"#)
        try await must(every: .milliseconds(500)) {
            !(try await home.registries().entities.contains { $0["unique_id"] == "vestawidget_wall_presence_owner" })
        }
        try await presence(#"{"showMe": true}"#)

        phase("For a while")
        // For a while, then back: an automation's JSON on the text (for ten minutes, so that it is
        // still up when a busy machine has flipped to it; "Clear" ends it).
        try await home.call("text", "set_value", ["entity_id": ids["message"]!, "value": #"{"text": "DOOR OPEN", "duration": 600}"#])
        try await must(every: .milliseconds(100)) { try await boardText(flapd).contains("DOOR OPEN") }
        let slots = try await flapd.api.get("/v1/slots").object["slots"] as? [[String: Any]] ?? []
        #expect(slots.contains { $0["duration"] as? Int == 600 && $0["sender"] as? String == "home-assistant" }, "\(slots)")

        phase("Clear")
        // Clear: every slot emptied, the board blank.
        try await home.call("button", "press", ["entity_id": ids["clear"]!])
        try await must(every: .milliseconds(100)) {
            (try await flapd.api.get("/v1/slots").object["slots"] as? [Any])?.isEmpty == true
        }

        phase("flapd stopped")
        // flapd stopped: every entity unavailable; started again: back.
        try await home.call("text", "set_value", ["entity_id": ids["message"]!, "value": "STILL HERE"])
        try await must(every: .milliseconds(100)) { try await boardText(flapd).contains("STILL HERE") }
        await flapd.stop()
        for object in Self.objects {
            try await until(home, ids[object]) { $0["state"] as? String == "unavailable" }
        }
        let again = try await self.flapd(broker, device: "wall", state: state)
        teardown { await again.stop() }
        try await until(home, ids["pause"]) { $0["state"] as? String == "off" }

        phase("A new device id")
        // A new device id: the old device is gone, and the new one's board sensor has the board at once.
        await again.stop()
        let renamed = try await self.flapd(broker, device: "hall", state: state)
        teardown { await renamed.stop() }
        let hall = try await entities(home, device: "hall")
        try await until(home, hall["board"]) { $0["state"] as? String == "STILL HERE" }
        let gone = try await eventually(every: .milliseconds(500)) {
            !(try await home.registries().devices.contains { $0.identifiers.contains("mqtt:vestawidget_wall") })
        }
        #expect(gone, "the old device id's device is still in Home Assistant")

        phase("Two panels")
        // Two panels: each its own device, with its board and picture, beside the display's.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("duo-\(UUID().uuidString).toml").path
        try "[[panel]]\nid = \"left\"\n\n[[panel]]\nid = \"right\"\nsize = \"note\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let duo = try await FlapdProcess.start(arguments: [
            "--config", config, "--no-sound", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "duo"
        ])
        teardown { await duo.stop() }
        _ = try await duo.api.postJSON("/v1/messages", #"{"text": "TWO BOARDS"}"#)
        var panelBoards: [String: String] = [:]
        let devices = try await eventually(every: .milliseconds(500)) {
            let registries = try await home.registries()
            panelBoards = [:]
            for panel in ["left", "right"] {
                guard let device = registries.devices.first(where: { $0.identifiers.contains("mqtt:vestawidget_duo_\(panel)") }) else { return false }
                let entities = registries.entities.filter { $0["device_id"] == device.id }
                guard entities.count == 2 else { return false }
                panelBoards[panel] = entities.first { $0["unique_id"] == "vestawidget_duo_\(panel)_board" }?["entity_id"]
            }
            return registries.devices.contains { $0.identifiers.contains("mqtt:vestawidget_duo") }
        }
        #expect(devices, "\(panelBoards)")
        // The right panel shows the message; the left, the first panel of a flapd reading straps
        // over MQTT, is the kiosk's (its room), and has its own board all the same.
        try await until(home, panelBoards["right"]) { ($0["state"] as? String)?.contains("TWO BOARDS") == true }
        try await until(home, panelBoards["left"]) { ($0["attributes"] as? [String: Any])?["panel"] as? String == "left" }

        phase("A Wematch kiosk")
        // A Wematch kiosk: its room's members and synced pairs as sensors, never a heart rate.
        let kiosk = try await FlapdProcess.start(arguments: [
            "--no-sound", "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--device-id", "kiosk",
            "--room", "lobby", "--sensor", "simulated"
        ])
        teardown { await kiosk.stop() }
        var roomSensors: [String: String] = [:]
        try await must(every: .milliseconds(500)) {
            let entities = try await home.registries().entities
            for object in ["room_members", "room_synced"] {
                roomSensors[object] = entities.first { $0["unique_id"] == "vestawidget_kiosk_\(object)" }?["entity_id"]
            }
            return roomSensors.count == 2
        }
        let members = try await until(home, roomSensors["room_members"]) { (($0["state"] as? String).flatMap(Int.init) ?? 0) > 0 }
        try await until(home, roomSensors["room_synced"]) { ($0["state"] as? String).flatMap(Int.init) != nil }
        #expect((members["attributes"] as? [String: Any])?["room"] as? String == "lobby", "\(members)")
        // Every state but its context, whose ULIDs (random base-32 letters) spell "bpm" in a few runs in a hundred.
        let states = try #require(try JSONSerialization.jsonObject(with: Data(try await home.api.get("/api/states").text.utf8)) as? [[String: Any]])
        let everything = String(decoding: try JSONSerialization.data(withJSONObject: states.map { $0.filter { $0.key != "context" } }), as: UTF8.self)
            .lowercased()
        #expect(!everything.contains("bpm") && !everything.contains("heart_rate"), "a heart rate reached Home Assistant")
    }
}
