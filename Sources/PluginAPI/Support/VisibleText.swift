/// Text a source wrote, made safe to show to a person: control characters and the bidirectional formatting
/// characters become visible escapes (`\u{202E}`), so a title or a program's error can neither drive a terminal
/// (ESC, OSC, BEL: a window title changed, a screen cleared) nor reverse the text around it on a page (U+202E,
/// right-to-left override). Line breaks and tabs are kept or escaped as the caller says; every other character,
/// joiners and marks included, is shown as it is.
public enum VisibleText {
    /// `text` with every control character (C0 but the line breaks and tabs kept, DEL, C1), the line and paragraph
    /// separators (U+2028, U+2029) and every format character (the bidirectional ones, U+061C, U+200E–200F,
    /// U+202A–202E, U+2066–2069, among them; but the joiners U+200C–200D, the soft hyphen and the emoji tags, which
    /// shape text without moving it) written as `\u{…}`.
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
        case 0x0A, 0x09: return !keepingLineBreaks
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029: return true
        case 0x00AD, 0x200C, 0x200D, 0xE0020...0xE007F: return false
        default: return scalar.properties.generalCategory == .format
        }
    }

    /// Whether `text` may hold a hidden character: an ASCII control, or any character past U+007F (the control
    /// and format characters above it are looked at one by one); ASCII text is returned as it is, without a copy.
    private static func needsEscape(_ text: String, keepingLineBreaks: Bool) -> Bool {
        text.utf8.contains { byte in
            (byte < 0x20 && !(keepingLineBreaks && (byte == 0x0A || byte == 0x09))) || byte >= 0x7F
        }
    }
}
