import CQRencode
import Glibc
import SystemPackage

/// A QR code of a text (a link), made by Debian's libqrencode, drawn in the terminal (flapctl
/// pair and invite) or as SVG (the page). Error correction M: a code shown on a screen, not worn.
public struct QRCode: Sendable, Equatable {
    /// The modules, row by row; true is dark.
    public let modules: [[Bool]]
    /// How many modules a side (the modules' rows and columns).
    public var width: Int { modules.count }

    /// The quiet zone around the code, in modules, that readers need (ISO 18004 asks for 4).
    public static let quietZone = 4

    /// The QR code of `text` (libqrencode, error correction M), or what is wrong.
    public init(_ text: String) throws(QRCodeError) {
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw QRCodeError(
                text.utf8.count > 2000
                    ? "the link is too long for a QR code (\(text.utf8.count) bytes)"
                    : "libqrencode could not encode the link: \(Errno(rawValue: errno))")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }

    /// Whether the module at (`row`, `column`) is dark; outside the code (its quiet zone), light.
    func dark(_ row: Int, _ column: Int) -> Bool {
        row >= 0 && row < width && column >= 0 && column < width && modules[row][column]
    }

    /// The code in Unicode half blocks, two rows a line, light modules drawn (`█`, `▀`, `▄`) and
    /// dark ones left blank: on a terminal's usual dark background that is dark on light, with its
    /// quiet zone of 2 modules (terminals' own margins add the rest).
    public func terminalText(quietZone: Int = 2) -> String {
        var lines: [String] = []
        let range = -quietZone..<(width + quietZone)
        for top in stride(from: -quietZone, to: width + quietZone, by: 2) {
            var line = ""
            for column in range {
                let upperLight = !dark(top, column)
                let lowerLight = top + 1 < width + quietZone ? !dark(top + 1, column) : false
                line += upperLight ? (lowerLight ? "█" : "▀") : (lowerLight ? "▄" : " ")
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The code as an SVG image, dark modules on white, one path, scaled by the page.
    public func svg(title: String) -> String {
        let size = width + 2 * Self.quietZone
        var path = ""
        for row in 0..<width {
            var column = 0
            while column < width {
                guard modules[row][column] else { column += 1; continue }
                let start = column
                while column < width, modules[row][column] { column += 1 }
                path += "M\(start + Self.quietZone) \(row + Self.quietZone)h\(column - start)v1h-\(column - start)z"
            }
        }
        let escaped = title.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(size) \(size)" role="img" aria-label="QR code: \(escaped)" shape-rendering="crispEdges">\
            <rect width="\(size)" height="\(size)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}

/// Why no QR code could be made.
public struct QRCodeError: Error, CustomStringConvertible, Equatable {
    /// What went wrong, in words.
    public var description: String
    init(_ description: String) { self.description = description }
}
