import Testing

@testable import FlapCore

/// Flap 62 as the board has it: a heart (Notes, Flagships from 2026) or a degree sign (older
/// Flagships). Text is laid out for it, so `20°C` never shows a heart, and every drawing of the
/// board shows the flap the board has.
@Suite struct Flap62Tests {
    func laidOut(_ text: String, _ flap62: Flap62, substitutions: Bool = true) throws -> LaidOutText {
        var options = LayoutOptions()
        options.valign = nil
        options.maxRows = 1
        options.align = .left
        options.substitutions = substitutions
        options.flap62 = flap62
        return try TextLayout.encodeText(text, options: options)
    }

    func shown(_ laid: LaidOutText, _ flap62: Flap62) throws -> String {
        var board = try #require(laid.board)
        board.flap62 = flap62
        return String(board.lines[0].reversed().drop { $0 == " " }.reversed())
    }

    @Test func aDegreeBoardShowsTheDegreeSignAndAHeartAsARedTile() throws {
        let temperature = try laidOut("20°C", .degree)
        #expect(try shown(temperature, .degree) == "20°C" && temperature.warnings.isEmpty)
        let love = try laidOut("I ♥ NY", .degree)
        #expect(try shown(love, .degree) == "I r NY")
        #expect(love.warnings.map(\.description) == ["line 1, position 3: '♥' shown as '{red}'"])
    }

    @Test func aHeartBoardShowsTheHeartAndLeavesTheDegreeSignOut() throws {
        let temperature = try laidOut("20°C", .heart)
        #expect(try shown(temperature, .heart) == "20C")
        #expect(temperature.warnings.map(\.description) == ["line 1, position 3: '°' is not shown: this board's flap 62 is a heart"])
        let love = try laidOut("I ♥ NY", .heart)
        #expect(try shown(love, .heart) == "I ♥ NY")
        #expect(love.codes.contains(.degree))
        // ℃ folds to °C elsewhere; here its degree sign would be a heart.
        #expect(try shown(try laidOut("5℃", .heart), .heart) == "5C")
        // An escape is the sender's own choice of flap.
        #expect(try shown(try laidOut("{62}", .heart), .heart) == "♥")
    }

    @Test func withoutSubstitutionsAHeartBoardRefusesTheDegreeSignAndSaysWhy() throws {
        let error = #expect(throws: LayoutError.self) { try laidOut("20°C", .heart, substitutions: false) }
        #expect(error?.description == "line 1, position 3: unsupported character: ° (this board's flap 62 is a heart)")
        #expect(try shown(try laidOut("20°C", .degree, substitutions: false), .degree) == "20°C")
    }

    @Test func aDrumStringSaysItsFlap62AndABoardTakesItFromTheDrum() throws {
        let hearts = try Drum(string: " ABC♥", name: "hearts"), degrees = try Drum(string: " ABC°", name: "degrees")
        #expect(hearts.flap62 == .heart && degrees.flap62 == .degree && Drum.vestaboard.flap62 == nil)
        #expect(hearts.string == " ABC♥" && degrees.string == " ABC°")
        let board = Board(size: BoardSize(rows: 1, columns: 2), positions: [4, 1], drum: hearts)
        #expect(board.lines == ["♥A"])
        // With nothing said, the board's size decides: a Note's heart, anything else's degree.
        #expect(Board(size: .note, positions: [Drum.vestaboard.index(of: .degree)!], drum: .vestaboard).lines[0].first == "♥")
        #expect(Board(size: .flagship, positions: [Drum.vestaboard.index(of: .degree)!], drum: .vestaboard).lines[0].first == "°")
    }

    @Test func boardsAreEqualByWhatTheyShowNotHowFlap62IsDrawn() throws {
        var heart = Board(size: .flagship, fill: .degree)
        heart.flap62 = .heart
        let degree = Board(size: .flagship, fill: .degree)
        #expect(heart == degree && heart.hashValue == degree.hashValue)
        #expect(heart.lines[0].first == "♥" && degree.lines[0].first == "°")
        #expect(BoardText.plain(heart).contains("│♥") && BoardSVG.document(heart).contains(">♥</text>"))
        #expect(BoardBitmap.draw(heart) != BoardBitmap.draw(degree))
    }
}
