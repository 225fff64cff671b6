import FlapEndpoints
import FlapJSON

/// The clacks' settings.
enum SoundTools {
    static let read = BoardTool(
        name: "get_sound", title: "Read the sound settings",
        description: "Whether the clacks are playing (and if not, why), mute, volume and the sound's quiet hours.",
        readOnly: true,
        run: { _, api in try await api.call(.sound) }
    )

    static let change = BoardTool(
        name: "set_sound", title: "Change the sound",
        description: "Mutes or unmutes the clacks, sets their volume or their quiet hours; what is not given stays as it is. Kept across restarts.",
        parameters: [
            .init(name: "mute", kind: .boolean, description: "true to mute the clacks."),
            .init(name: "volume", kind: .integer(0...100), description: "Volume, 0–100."),
            .init(name: "quietHours", kind: .string, description: "HH:MM-HH:MM in local time, such as 22:00-07:00; an empty string for none.")
        ],
        run: { arguments, api in try await api.call(.setSound, body: arguments.body(["mute", "volume", "quietHours"])) }
    )
}
