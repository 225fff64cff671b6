import FlapCore

/// A template's text on a component's lines, as Vestaboard's renderer breaks it: spaces become
/// `{0}` codes, `{…}` codes count as one cell, words longer than the line are cut into pieces,
/// a line break ends a line and two in a row leave an empty one. Text is UTF-16, as there.
enum VBMLText {
    typealias Units = [UInt16]

    static let open: UInt16 = 0x7B, close: UInt16 = 0x7D, newline: UInt16 = 0x0A, space: UInt16 = 0x20
    static let blankCode: Units = Array("{0}".utf16)

    static func isCode(_ word: Units) -> Bool { word.first == open && word.last == close }

    /// The words: `{…}` codes (the shortest run from `{` to `}`), line breaks and runs of other
    /// characters, the runs cut to at most `width` units.
    static func words(_ text: Units, width: Int) -> [Units] {
        var spaced: Units = []
        for unit in text { if unit == space { spaced += blankCode } else { spaced.append(unit) } }
        var pieces: [Units] = []
        var run: Units = []
        var index = 0
        func endRun() {
            if !run.isEmpty { pieces.append(run); run = [] }
        }
        while index < spaced.count {
            let unit = spaced[index]
            if unit == open, let end = spaced[(index + 1)...].firstIndex(where: { $0 == close || $0 == newline }), spaced[end] == close {
                endRun()
                pieces.append(Array(spaced[index...end]))
                index = end + 1
                continue
            }
            if unit == newline {
                endRun()
                pieces.append([newline])
            } else {
                run.append(unit)
            }
            index += 1
        }
        endRun()
        return pieces.flatMap { piece -> [Units] in
            guard !isCode(piece), piece.count > width, width > 0 else { return [piece] }
            return stride(from: 0, to: piece.count, by: width).map { Array(piece[$0..<min($0 + width, piece.count)]) }
        }
    }

    /// The words put on lines of `width` cells.
    static func lines(_ words: [Units], width: Int) -> [Units] {
        var lines: [(text: Units, length: Int)] = [([], 0)]
        for (index, word) in words.enumerated() {
            let last = lines.count - 1
            let length = lines[last].length
            if word == [newline] {
                if index > 0, words[index - 1] == [newline] {
                    lines.append(([], 0))
                } else {
                    lines[last].length = width  // the line is finished
                }
                continue
            }
            if isCode(word) {
                if 1 + length > width {
                    // A space that would begin a line is dropped.
                    if word == blankCode { continue }
                    lines.append((word, 1))
                } else {
                    lines[last] = (lines[last].text + word, length + 1)
                }
                continue
            }
            if width >= word.count + length, !lines[last].text.isEmpty {
                lines[last] = (lines[last].text + word, length + word.count)
            } else {
                lines.append((word, word.count))
            }
        }
        return (lines[0].text.isEmpty ? Array(lines.dropFirst()) : lines).map(\.text)
    }

    /// A line's codes; nil where the renderer finds no code (a lone surrogate), which shows as a
    /// blank but is not trimmed as one. `{N}` and `{NN}` are codes; any other use of `{` is an
    /// error, as there.
    static func codes(_ line: Units) throws(VBMLProblem) -> [Int?] {
        var result: [Int?] = []
        var inCode = false, skipNext = false
        for (index, unit) in line.enumerated() {
            var code: Int?? = nil
            if inCode {
                let next = index + 1 < line.count ? line[index + 1] : nil
                let digits: Units = next == close ? [unit] : [unit] + (next.map { [$0] } ?? [])
                code = .some(try validCode(digits, complete: next != nil))
            }
            if !(unit == open || unit == close || skipNext) {
                result.append(inCode ? (code ?? nil) : VBMLCharacters.codes[unit])
            }
            skipNext = inCode && (index + 1 >= line.count || line[index + 1] != close)
            inCode = unit == open
        }
        return result
    }

    /// JavaScript's `+text` for one or two units, as a code the board has.
    static func validCode(_ units: Units, complete: Bool) throws(VBMLProblem) -> Int {
        let text = String(decoding: units, as: UTF16.self)
        var number = text.trimmed
        if number.isEmpty { number = "0" }
        if number.count == 2, number.hasSuffix("."), number.first?.isASCII == true { number.removeLast() }  // "1." is 1
        guard complete, let value = Int(number), VBMLCharacters.valid.contains(value) else {
            throw VBMLProblem(path: "", message: "{\(text.prefix(2))…} is not a character code the board has (0 to 71)")
        }
        return value
    }
}
