import Foundation
import ProcessSupport
import Testing

/// A static site generator installed on the machine (Debian's `jekyll`, `hugo`), run on a fixture site: the pages it
/// wrote, and the `id`s it gave their headings, are what the posts plugin's URLs and anchors are compared with.
/// Without the generator the test fails and says what to install (`.ci/run` does).
struct GeneratorOracle {
    let executable: String
    let name: String

    struct Missing: Error, CustomStringConvertible {
        var name: String
        var description: String { "\(name) is not installed: apt-get install -y \(name) (.ci/run does)" }
    }

    init(_ name: String) throws {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let executable = folders.map({ "\($0)/\(name)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Missing(name: name)
        }
        self.executable = executable
        self.name = name
    }

    /// Builds the site with `arguments`, which name its source and destination; fails the test on a non-zero exit.
    func build(_ arguments: [String], in folder: String) async throws {
        let errors = Pipe()
        let environment = ProcessInfo.processInfo.environment.merging(["JEKYLL_ENV": "production", "LANG": "C.UTF-8"]) { $1 }
        let process = try ChildProcess(
            URL(fileURLWithPath: executable), arguments: arguments, directory: URL(fileURLWithPath: folder), environment: environment,
            standardError: .pipe(errors)
        )
        // Read on a thread of its own: a blocked read would hold one of the few threads every test runs on.
        let message = try await onOwnThread { errors.fileHandleForReading.readDataToEndOfFile() }
        let status = await process.exited()
        #expect(status == 0, "\(name) \(arguments.joined(separator: " ")): \(String(decoding: message, as: UTF8.self))")
    }

    /// The HTML pages under `destination`, by URL path (`/2016/09/21/homebrew-1.0.0/`, `/posts/a.html`).
    static func pages(in destination: String) -> [String: URL] {
        let files = FileManager.default.enumerator(atPath: destination)?.compactMap { $0 as? String } ?? []
        return Dictionary(uniqueKeysWithValues: files.filter { $0.hasSuffix(".html") }.map { file in
            let path = file == "index.html" ? "/" : file.hasSuffix("/index.html") ? "/" + file.dropLast("index.html".count) : "/" + file
            return (path, URL(fileURLWithPath: destination).appendingPathComponent(file))
        })
    }

    /// The `id`s of the `<h2>` and `<h3>` headings of the page at `url`, in order.
    static func headingIDs(of url: URL) throws -> [String] {
        let html = try String(contentsOf: url, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<h[23][^>]*\sid="([^"]*)""#)
        return pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)).compactMap { match in
            Range(match.range(at: 1), in: html).map { String(html[$0]) }
        }
    }
}
