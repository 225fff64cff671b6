import FlapCore
import FlapPictures

/// The installed app's icons, drawn as the board draws itself: dark flaps with their split,
/// "VW" over a green and a yellow chip. The maskable icon has a ring of blank flaps around
/// them, so a launcher's circle or squircle crops flaps, never the letters.
enum AppIcons {
    static let any192 = png(side: 192, maskable: false)
    static let any512 = png(side: 512, maskable: false)
    static let maskable512 = png(side: 512, maskable: true)

    static func png(side: Int, maskable: Bool) -> [UInt8] {
        let rows: [[Int]] =
            maskable
            ? [[0, 0, 0, 0], [0, 22, 23, 0], [0, 66, 65, 0], [0, 0, 0, 0]]
            : [[22, 23], [66, 65]]
        // The codes above are fixed and valid, and the canvas fits them; nothing here can fail.
        let board = try! Board(codeRows: rows)
        let renderer = try! BoardRenderer(size: board.size, width: side, height: side, style: .screen)
        var frame = PixelFrame(width: side, height: side, colour: RenderStyle.screen.backdrop)
        renderer.draw(board, into: &frame)
        return try! BoardPNG.png(frame)
    }
}
