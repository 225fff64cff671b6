import Foundation
import TestSupport
import Testing

/// Recurring messages through the running flapd: the configuration's schedules listed read-only,
/// schedules added, changed and removed over the API and with flapctl, kept across a restart,
/// and bad ones refused naming the field.
@Suite(.cleansUp, .timeLimit(.minutes(2))) struct SchedulesServiceTests {
    @Test func schedulesFromTheFileTheAPIAndFlapctl() async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("schedules-\(UUID().uuidString).toml")
        try """
        [[schedule]]
        name = "morning"
        days = "mon-fri"
        times = ["07:00"]
        time_zone = "Europe/Berlin"
        text = "GOOD MORNING"
        """.write(to: config, atomically: true, encoding: .utf8)
        let first = try await InProcessFlapd.start(arguments: ["--config", config.path, "--no-sound"])
        let api = first.api
        var listed = try await api.get("/v1/schedules").object["schedules"] as? [[String: Any]] ?? []
        #expect(
            listed.count == 1 && listed[0]["name"] as? String == "morning" && listed[0]["fromFile"] as? Bool == true && listed[0]["next"] is String)
        #expect(listed.first?["weekdays"] as? [Int] == [1, 2, 3, 4, 5], "mon-fri is Monday to Friday, not Monday")

        let added = try await api.post(
            "/v1/schedules", json: ["name": "bins", "cron": "30 19 * * tue", "timeZone": "America/New_York", "text": "BINS OUT"])
        #expect(added.status == 201 && added.object["next"] is String)
        #expect(try await api.post("/v1/schedules", json: ["name": "bins", "times": ["08:00"], "text": "X"]).status == 409)
        #expect(try await api.request("DELETE", "/v1/schedules/morning").status == 409)
        let changed = try await api.request(
            "PUT", "/v1/schedules/bins",
            body: try JSONSerialization.data(withJSONObject: ["cron": "0 20 * * tue", "timeZone": "America/New_York", "text": "BINS OUT"]),
            headers: ["Content-Type": "application/json"])
        #expect(changed.status == 200 && changed.object["cron"] as? String == "0 20 * * tue")

        // Mistakes, each naming its field.
        let never = try await api.post("/v1/schedules", json: ["name": "never", "cron": "0 0 31 2 *", "text": "X"])
        #expect(never.status == 400 && (never.object["errors"] as? [[String: Any]])?.first?["field"] as? String == "cron")
        let zone = try await api.post("/v1/schedules", json: ["name": "mars", "times": ["07:00"], "timeZone": "Mars/Olympus", "text": "X"])
        #expect(zone.status == 400 && zone.error.contains("timeZone"))
        let time = try await api.post("/v1/schedules", json: ["name": "late", "times": ["25:00"], "text": "X"])
        #expect(time.status == 400 && time.error.contains("times"))
        // JSON of the wrong shape: the field named, whatever the decoder met.
        let bodies = [
            #"{"name": "a", "times": "07:00", "text": "X"}"#: "times: must be a list",
            #"{"name": "a", "times": ["07:00"], "holdMinutes": "long", "text": "X"}"#: "holdMinutes: must be a whole number",
            #"{"name": "a", "times": ["07:00"], "codes": [[1, "a"]]}"#: "codes[0][1]: must be a whole number",
            #"{"name": "a", "times": ["07:00"], "codes": [[1, -26090108850789109760]]}"#: "a number does not fit its field"
        ]
        for (body, problem) in bodies {
            let answer = try await api.request("PUT", "/v1/schedules/bins", body: Data(body.utf8), headers: ["Content-Type": "application/json"])
            #expect(answer.status == 400 && answer.error.hasPrefix(problem), "\(body): \(answer.error)")
        }

        // flapctl.
        let flapctl = ProcessRunner.builtProduct("flapctl")
        let connection = ["--url", "http://127.0.0.1:\(first.apiPort)", "--api-key", first.apiKey]
        let add = try await ProcessRunner.run(flapctl, ["schedule", "add", "tea", "--days", "sat,sun", "--at", "16:00", "TEA"] + connection)
        #expect(add.status == 0 && add.stdoutText.hasPrefix("tea added; next"))
        let list = try await ProcessRunner.run(flapctl, ["schedule", "list"] + connection).stdoutText
        #expect(
            list.contains("morning") && list.contains("(configuration file)") && list.contains("bins  cron 0 20 * * tue America/New_York")
                && list.contains("tea"))
        #expect(try await ProcessRunner.run(flapctl, ["schedule", "remove", "tea"] + connection).stdoutText.contains("tea removed"))
        let school = try await ProcessRunner.run(flapctl, ["schedule", "add", "school", "--days", "fri-mon", "--at", "07:00", "SCHOOL"] + connection)
        #expect(school.status == 0, "\(school.stderrText)")
        let days = try await api.get("/v1/schedules").object["schedules"] as? [[String: Any]] ?? []
        #expect(days.first { $0["name"] as? String == "school" }?["weekdays"] as? [Int] == [0, 1, 5, 6])
        #expect(try await api.request("DELETE", "/v1/schedules/school").status == 204)
        let monkey = try await ProcessRunner.run(flapctl, ["schedule", "add", "zoo", "--days", "monkey", "--at", "07:00", "X"] + connection)
        #expect(monkey.status != 0 && monkey.stderrText.contains("days: \"monkey\" is not a day"), "\(monkey.stderrText)")
        // Days read one way: a string as the docs write it, kept as the days it means; no day
        // at all refused alike from the API and flapctl, quoting what was typed.
        let string = try await api.postJSON("/v1/schedules", #"{"name": "work", "days": "Mon-Fri", "times": ["08:00"], "text": "WORK"}"#)
        #expect(string.status == 201 && string.object["days"] as? [String] == ["weekdays"], "\(string.text)")
        for empty in [#""days": []"#, #""days": [""]"#, #""days": """#] {
            let answer = try await api.postJSON("/v1/schedules", #"{"name": "none", \#(empty), "times": ["08:00"], "text": "X"}"#)
            #expect(answer.status == 400 && answer.error.contains("days: names no day"), "\(empty): \(answer.error)")
        }
        for empty in ["", ","] {
            let answer = try await ProcessRunner.run(flapctl, ["schedule", "add", "none", "--days", empty, "--at", "07:00", "X"] + connection)
            #expect(answer.status != 0 && answer.stderrText.contains("days: names no day"), "--days \(empty.debugDescription): \(answer.stderrText)")
        }
        let kon = try await api.postJSON("/v1/schedules", #"{"name": "k", "days": ["Mon", "Kon"], "times": ["08:00"], "text": "X"}"#)
        #expect(kon.status == 400 && kon.error.contains(#"days: "Kon" is not a day"#), "\(kon.error)")
        // Limits: days, times and text of one schedule, and how many there are.
        let manyDays = "[" + Array(repeating: #""mon""#, count: 7_500).joined(separator: ",") + "]"
        let bigDays = try await api.postJSON("/v1/schedules", #"{"name": "d", "days": \#(manyDays), "times": ["08:00"], "text": "X"}"#)
        #expect(bigDays.status == 400 && bigDays.error.contains("a week's days take at most 256"), "\(bigDays.error.prefix(200))")
        let manyTimes = "[" + Array(repeating: #""07:00""#, count: 6_000).joined(separator: ",") + "]"
        let bigTimes = try await api.postJSON("/v1/schedules", #"{"name": "t", "times": \#(manyTimes), "text": "X"}"#)
        #expect(
            bigTimes.status == 400 && bigTimes.error.contains("times: has 6000 entries; a schedule fires at most 48 times a day"),
            "\(bigTimes.error.prefix(200))")
        let longText = try await api.postJSON(
            "/v1/schedules", #"{"name": "l", "times": ["08:00"], "text": "\#(String(repeating: "A", count: 1_001))"}"#)
        #expect(longText.status == 400 && longText.error.contains("text: is 1001 characters long"), "\(longText.error.prefix(200))")
        #expect(try await api.request("DELETE", "/v1/schedules/work").status == 204)
        let kept = (try await api.get("/v1/schedules").object["schedules"] as? [[String: Any]] ?? []).filter { $0["fromFile"] as? Bool == false }
            .count
        for n in kept..<100 {
            let added = try await api.postJSON("/v1/schedules", #"{"name": "n\#(n)", "times": ["08:00"], "text": "X"}"#)
            #expect(added.status == 201, "schedule \(n): \(added.error)")
        }
        let full = try await api.postJSON("/v1/schedules", #"{"name": "one-more", "times": ["08:00"], "text": "X"}"#)
        #expect(full.status == 409 && full.error.contains("at most 100 schedules"), "\(full.error)")
        for n in kept..<100 { _ = try await api.request("DELETE", "/v1/schedules/n\(n)") }

        let wrong = try await ProcessRunner.run(flapctl, ["schedule", "add", "oops", "--cron", "0 0 31 2 *", "X"] + connection)
        #expect(wrong.status != 0 && wrong.stderrText.contains("never fire"))

        // Kept across a restart.
        await first.stop()
        let second = try await InProcessFlapd.start(stateDirectory: first.stateDirectory, arguments: ["--config", config.path, "--no-sound"])
        teardown { await second.stop() }
        listed = try await second.api.get("/v1/schedules").object["schedules"] as? [[String: Any]] ?? []
        #expect(listed.compactMap { $0["name"] as? String } == ["morning", "bins"])
    }
}
