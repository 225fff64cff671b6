/// Text split into lines at LF, CRLF or a lone CR: RFC 5545 calendars and most text served over
/// HTTP end lines with CRLF, files from old Macs with CR. In Swift `"\r\n"` is one `Character`,
/// so `split(separator: "\n")` on a `String` leaves a CRLF file as one line: split here instead.
///
/// Every line is returned, empty ones too (the text after a final line break is one more, empty
/// line), so a line's index + 1 is its number in the file.
public enum LineBreaks {
    /// The lines of `bytes`, without their line breaks.
    public static func lines(of bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex, index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(bytes[start..<index])
                index += byte == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    /// The lines of `text`, without their line breaks.
    public static func lines(of text: some StringProtocol) -> [Substring] {
        let text = Substring(text)
        let scalars = text.unicodeScalars
        var lines: [Substring] = []
        var start = scalars.startIndex, index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\r" {
                lines.append(Substring(scalars[start..<index]))
                index = scalars.index(after: index)
                if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { index = scalars.index(after: index) }
                start = index
            } else {
                index = scalars.index(after: index)
            }
        }
        lines.append(Substring(scalars[start..<scalars.endIndex]))
        return lines
    }
}
