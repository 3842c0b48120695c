import Foundation
import PluginAPI

/// Writes a line to standard error, with the control and bidirectional formatting characters of what a source wrote
/// in it made visible (``VisibleText``).
func printError(_ line: String) {
    FileHandle.standardError.write(Data((VisibleText.escaping(line) + "\n").utf8))
}

/// Writes a line to standard output, made visible as ``printError(_:)`` does: every line the commands print goes
/// through here (it is chosen over the standard library's `print` for a single string), so an item's title or a
/// program's error never reaches the terminal as escape sequences. JSON output escapes them itself.
func print(_ line: String) {
    Swift.print(VisibleText.escaping(line))
}
