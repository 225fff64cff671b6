import FlapFuzzing
import Foundation
import Testing

/// Every input kept in Fuzz/ (each target's seeds in `corpus/`, and in `regressions/` the inputs
/// that once crashed, hung or ate memory) read again through its target: none may crash, and
/// every reader of outside bytes has a target with seeds.
@Suite struct FuzzInputsTests {
    static let fuzz = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ folder: String, _ target: String) -> [URL] {
        let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
        return ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { !$0.lastPathComponent.hasPrefix(".") }.sorted { $0.path < $1.path }
    }

    @Test(arguments: FuzzTargets.all.map(\.name)) func everyKeptInputIsReadAgain(_ name: String) throws {
        let target = try #require(FuzzTargets.named(name)?.read)
        let seeds = Self.inputs("corpus", name)
        #expect(!seeds.isEmpty, "Fuzz/corpus/\(name) has no seeds")
        for file in seeds + Self.inputs("regressions", name) {
            target(Array(try Data(contentsOf: file)))
        }
    }

    @Test func eachTargetIsOneReadersAndEveryKeptFolderATargets() throws {
        let names = FuzzTargets.all.map(\.name)
        #expect(Set(names).count == names.count && Set(FuzzTargets.all.map(\.reader)).count == names.count, "\(FuzzTargets.all.map(\.reader))")
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fuzz.appendingPathComponent("corpus").path).filter {
            !$0.hasPrefix(".")
        }
        #expect(Set(folders) == Set(names), "Fuzz/corpus's folders and the targets differ")
    }
}
