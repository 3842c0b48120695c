import Foundation
import Synchronization

/// The last lines a program wrote on standard error, said in the error of a run that failed (where `status`, history
/// and the status page show it: the reason is rarely "exited with status 1" but what the program said before).
/// Bounded: the last 20 lines and 4 KB, each line 512 bytes at most; terminal escapes and control characters
/// removed; the values of the source's `env:` (4 bytes or longer) replaced by `[redacted]`.
final class StandardErrorTail: Sendable {
    static let maxLines = 20
    static let maxBytes = 4096
    static let maxLineBytes = 512

    /// Longest first, so that a secret holding another is redacted whole.
    private let secrets: [String]
    /// The last lines as written, each cut at 2 KB: cleaned only when the excerpt is asked for (a run that fails),
    /// never line by line while a program writes.
    private let lines = Mutex<[[UInt8]]>([])

    init(redacting secrets: some Sequence<String>) {
        self.secrets = Set(secrets.filter { $0.utf8.count >= 4 }).sorted { $0.utf8.count > $1.utf8.count }
    }

    /// Keeps `bytes`, one line of standard error; a blank line is not kept.
    func append(_ bytes: [UInt8]) {
        guard bytes.contains(where: { $0 > 0x20 }) else { return }
        let kept = Array(bytes.prefix(2048))
        lines.withLock { lines in
            lines.append(kept)
            // Room for lines that clean to nothing (escapes, control characters only).
            if lines.count > 2 * Self.maxLines { lines.removeFirst(lines.count - 2 * Self.maxLines) }
        }
    }

    /// Notes a line too long to be read.
    func appendOmitted(byteCount: Int) {
        append(Array("[a line of \(byteCount) bytes]".utf8))
    }

    /// `; its last words on standard error: "…" ⏎ "…"`, or nothing when it wrote none.
    var excerpt: String {
        var kept = Array(lines.withLock { $0 }.map { clean(String(decoding: $0, as: UTF8.self)) }.filter { !$0.isEmpty }.suffix(Self.maxLines))
        while kept.count > 1, kept.reduce(0, { $0 + $1.utf8.count + 3 }) > Self.maxBytes { kept.removeFirst() }
        guard !kept.isEmpty else { return "" }
        return "; its last words on standard error: " + kept.joined(separator: " ⏎ ")
    }

    private func clean(_ text: String) -> String {
        var text = redacted(text)
        // Terminal escapes (colours, cursor moves) go whole; then every other control character.
        text = text.replacing(#/\x1B\[[0-?]*[ -\/]*[@-~]/#, with: "")
        text = String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\t" ? " " : $0 }.filter { $0.properties.generalCategory != .control }))
        text = redacted(text).trimmingCharacters(in: .whitespaces)
        guard text.utf8.count > Self.maxLineBytes else { return text }
        var cut = text.utf8.index(text.utf8.startIndex, offsetBy: Self.maxLineBytes)
        while !text.unicodeScalars.indices.contains(cut) { cut = text.utf8.index(before: cut) }
        return String(text[..<cut]) + "…"
    }

    /// `bytes`, one line as the log shows it: the values of the source's `env:` redacted (nothing else is done, so a
    /// program writing fast costs a search per secret, and nothing when the source has none).
    func logLine(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return secrets.isEmpty ? text : redacted(text)
    }

    private func redacted(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "[redacted]") }
    }
}
