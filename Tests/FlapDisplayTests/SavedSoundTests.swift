import FlapDisplay
import Foundation
import Testing

/// `sound.json` keeps the page's choices, read within its budget.
@Suite struct SavedSoundTests {
    @Test func choicesAreKeptAndAFileOverItsBudgetChangesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sound-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let saved = SavedSound(directory: directory)
        var chosen = SoundSettings()
        chosen.volume = 20
        chosen.mute = true
        try saved.save(chosen)
        let read = saved.applied(to: SoundSettings())
        #expect(read.volume == 20 && read.mute)
        // The same choices padded past 64 KiB: not read, the configuration's stand.
        let text = try String(contentsOfFile: directory + "/sound.json", encoding: .utf8)
        try (text + String(repeating: " ", count: 70_000)).write(toFile: directory + "/sound.json", atomically: true, encoding: .utf8)
        let ignored = saved.applied(to: SoundSettings())
        #expect(ignored.volume == SoundSettings().volume && !ignored.mute)
    }
}
