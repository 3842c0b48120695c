/// Text a source wrote, made safe to show to a person: control characters and the bidirectional formatting
/// characters become visible escapes (`\u{202E}`), so a title or a program's error can neither drive a terminal
/// (ESC, OSC, BEL: a window title changed, a screen cleared) nor reverse the text around it on a page (U+202E,
/// right-to-left override). Line breaks and tabs are kept or escaped as the caller says; every other character,
/// joiners and marks included, is shown as it is.
public enum VisibleText {
    /// `text` with every control character (C0 but the line breaks and tabs kept, DEL, C1) and every bidirectional
    /// formatting character (U+061C, U+200E–200F, U+202A–202E, U+2066–2069) written as `\u{…}`.
    public static func escaping(_ text: String, keepingLineBreaks: Bool = true) -> String {
        guard needsEscape(text, keepingLineBreaks: keepingLineBreaks) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isHidden(scalar, keepingLineBreaks: keepingLineBreaks) {
                shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                shown.append(scalar)
            }
        }
        return String(shown)
    }

    private static func isHidden(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLineBreaks
        case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E...0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether any byte may start a hidden character: ASCII controls and the lead bytes of the others (0xC2 for C1,
    /// 0xD8 for U+061C, 0xE2 for the U+2000 block); most text has none and is returned as it is.
    private static func needsEscape(_ text: String, keepingLineBreaks: Bool) -> Bool {
        text.utf8.contains { byte in
            (byte < 0x20 && !(keepingLineBreaks && (byte == 0x0A || byte == 0x09))) || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
        }
    }
}
