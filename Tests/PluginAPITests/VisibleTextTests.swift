import PluginAPI
import Testing

/// ``VisibleText``: what a source wrote, shown to a person without driving a terminal or reordering a line.
@Suite("Visible text")
struct VisibleTextTests {
    @Test func controlsAndFormatCharactersBecomeVisibleEscapes() {
        #expect(VisibleText.escaping("title\u{1B}]0;pwned\u{07}") == #"title\u{1B}]0;pwned\u{7}"#)
        #expect(VisibleText.escaping("abc\u{202E}fed") == #"abc\u{202E}fed"#)
        #expect(VisibleText.escaping("a\u{2066}b\u{2069}\u{200F}\u{061C}\u{FEFF}\u{2028}\u{9B}") == #"a\u{2066}b\u{2069}\u{200F}\u{61C}\u{FEFF}\u{2028}\u{9B}"#)
        #expect(VisibleText.escaping("two\nlines\tand a tab") == "two\nlines\tand a tab")
        #expect(VisibleText.escaping("two\nlines", keepingLineBreaks: false) == #"two\u{A}lines"#)
    }

    @Test func textThatShapesWithoutMovingIsShownAsItIs() {
        // A family emoji (joiners), Persian with a non-joiner, a soft hyphen, Scotland's flag (tags), accents, CJK.
        for text in ["👨‍👩‍👧", "می‌خواهم", "Silben\u{AD}trennung", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "Délais de livraison", "한국어", "plain ASCII"] {
            #expect(VisibleText.escaping(text) == text, "\(text)")
        }
    }
}
