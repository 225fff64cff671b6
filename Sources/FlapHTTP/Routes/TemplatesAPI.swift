import FlapCore
import FlapEndpoints
import FlapJSON
import FlapMessaging
import FoundationEssentials
import Hummingbird

/// Quick messages under `/v1/templates`: up to 20 named messages (text or codes, with their
/// alignment and transition) to list, save, rename, delete and send; and what a panel shows
/// now, kept as one, whoever put it there.
struct TemplatesAPI: RouteGroup {
    let intake: MessageIntake
    /// The panels, whose boards may be kept.
    let panels: any PanelsQuery

    func add(to v1: AccessRoutes) {
        v1.on(.templates, .owner) { _, _ in Answer(["templates": try await intake.inbox.templates()]) }
        v1.on(.saveTemplate, .owner) { request, context in try await saveTemplate(request, name: context.parameter("name")) }
        v1.on(.saveTemplateFromBoard, .owner) { request, context in try await keepBoard(request, name: context.parameter("name")) }
        v1.on(.deleteTemplate, .owner) { _, context in
            let name = context.parameter("name")
            do { try await intake.inbox.deleteTemplate(name) } catch QuickMessageError.missing {
                throw APIError(.notFound, "no quick message called \(name)")
            }
            return Response(status: .noContent)
        }
        v1.on(.renameTemplate, .owner) { request, context in
            let name = context.parameter("name")
            let given = try await body(of: request)
            if case .tooLarge = given { throw APIError(.contentTooLarge, Responses.tooLarge(request)) }
            guard case .object(let object) = given, let to = object["to"]?.string else {
                throw APIError(.badRequest, "send {\"to\": \"NEW NAME\"}")
            }
            if let problem = QuickMessage.nameProblem(to) { throw APIError(.badRequest, "to: \(problem)") }
            do { try await intake.inbox.renameTemplate(name, to: to, now: intake.now()) } catch QuickMessageError.missing {
                throw APIError(.notFound, "no quick message called \(name)")
            } catch QuickMessageError.taken {
                throw APIError(.conflict, "a quick message is already called \(to)")
            }
            return Answer(["name": to])
        }
        v1.on(.sendTemplate, .owner) { request, context in
            let name = context.parameter("name")
            guard let template = try await intake.inbox.template(name) else { throw APIError(.notFound, "no quick message called \(name)") }
            // The sending may add a sender, an id or an expiry; the content is the template's.
            var fields: [String: JSONValue] = [:]
            switch try await body(of: request) {
            case .empty: break
            case .object(let given): fields = given
            case .tooLarge: throw APIError(.contentTooLarge, Responses.tooLarge(request))
            case .notAnObject:
                throw APIError(.badRequest, "send nothing, or a JSON object of what to add to the quick message: {\"sender\": {\"id\": \"kitchen\"}}")
            }
            let kept = template.fields
            let props = fields.removeValue(forKey: "props")
            // A quick message kept without a duration may be sent for a while.
            for key in QuickMessage.keptFields where key != "duration" || kept[key] != nil { fields[key] = kept[key] }
            // A VBML quick message takes props from its sending, over its own.
            if let props, props.object == nil { throw APIError(.badRequest, "props: must be an object of names and values") }
            if let given = props?.object, case .object(var document)? = fields["vbml"] {
                var merged = document["props"]?.object ?? [:]
                for (name, value) in given { merged[name] = value }
                document["props"] = .object(merged)
                fields["vbml"] = .object(document)
            }
            // Each sending is a message of its own (sent again, it shows again). To the
            // millisecond: a message made earlier in the same second is older, not newer.
            if fields["createdAt"] == nil {
                fields["createdAt"] = .string(intake.now().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            }
            // Its text's {{name}} take the board's date and time and the props sent.
            return try await IntakeAnswers.answer(
                intake.submit(fields: fields, source: .template, defaultSender: "quick-messages", placeholders: props?.object ?? [:]))
        }
    }

    private func saveTemplate(_ request: Request, name: String) async throws -> Answer<QuickMessage?> {
        if let problem = QuickMessage.nameProblem(name) { throw APIError(.badRequest, "name: \(problem)") }
        let object: [String: JSONValue]
        switch try await body(of: request) {
        case .object(let given): object = given
        case .tooLarge: throw APIError(.contentTooLarge, Responses.tooLarge(request))
        case .empty, .notAnObject:
            throw APIError(.badRequest, "send the message to keep as a JSON object: {\"text\": \"…\"} or {\"codes\": [[…]]}")
        }
        return try await keep(object, as: name)
    }

    /// `POST /v1/templates/{name}/from-board`: the codes a panel (`{"panel": ID}`, the first
    /// unless named) shows now, colours included, kept as quick message `name`: a schedule's,
    /// a source's, the Vestaboard mirror's or another app's board as well as a message's.
    private func keepBoard(_ request: Request, name: String) async throws -> Answer<QuickMessage?> {
        if let problem = QuickMessage.nameProblem(name) { throw APIError(.badRequest, "name: \(problem)") }
        var asked: String?
        switch try await body(of: request) {
        case .empty: break
        case .object(let given):
            if let panel = given["panel"] {
                guard let id = panel.string else { throw APIError(.badRequest, "panel: must be a panel's id, such as \"main\"") }
                asked = id
            }
        case .tooLarge: throw APIError(.contentTooLarge, Responses.tooLarge(request))
        case .notAnObject: throw APIError(.badRequest, "send nothing, or {\"panel\": \"ID\"} to keep another panel's board than the first")
        }
        let all = await panels.panels()
        guard let panel = asked.map({ id in all.first { $0.id == id } }) ?? all.first else {
            throw APIError(.notFound, "no panel \(asked ?? "") here; the panels are \(all.map(\.id).joined(separator: ", "))")
        }
        if panel.moving { throw APIError(.conflict, "panel \(panel.id) is still moving: keep its board once it rests") }
        if panel.board.codes.allSatisfy({ $0 == .blank }) { throw APIError(.conflict, "panel \(panel.id) is blank: there is nothing to keep") }
        let codes = panel.board.codeRows.map { JSONValue.array($0.map { .number(Double($0)) }) }
        return try await keep(["codes": .array(codes)], as: name)
    }

    /// Keeps `object`'s message fields as quick message `name`, checked as a message would be,
    /// so a quick message can always be sent; a {{name}} its sending's props will fill stands as
    /// its name meanwhile.
    private func keep(_ object: [String: JSONValue], as name: String) async throws -> Answer<QuickMessage?> {
        var parser = MessageParser(boardSize: intake.boardSize, flap62: intake.flap62, source: .template, defaultSender: "template")
        parser.localProps = intake.props(at: intake.now())
        parser.textPlaceholders = [:]
        parser.lenientPlaceholders = true
        do {
            _ = try parser.parse(object, now: intake.now())
        } catch {
            throw APIError(.badRequest, error.description, problems: error.problems.map { .init(field: $0.field, problem: $0.problem) })
        }
        let kept = object.filter { QuickMessage.keptFields.contains($0.key) }
        let data = try JSONEncoder().encode(kept)
        do {
            let created = try await intake.inbox.saveTemplate(name, fields: data, now: intake.now())
            return Answer(status: created ? .created : .ok, try await intake.inbox.template(name))
        } catch QuickMessageError.full {
            throw APIError(.conflict, "\(QuickMessage.most) quick messages are kept at most; delete one first")
        }
    }

    /// What a request's body holds, told apart so none of it is silently ignored.
    enum Body { case empty, object([String: JSONValue]), tooLarge, notAnObject }

    private func body(of request: Request) async throws -> Body {
        guard let body = try await Responses.body(of: request, limit: Responses.maximumBody) else { return .tooLarge }
        if body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .empty }
        return (try? JSONValue(parsing: body))?.object.map(Body.object) ?? .notAnObject
    }
}
