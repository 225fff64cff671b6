import FlapCore
import FlapJSON
import FlapMessaging
import Foundation
import HTTPTypes
import Testing

/// A VBML document as a message and as a preview, through the native API's routes.
@Suite struct VBMLMessagesTests {
    static let document =
        #"{"props": {"who": "SAM"}, "components": [{"template": "HI {{who}}", "style": {"justify": "center", "height": 1}}, {"rawCharacters": [[63, 64, 65]]}]}"#

    @Test func aDocumentIsSentShownInItsSlotAndPreviewed() async throws {
        try await RoutedAPI().run { api in
            let sent = try await api.post("/v1/messages", #"{"sender": {"id": "kitchen"}, "vbml": \#(Self.document)}"#)
            #expect(sent.status == 202, "\(sent.object)")
            let slot = try #require((try await api.get("/v1/slots").object["slots"] as? [[String: Any]])?.first)
            #expect(slot["content"] as? String == "vbml")
            let codes = try #require(slot["codes"] as? [[Int]])
            #expect(codes[0][8...10] == [8, 9, 0] && codes[1].prefix(3) == [63, 64, 65], "\(codes)")
            let preview = try await api.post("/v1/layout", #"{"vbml": \#(Self.document)}"#)
            #expect(preview.status == 200 && preview.object["codes"] as? [[Int]] == codes)
        }
    }

    @Test func aQuickMessageTakesPropsFromItsSendingAndTheDayFromTheBoard() async throws {
        try await RoutedAPI(zone: .utc).run { api in
            let template = #"{"vbml": {"props": {"who": "YOU"}, "components": [{"template": "HI {{who}}\n{{weekday}}"}]}}"#
            #expect(try await api.request(.put, "/v1/templates/hello", json: template).status == 201)
            let weekday = (LocalProps(zone: .utc).values(at: Date())["weekday"]?.string ?? "").uppercased()
            #expect(try await api.post("/v1/templates/hello/send", #"{"props": {"who": "SAM"}}"#).status == 202)
            let slot = try #require((try await api.get("/v1/slots").object["slots"] as? [[String: Any]])?.first)
            let shown = (slot["text"] as? [String] ?? []).joined(separator: "/")
            #expect(shown.contains("HI SAM") && shown.contains(weekday), "\(shown)")
            #expect(try await api.post("/v1/templates/hello/send", #"{"props": 3}"#).status == 400)
        }
    }

    @Test func aTextQuickMessagesPlaceholdersAreFilledAtSending() async throws {
        try await RoutedAPI(zone: .utc).run { api in
            // Saved with a name its sending fills; a name no sending could fill is refused at sending.
            #expect(
                try await api.request(.put, "/v1/templates/dinner", json: #"{"text": "DINNER AT {{time}}\nFOR {{who}}", "duration": 60}"#).status
                    == 201)
            let sent = try await api.post("/v1/templates/dinner/send", #"{"props": {"who": "SAM"}}"#)
            #expect(sent.status == 202, "\(sent.object)")
            let slot = try #require((try await api.get("/v1/slots").object["slots"] as? [[String: Any]])?.first)
            let text = slot["text"] as? [String] ?? []
            #expect(text.count == 2 && text[0].hasPrefix("DINNER AT ") && text[0].contains(":") && text[1] == "FOR SAM", "\(text)")
            #expect(slot["duration"] as? Int == 60, "a quick message's duration is kept")
            let unfilled = try await api.post("/v1/templates/dinner/send", "{}")
            #expect(unfilled.status == 400 && unfilled.error.contains("{{who}} is not a placeholder"), "\(unfilled.error)")
        }
    }

    @Test func aDocumentTheBoardCannotShowIsRefusedNamingTheField() async throws {
        try await RoutedAPI().run { api in
            let wide = try await api.post("/v1/messages", #"{"vbml": {"components": [{"template": "X", "style": {"width": 30}}]}}"#)
            #expect(wide.status == 400)
            let problems = wide.object["errors"] as? [[String: String]]
            #expect(
                problems?.first?["field"] == "vbml.components[0].style.width" && problems?.first?["problem"] == "30 is wider than the board (22)",
                "\(wide.object)")
            let tall = try await api.post("/v1/layout", #"{"vbml": {"style": {"height": 8, "width": 22}, "components": []}}"#)
            #expect(tall.status == 400 && tall.error.contains("vbml.style.height: 8 is taller than the board (6)"), "\(tall.object)")
            let both = try await api.post("/v1/messages", #"{"text": "A", "vbml": {"components": []}}"#)
            #expect(both.status == 400 && both.error.contains("give only one of text, codes, pattern or vbml"))
        }
    }
}
