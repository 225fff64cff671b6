import FlapMessaging
import FlapJSON
import FoundationEssentials
import Hummingbird

/// Quick messages under `/v1/templates`: up to 20 named messages (text or codes, with their
/// alignment and transition) to list, save, rename, delete and send.
struct TemplatesAPI {
    let intake: MessageIntake
    let answers: IntakeAnswers

    func add(to v1: RouterGroup<BasicRequestContext>) {
        v1.get("templates") { _, _ in Responses.json(.ok, ["templates": try await intake.inbox.templates()]) }
        v1.put("templates/:name") { request, context in try await saveTemplate(request, name: context.parameter("name")) }
        v1.delete("templates/:name") { _, context in
            let name = context.parameter("name")
            do { try await intake.inbox.deleteTemplate(name) } catch QuickMessageError.missing {
                return Responses.error(.notFound, "no quick message called \(name)")
            }
            return Response(status: .noContent)
        }
        v1.post("templates/:name/rename") { request, context in
            let name = context.parameter("name")
            guard let object = try await jsonObject(request), let to = object["to"]?.string else {
                return Responses.error(.badRequest, "send {\"to\": \"NEW NAME\"}")
            }
            if let problem = QuickMessage.nameProblem(to) { return Responses.error(.badRequest, "to: \(problem)") }
            do { try await intake.inbox.renameTemplate(name, to: to, now: intake.now()) } catch QuickMessageError.missing {
                return Responses.error(.notFound, "no quick message called \(name)")
            } catch QuickMessageError.taken {
                return Responses.error(.conflict, "a quick message is already called \(to)")
            }
            return Responses.json(.ok, ["name": to])
        }
        v1.post("templates/:name/send") { request, context in
            let name = context.parameter("name")
            guard let template = try await intake.inbox.template(name) else { return Responses.error(.notFound, "no quick message called \(name)") }
            // The sending may add a sender, an id or an expiry; the content is the template's.
            var fields = try await jsonObject(request) ?? [:]
            let kept = template.fields
            for key in QuickMessage.keptFields { fields[key] = kept[key] }
            // Each sending is a message of its own (sent again, it shows again).
            if fields["createdAt"] == nil { fields["createdAt"] = .string(intake.now().formatted(.iso8601)) }
            return try await answers.answer(intake.submit(fields: fields, source: "template", defaultSender: "quick-messages"), source: "template")
        }
    }

    private func saveTemplate(_ request: Request, name: String) async throws -> Response {
        if let problem = QuickMessage.nameProblem(name) { return Responses.error(.badRequest, "name: \(problem)") }
        guard let object = try await jsonObject(request) else {
            return Responses.error(.badRequest, "send the message to keep as a JSON object: {\"text\": \"…\"} or {\"codes\": [[…]]}")
        }
        // Checked as a message would be, so a quick message can always be sent.
        let parser = MessageParser(boardSize: intake.boardSize, source: "template", defaultSender: "template")
        do {
            _ = try parser.parse(object, now: intake.now())
        } catch {
            return Responses.error(.badRequest, error.description, problems: error.problems.map { .init(field: $0.field, problem: $0.problem) })
        }
        let kept = object.filter { QuickMessage.keptFields.contains($0.key) }
        let data = try JSONEncoder().encode(kept)
        do {
            let created = try await intake.inbox.saveTemplate(name, fields: data, now: intake.now())
            return Responses.json(created ? .created : .ok, try await intake.inbox.template(name))
        } catch QuickMessageError.full {
            return Responses.error(.conflict, "\(QuickMessage.most) quick messages are kept at most; delete one first")
        }
    }

    private func jsonObject(_ request: Request) async throws -> [String: JSONValue]? {
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody), !body.isEmpty else { return nil }
        return (try? JSONValue(parsing: body))?.object
    }
}
