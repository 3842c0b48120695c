import Foundation
import Yams

/// Reads `store.sqlite.path` from `scheduler.yaml`, resolved against the file's folder.
enum StoreLocation {
    static func databasePath(configDirectory: String) throws -> String {
        let file = URL(fileURLWithPath: configDirectory).appendingPathComponent("scheduler.yaml")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw UserError("cannot read \(file.path): pass --config DIR (a folder holding scheduler.yaml) or --database PATH")
        }
        let document: Any?
        do {
            document = try Yams.load(yaml: text)
        } catch {
            throw UserError("\(file.path): \(error)")
        }
        guard let root = document as? [String: Any], let store = root["store"] as? [String: Any],
            let sqlite = store["sqlite"] as? [String: Any], let path = sqlite["path"] as? String, !path.isEmpty
        else {
            throw UserError("\(file.path): no store.sqlite.path; name the database file there, or pass --database PATH")
        }
        if path.hasPrefix("/") { return path }
        return file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.path
    }
}
