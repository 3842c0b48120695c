import Foundation
import PluginAPI

/// The environment a command plugin runs with: never the scheduler's own, which holds the admin token and
/// whatever credentials the host gave the service.
///
/// A program sees `PATH`, `HOME`, `LANG` and `TZ` (copied when set), the `SCHEDULER_SOURCE`, `SCHEDULER_PARTITION`,
/// `SCHEDULER_UNIT` and `SCHEDULER_DOMAIN` of its unit, and what the source's `env:` option names: a value, or
/// `{ fromEnvironment: NAME }` to pass one variable of the scheduler's environment on purpose.
enum PluginEnvironment {
    /// Variables copied from the scheduler's environment for every program.
    static let inherited = ["PATH", "HOME", "LANG", "TZ"]
    /// Variables no `env:` entry may pass on.
    static let neverPassed: Set = ["SCHEDULER_ADMIN_TOKEN"]

    /// One entry of the `env:` option.
    enum Value: Decodable, Sendable, Equatable {
        case value(String)
        case fromEnvironment(String)

        private enum Keys: String, CodingKey { case fromEnvironment }

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                self = .value(text)
                return
            }
            let container = try decoder.container(keyedBy: Keys.self)
            self = .fromEnvironment(try container.decode(String.self, forKey: .fromEnvironment))
        }
    }

    /// The `env:` option's problem, if it has one: a name that is not a variable name, a reserved name, or the
    /// admin token.
    static func problem(in entries: [String: Value]) -> String? {
        for (name, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard isVariableName(name) else { return "'\(name.prefix(64))' is not an environment variable name (letters, digits, '_')" }
            guard !name.hasPrefix("SCHEDULER_") else { return "\(name): names starting with SCHEDULER_ are set by the scheduler" }
            if case .fromEnvironment(let source) = value {
                guard isVariableName(source) else { return "\(name): fromEnvironment '\(source.prefix(64))' is not a variable name" }
                guard !neverPassed.contains(source) else { return "\(name): \(source) is never passed to plugins" }
            }
        }
        return nil
    }

    /// The environment for a program of `context`'s unit run as `user` (whose home is its `HOME`), reading `from`
    /// for inherited and named variables; throws when a variable `env:` names is not set.
    static func make(_ entries: [String: Value], context: PluginContext, user: SystemUser? = nil, from host: [String: String]) throws -> [String: String] {
        var environment = host.filter { inherited.contains($0.key) }
        if let user { environment["HOME"] = user.home }
        if environment["PATH"] == nil { environment["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        for (name, value) in entries {
            switch value {
            case .value(let text): environment[name] = text
            case .fromEnvironment(let source):
                guard let text = host[source] else {
                    throw CommandRun.Failure(description: "env \(name): \(source) is not set in the scheduler's environment")
                }
                environment[name] = text
            }
        }
        environment["SCHEDULER_SOURCE"] = context.source
        environment["SCHEDULER_PARTITION"] = context.partition ?? ""
        environment["SCHEDULER_UNIT"] = context.unit
        environment["SCHEDULER_DOMAIN"] = context.domain
        return environment
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first), name.utf8.count <= 128 else { return false }
        return name.utf8.allSatisfy { ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
    }
}
