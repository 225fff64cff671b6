import FlapCore
import FlapEndpoints
import FlapJSON
import FlapMessaging
import FlapStorage
import FoundationEssentials
import Hummingbird

/// The clacks as the APIs reach them.
public protocol SoundControl: Sendable {
    /// Whether the clacks are playing, and if not, why (`idle`, `muted`, `quiet hours`, `unavailable`, …).
    func soundStatus() async -> (state: String, reason: String?)
    /// The clacks' settings and state.
    func sound() async -> SoundView
    /// Mutes, sets the volume and the quiet hours (nil: none), saved across restarts.
    func setSound(mute: Bool, volume: Int, quietHours: String?) async throws -> SoundView
    /// The clack the board plays (the configured sample, else the synthesized one), for
    /// browsers that play the clacks themselves (the board on a TV).
    func clackSample() async -> ClackSample
}

/// The clacks as `GET /v1/sound` reports them.
public struct SoundView: Sendable, Encodable {
    /// false when `[sound] enabled = false`: nothing can be changed.
    public var enabled: Bool
    /// What the sound is doing (`idle`, `playing`, `muted`, `quiet hours`, `disabled`, `unavailable`).
    public var state: String
    /// Why, for quiet hours and an unusable device.
    public var reason: String?
    /// Whether the clacks are silenced.
    public var mute: Bool
    /// 0–100.
    public var volume: Int
    /// `HH:MM-HH:MM`, local time, or nil.
    public var quietHours: String?
    /// The ALSA PCM the clacks play on.
    public var device: String

    /// The view as given.
    public init(enabled: Bool, state: String, reason: String?, mute: Bool, volume: Int, quietHours: String?, device: String) {
        self.enabled = enabled
        self.state = state
        self.reason = reason
        self.mute = mute
        self.volume = volume
        self.quietHours = quietHours
        self.device = device
    }
}

/// `/v1/sound`: the clacks' state and the settings a person changes from the page or a script:
/// mute, volume and the sound's quiet hours (kept across restarts); `/v1/sound/clack.wav`, the clack itself.
struct SoundAPI: RouteGroup {
    let sound: any SoundControl

    func add(to v1: AccessRoutes) {
        v1.on(.sound, .owner) { _, _ in Answer(await sound.sound()) }
        v1.on(.setSound, .owner) { request, _ in try await changeSound(request) }
        v1.on(.clackSample, .onlookers) { _, _ in
            let wav = WAVFile.encode(await sound.clackSample())
            return Response(
                status: .ok, headers: [.contentType: "audio/wav", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(bytes: wav)))
        }
    }

    /// `{"mute": true}`, `{"volume": 40}`, `{"quietHours": "22:00-07:00"}` (null or "" for none),
    /// any of them together; what is not named stays as it is.
    private func changeSound(_ request: Request) async throws -> Answer<SoundView> {
        guard let body = try await Responses.body(of: request, limit: 4096) else {
            throw APIError(.contentTooLarge, Responses.tooLarge(request, limit: 4096))
        }
        guard let object = (try? JSONValue(parsing: body))?.object else {
            throw APIError(.badRequest, "send a JSON object such as {\"mute\": true, \"volume\": 40, \"quietHours\": \"22:00-07:00\"}")
        }
        let current = await sound.sound()
        guard current.enabled else { throw APIError(.conflict, "sound is off in the configuration ([sound] enabled = false)") }
        var reader = FieldReader(fields: object)
        // null is no mute setting and no volume: refused, as the description says, not taken for "unchanged".
        if object["mute"]?.isNull == true { reader.fail("mute", "must be true or false, not null") }
        if object["volume"]?.isNull == true { reader.fail("volume", "must be a whole number from 0 to 100, not null") }
        var mute = current.mute, volume = current.volume, quiet = current.quietHours
        if let flag = reader.bool("mute") { mute = flag }
        if let number = reader.int("volume") {
            if (0...100).contains(number) { volume = number } else { reader.fail("volume", "must be from 0 to 100, not \(number)") }
        }
        if let value = object["quietHours"] {
            if value.isNull || value.string?.isEmpty == true {
                quiet = nil
            } else if let text = value.string, let hours = QuietHours(text) {
                quiet = hours.description
            } else {
                reader.fail("quietHours", "must be HH:MM-HH:MM in local time, such as 22:00-07:00 (null for none)")
            }
        }
        guard reader.problems.isEmpty else {
            throw APIError(
                .badRequest, reader.problems.map(\.description).joined(separator: "; "),
                problems: reader.problems.map { .init(field: $0.field, problem: $0.problem) })
        }
        do {
            return Answer(try await sound.setSound(mute: mute, volume: volume, quietHours: quiet))
        } catch let fault as StorageFault {
            throw APIError(fault.answerStatus, "set, but not saved for a restart: \(fault.description)")
        } catch {
            throw APIError(.internalServerError, "\(error)")
        }
    }
}
