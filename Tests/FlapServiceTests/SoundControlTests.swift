import Foundation
import TestSupport
import Testing

/// Mute, volume and the sound's quiet hours changed over `/v1/sound`, as the web page does: a
/// muted flapd writes no clacks to its ALSA device, bad values are refused by field, and the
/// choices outlive a restart.
@Suite(.cleansUp, .timeLimit(.minutes(3))) struct SoundControlTests {
    @Test func mutedOverTheAPIStaysMutedAndSilent() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mute-\(UUID().uuidString)").path
        let device = try ALSAFileDevice(in: dir)
        let (raw, alsa) = (device.raw, device.environment)
        let state = dir + "/state"
        let flapd = try await FlapdProcess.start(stateDirectory: state, arguments: ["--sound-device", "clacks"], environment: alsa)
        let before = try await flapd.api.get("/v1/sound").object
        #expect(before["enabled"] as? Bool == true && before["mute"] as? Bool == false && before["device"] as? String == "clacks")

        func patch(_ json: String) async throws -> HTTPClient.Reply {
            try await flapd.api.request("PATCH", "/v1/sound", body: Data(json.utf8), headers: ["Content-Type": "application/json"])
        }
        let refused = try await patch(#"{"mute": "yes", "volume": 150, "quietHours": "25:00-07:00"}"#)
        #expect(refused.status == 400)
        let fields = (refused.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        #expect(fields == ["mute", "volume", "quietHours"], "\(refused.text)")
        // null is neither a mute setting nor a volume (the description says boolean and integer); quiet hours may be null.
        let nulls = try await patch(#"{"mute": null, "volume": null, "quietHours": null}"#)
        #expect(nulls.status == 400 && nulls.error.contains("volume: must be a whole number from 0 to 100, not null"), "\(nulls.text)")
        #expect((nulls.object["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } == ["mute", "volume"])
        let muted = try await patch(#"{"mute": true, "volume": 35, "quietHours": "22:00-06:30"}"#)
        #expect(muted.status == 200 && muted.object["state"] as? String == "muted", "\(muted.text)")

        #expect(try await flapd.api.postJSON("/v1/messages", #"{"id": "m1", "text": "QUIET"}"#).status == 202)
        _ = try await eventually(every: .milliseconds(25)) { try await flapd.api.get("/v1/receipts/m1").object["status"] as? String == "displayed" }
        #expect(try await flapd.api.get("/v1/receipts/m1").object["status"] as? String == "displayed")
        await flapd.stop()
        #expect(!FileManager.default.fileExists(atPath: raw), "a muted flapd opened the sound device")

        let again = try await FlapdProcess.start(stateDirectory: state, arguments: ["--sound-device", "clacks"], environment: alsa)
        teardown { await again.stop() }
        let after = try await again.api.get("/v1/sound").object
        #expect(after["mute"] as? Bool == true && after["volume"] as? Int == 35 && after["quietHours"] as? String == "22:00-06:30", "\(after)")
        let cleared = try await again.api.request(
            "PATCH", "/v1/sound", body: Data(#"{"mute": false, "quietHours": null}"#.utf8),
            headers: ["Content-Type": "application/json"])
        #expect(cleared.object["mute"] as? Bool == false && cleared.object["quietHours"] == nil && cleared.object["volume"] as? Int == 35)
    }
}
