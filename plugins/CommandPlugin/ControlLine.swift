import Foundation
import PluginAPI

/// A line of a program's output that is not an item (docs/plugin-protocol.md): `{"delete": "ID"}`, `{"state": VALUE}`,
/// or `{"check": {"ok": BOOL, "message": "…"}}`, each an object of that one key.
enum ControlLine: Equatable {
    case delete(String)
    case state(SyncState)
    case check(PluginCheck)

    /// A line whose first key names a control line but which is not one.
    struct Invalid: Error {
        var reason: String
    }

    /// The keys of control lines.
    static let keys: Set<String> = ["delete", "state", "check"]

    /// The control line `bytes` hold; `nil` when the line's first key is none of ``keys`` (an item, or not JSON: the
    /// item reader says which). Throws when the first key is one but the line is not that control line.
    static func parse(_ bytes: [UInt8]) throws(Invalid) -> ControlLine? {
        guard let (key, keyEnd) = firstKey(of: bytes), keys.contains(key) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? [String: Any] else {
            throw Invalid(reason: "a \(key) line must be one JSON object")
        }
        guard object.count == 1 else {
            throw Invalid(reason: "a \(key) line holds the key '\(key)' alone (got \(object.keys.sorted().joined(separator: ", ")))")
        }
        switch key {
        case "delete":
            guard let identifier = object[key] as? String else { throw Invalid(reason: "a delete line names an identifier: {\"delete\": \"ID\"}") }
            return .delete(identifier)
        case "state":
            guard let value = object[key], !(value is NSNull) else {
                throw Invalid(reason: "a state line holds one JSON value other than null: {\"state\": VALUE}")
            }
            // The value's own bytes, as written (the object holds that one key: they run from its colon to the last brace).
            let blanks: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
            var start = bytes.index(after: keyEnd)
            while start < bytes.endIndex, blanks.contains(bytes[start]) || bytes[start] == UInt8(ascii: ":") { start += 1 }
            var end = bytes.endIndex
            while end > start, blanks.contains(bytes[end - 1]) { end -= 1 }
            guard end > start, bytes[end - 1] == UInt8(ascii: "}") else { throw Invalid(reason: "a state line must be one JSON object") }
            end -= 1
            while end > start, blanks.contains(bytes[end - 1]) { end -= 1 }
            do {
                return .state(try SyncState(json: Data(bytes[start..<end])))
            } catch {
                throw Invalid(reason: error.description)
            }
        default:
            guard let fields = object[key] as? [String: Any], let ok = fields["ok"] as? Bool, let message = fields["message"] as? String else {
                throw Invalid(reason: "a check line is {\"check\": {\"ok\": true or false, \"message\": \"…\"}}")
            }
            return .check(PluginCheck(ok: ok, message: String(message.prefix(4096))))
        }
    }

    /// The first key of the JSON object `bytes` start with (after blanks), when it is written without escapes, and the
    /// index of its closing quote.
    private static func firstKey(of bytes: [UInt8]) -> (key: String, end: Int)? {
        var index = bytes.startIndex
        func skipBlanks() { while index < bytes.endIndex, [0x20, 0x09, 0x0D, 0x0A].contains(bytes[index]) { index += 1 } }
        skipBlanks()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        skipBlanks()
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        guard let end = bytes[start...].prefix(16).firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
              bytes[end] == UInt8(ascii: "\"") else { return nil }
        return (String(decoding: bytes[start..<end], as: UTF8.self), end)
    }
}

/// The last state, in a file of its own for the program to read (`SCHEDULER_STATE_FILE`): in a private folder that
/// only the program's account can read, removed when the run ends.
struct StateFile {
    let folder: URL
    var path: String { folder.appendingPathComponent("state.json").path }

    init(state: SyncState, readableBy user: SystemUser?) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("scheduler-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        do {
            guard FileManager.default.createFile(atPath: path, contents: state.json, attributes: [.posixPermissions: 0o600]) else {
                throw CommandRun.Failure(description: "cannot write the state file in \(folder.path)")
            }
            if let user {
                for file in [folder.path, path] where chown(file, user.uid, user.gid) != 0 {
                    throw CommandRun.Failure(description: "cannot give the state file to \(user.name): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            remove()
            throw error
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
