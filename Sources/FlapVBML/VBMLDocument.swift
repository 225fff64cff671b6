import FlapCore
import FlapJSON
import FoundationEssentials

/// What is wrong with a VBML document, and where: `components[1].style.width: 30 is wider than
/// the board (22)`.
public struct VBMLProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The field, as a path into the document (empty for the document itself).
    public var path: String
    /// What is wrong.
    public var message: String
    /// The path and the message.
    public var description: String { path.isEmpty ? message : "\(path): \(message)" }

    /// A problem at `path`.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    func at(_ prefix: String) -> VBMLProblem {
        VBMLProblem(path: path.isEmpty ? prefix : (path.hasPrefix("[") ? prefix + path : prefix + "." + path), message: message)
    }
}

/// A component's `style`.
public struct VBMLStyle: Sendable, Equatable {
    /// How a component's rows are placed across.
    public enum Justify: String, Sendable, CaseIterable { case left, right, center, justified }
    /// How a component's rows are placed down.
    public enum Align: String, Sendable, CaseIterable { case top, bottom, center, justified }

    /// Across: left unless said.
    public var justify: Justify = .left
    /// Down: top unless said.
    public var align: Align = .top
    /// Its rows; nil: the whole board's.
    public var height: Int?
    /// Its columns; nil: the whole board's.
    public var width: Int?
    /// Where the component's top left goes, when it is placed over the others.
    public var absolutePosition: (x: Int, y: Int)?

    /// Styles are equal when they place alike.
    public static func == (a: Self, b: Self) -> Bool {
        a.justify == b.justify && a.align == b.align && a.height == b.height && a.width == b.width
            && a.absolutePosition?.x == b.absolutePosition?.x && a.absolutePosition?.y == b.absolutePosition?.y
    }
}

/// One component of a document.
public struct VBMLComponent: Sendable {
    /// What a component draws.
    public enum Content: Sendable {
        /// A Mustache template of text and `{NN}` codes.
        case template(String)
        /// Codes as they are; a string is read as JSON after its props are filled in.
        case rawCharacters([[Int]])
        case rawCharactersTemplate(String)
        /// Colour chips chosen at random from `colors` (all eight when nil).
        case randomColors([Int]?)
        case calendar(VBMLCalendar)
    }

    /// What it draws.
    public var content: Content
    /// Where it is drawn.
    public var style: VBMLStyle
}

/// A VBML document: props for its templates, the board's size, and its components.
public struct VBMLDocument: Sendable {
    /// The values its templates may name.
    public var props: JSONValue
    /// The board the document is written for; nil for Vestaboard's Flagship (6×22).
    public var height: Int?
    /// Its columns; nil for Flagship's 22.
    public var width: Int?
    /// Its parts, drawn in order.
    public var components: [VBMLComponent]

    /// `json` as text with its keys in order: the same document, the same text (for repeat keys
    /// and random colours' seeds).
    public static func canonical(_ json: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(json)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Reads `json`, naming the field of anything it cannot take.
    public init(json: JSONValue) throws(VBMLProblem) {
        guard let fields = json.object else { throw VBMLProblem(path: "", message: "a VBML document is a JSON object with \"components\"") }
        props = fields["props"] ?? .object([:])
        if !props.isNull, props.object == nil { throw VBMLProblem(path: "props", message: "must be an object of names and values") }
        if props.isNull { props = .object([:]) }
        let style = fields["style"]?.object
        if let given = fields["style"], !given.isNull, style == nil {
            throw VBMLProblem(path: "style", message: "must be an object such as {\"height\": 6, \"width\": 22}")
        }
        height = try Self.size(style?["height"], path: "style.height")
        width = try Self.size(style?["width"], path: "style.width")
        guard let list = fields["components"]?.array else {
            throw VBMLProblem(
                path: "components", message: "required: a list of components (each a template, rawCharacters, randomColors or calendar)")
        }
        var components: [VBMLComponent] = []
        for (index, item) in list.enumerated() {
            do throws(VBMLProblem) {
                components.append(try Self.component(item))
            } catch {
                throw error.at("components[\(index)]")
            }
        }
        self.components = components
    }

    /// A height or width: a whole number of 1 or more, or nothing (0 too, as Vestaboard's renderer reads it).
    static func size(_ value: JSONValue?, path: String) throws(VBMLProblem) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.int, number >= 0 else {
            throw VBMLProblem(path: path, message: "must be a whole number of 1 or more, not \(value.text)")
        }
        return number == 0 ? nil : number
    }

    static func component(_ json: JSONValue) throws(VBMLProblem) -> VBMLComponent {
        guard let fields = json.object else {
            throw VBMLProblem(path: "", message: "must be an object with a template, rawCharacters, randomColors or calendar")
        }
        let style = try Self.style(fields["style"])
        if let raw = fields["rawCharacters"] {
            if let text = raw.string { return VBMLComponent(content: .rawCharactersTemplate(text), style: style) }
            return VBMLComponent(content: .rawCharacters(try Self.codeRows(raw, path: "rawCharacters")), style: style)
        }
        if let random = fields["randomColors"] {
            guard let options = random.object else {
                throw VBMLProblem(path: "randomColors", message: "must be an object, {} or {\"colors\": [63, 66]}")
            }
            var colours: [Int]?
            if let given = options["colors"], !given.isNull {
                guard let list = given.array, !list.isEmpty else {
                    throw VBMLProblem(path: "randomColors.colors", message: "must be a list of character codes")
                }
                colours = try list.enumerated().map { (index, value) throws(VBMLProblem) in
                    try Self.code(value, path: "randomColors.colors[\(index)]")
                }
            }
            return VBMLComponent(content: .randomColors(colours), style: style)
        }
        if let calendar = fields["calendar"] {
            return VBMLComponent(content: .calendar(try Self.calendar(calendar)), style: style)
        }
        if let template = fields["template"] {
            guard let text = template.string else {
                throw VBMLProblem(path: "template", message: "must be a string of text, {{props}} and {NN} codes")
            }
            return VBMLComponent(content: .template(text), style: style)
        }
        return VBMLComponent(content: .template(""), style: style)
    }

    static func style(_ json: JSONValue?) throws(VBMLProblem) -> VBMLStyle {
        guard let json, !json.isNull else { return VBMLStyle() }
        guard let fields = json.object else { throw VBMLProblem(path: "style", message: "must be an object") }
        var style = VBMLStyle()
        if let value = fields["justify"], !value.isNull {
            guard let name = value.string, let justify = VBMLStyle.Justify(rawValue: name) else {
                throw VBMLProblem(path: "style.justify", message: "\(value.text) is not left, right, center or justified")
            }
            style.justify = justify
        }
        if let value = fields["align"], !value.isNull {
            // "absolute" is aligned as the centre is, as Vestaboard's renderer does.
            guard let name = value.string, let align = name == "absolute" ? .center : VBMLStyle.Align(rawValue: name) else {
                throw VBMLProblem(path: "style.align", message: "\(value.text) is not top, bottom, center, justified or absolute")
            }
            style.align = align
        }
        style.height = try size(fields["height"], path: "style.height")
        style.width = try size(fields["width"], path: "style.width")
        if let value = fields["absolutePosition"], !value.isNull {
            guard let position = value.object else {
                throw VBMLProblem(path: "style.absolutePosition", message: "must be an object such as {\"x\": 0, \"y\": 3}")
            }
            func coordinate(_ name: String) throws(VBMLProblem) -> Int {
                guard let given = position[name], !given.isNull else { return 0 }
                guard let number = given.int, number >= 0 else {
                    throw VBMLProblem(path: "style.absolutePosition.\(name)", message: "must be a whole number of 0 or more, not \(given.text)")
                }
                return number
            }
            style.absolutePosition = (try coordinate("x"), try coordinate("y"))
        }
        return style
    }

    static func code(_ value: JSONValue, path: String) throws(VBMLProblem) -> Int {
        guard let number = value.int, VBMLCharacters.valid.contains(number) else {
            throw VBMLProblem(path: path, message: "\(value.text) is not a character code the board has (0 to 71)")
        }
        return number
    }

    static func codeRows(_ value: JSONValue, path: String) throws(VBMLProblem) -> [[Int]] {
        guard let rows = value.array else { throw VBMLProblem(path: path, message: "must be a list of rows of character codes") }
        return try rows.enumerated().map { (row, item) throws(VBMLProblem) in
            guard let cells = item.array else { throw VBMLProblem(path: "\(path)[\(row)]", message: "must be a list of character codes") }
            return try cells.enumerated().map { (column, cell) throws(VBMLProblem) in try code(cell, path: "\(path)[\(row)][\(column)]") }
        }
    }

    static func calendar(_ json: JSONValue) throws(VBMLProblem) -> VBMLCalendar {
        guard let fields = json.object else { throw VBMLProblem(path: "calendar", message: "must be an object with month and year") }
        // Vestaboard's renderer reads month and year with parseInt: numbers or strings of digits.
        func whole(_ name: String) throws(VBMLProblem) -> Int {
            let given = fields[name]
            if let number = given?.int { return number }
            if let text = given?.string, let number = Int(text.trimmed) { return number }
            throw VBMLProblem(path: "calendar.\(name)", message: "required: a whole number" + (given.map { ", not \($0.text)" } ?? ""))
        }
        var calendar = VBMLCalendar(month: try whole("month"), year: try whole("year"))
        guard (1...12).contains(calendar.month) else {
            throw VBMLProblem(path: "calendar.month", message: "must be from 1 to 12, not \(calendar.month)")
        }
        guard (1000...9999).contains(calendar.year) else {
            throw VBMLProblem(path: "calendar.year", message: "must have four digits, not \(calendar.year)")
        }
        if let colour = fields["defaultDayColor"], !colour.isNull {
            let code = try Self.code(colour, path: "calendar.defaultDayColor")
            if code != 0 { calendar.dayColour = code }
        }
        if let days = fields["days"], !days.isNull {
            guard let entries = days.object else {
                throw VBMLProblem(path: "calendar.days", message: "must be an object of days and colours, such as {\"25\": 63}")
            }
            for (key, colour) in entries.sorted(by: { $0.key < $1.key }) {
                guard let day = Int(key.trimmed), day >= 1 else {
                    throw VBMLProblem(path: "calendar.days.\(key)", message: "\(key) is not a day of the month")
                }
                calendar.days.append((day, try Self.code(colour, path: "calendar.days.\(key)")))
            }
        }
        for (name, keyPath) in [("hideSMTWTFS", \VBMLCalendar.hideDaysOfWeek), ("hideDates", \.hideDates), ("hideMonthYear", \.hideMonthYear)] {
            if let flag = fields[name], !flag.isNull {
                guard let value = flag.bool else { throw VBMLProblem(path: "calendar.\(name)", message: "must be true or false") }
                calendar[keyPath: keyPath] = value
            }
        }
        return calendar
    }
}
