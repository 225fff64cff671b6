import Foundation

/// A flapd.toml for one test: `text` written to a new file in the temporary directory, whose
/// path goes to `--config`.
public func configurationFile(_ text: String, named prefix: String = "flapd") throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString).toml")
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file.path
}
