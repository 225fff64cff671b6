import Foundation
import TestSupport

extension FlapdProcess {
    /// A kiosk with `people` simulated wearers on the broker, in no room unless `room` is given.
    static func kiosk(_ id: String, broker: MosquittoBroker, people: Int = 1, room: String? = nil) async throws -> FlapdProcess {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("\(id)-\(UUID().uuidString).toml").path
        try """
        [[panel]]
        driver = "simulated"
        show = "none"
        [mqtt]
        url = "mqtt://127.0.0.1:\(broker.port)"
        device_id = "\(id)"
        home_assistant = false
        [[sensor]]
        driver = "simulated"
        people = \(people)
        \(room.map { "[room]\nname = \"\($0)\"" } ?? "")
        """.write(toFile: config, atomically: true, encoding: .utf8)
        return try await FlapdProcess.start(arguments: ["--config", config])
    }
}
