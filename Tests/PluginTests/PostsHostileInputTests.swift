import Foundation
import FuzzSupport
import PluginAPI
@testable import PostsPlugin
import Testing

/// What a post can make the plugin do: posts are content nobody vetted, so every input ends as an item or a rejection
/// with a reason, in time linear in its size, without a crash.
@Suite("Posts: hostile input")
struct PostsHostileInputTests {
    let reader = PostReader(
        flavor: nil, permalink: .standard, future: nil, zone: .utc, baseURL: "https://example.com", domain: "com.example.blog",
        now: ISO8601.date(from: "2026-11-23T12:00:00Z")!
    )

    /// Inputs that make naive Markdown parsers take exponential time or overflow the stack (Ink hangs on the first
    /// at 30 brackets and crashes at 5,000).
    static let pathologicalBodies: [String] = [
        String(repeating: "[", count: 100_000),
        String(repeating: "*_[`", count: 50_000),
        String(repeating: ">", count: 100_000) + " deep",
        String(repeating: "- ", count: 50_000) + "x",
        String(repeating: "[a](", count: 50_000),
        String(repeating: "<div>", count: 50_000),
        String(repeating: "{{", count: 100_000),
        String(repeating: "{% ", count: 100_000),
        String(repeating: "{{< highlight >}}", count: 20_000),
        String(repeating: "`", count: 100_000),
        String(repeating: "\u{0}", count: 10_000) + "text",
    ]

    @Test(.timeLimit(.minutes(1)), arguments: pathologicalBodies.indices)
    func pathologicalMarkdownEndsWithADescriptionOrNone(index: Int) throws {
        let body = Self.pathologicalBodies[index]
        let read = try reader.read("---\ntitle: Hostile\n---\n" + body, at: "hostile.md")
        guard case .item(let item, _, _) = read.outcome else { Issue.record("not published"); return }
        #expect(item.title == "Hostile")
        #expect((item.contentDescription?.utf8.count ?? 0) <= Post.maxDescriptionBytes + 3)
        try item.validate()
    }

    /// Broken front matter and the reason it is refused with.
    static let brokenFrontMatter: [(text: String, reason: String)] = [
        ("+++\n" + String(repeating: "a = [", count: 5_000) + "\n+++\n", "TOML syntax"),
        ("+++\ntitle = \"x\"\n" + String(repeating: "k = 1\n", count: 2) + "+++\n", "TOML syntax"),
        ("+++\n" + (0..<20_000).map { "k\($0) = \($0)" }.joined(separator: "\n") + "\n+++\n", "larger than"),
        ("+++\nlist = [" + Array(repeating: "1", count: 12_000).joined(separator: ",") + "]\n+++\n", "more than 10000 values"),
        ("{\n\"title\": \"never closed\"\n", "never closed by a matching '}'"),
        ("{\"title\": \"x\"} trailing\nBody", "text follows the '}'"),
        ("{\n\"title\": \"x\",,\n}\n", "JSON syntax"),
        ("---\ntitle: [unclosed\n---\n", "YAML syntax"),
        ("+++\ntitle = \"Open\"\n", "never closed by a '+++' line"),
        // toml++ aborted the process on these (an assertion); the reader in Swift refuses them with their line.
        ("+++\ntitle = \"x\"\n[[[[description = 1\n+++\n", "line 3: TOML syntax"),
        ("+++\n[ =]\n+++\n", "line 2: TOML syntax"),
        ("+++\n[[ {]]\n+++\n", "line 2: TOML syntax"),
        ("+++\ntitle = \"x\"\ndate = 2024-05-01Tcol:07:00\n+++\n", "line 3: TOML syntax"),
        ("+++\nx = { date = 2024-05-01Tcol:07:00 }\n+++\n", "line 2: TOML syntax"),
        ("+++\nx = [1, 2024-05-01Tcol:07:00]\n+++\n", "line 2: TOML syntax"),
        ("+++\na = [}\n+++\n", "line 2: TOML syntax"),
        ("+++\n\u{FEFF}[[[a]]]\n+++\n", "line 2: TOML syntax"),
        ("+++\n\u{FEFF}[ =]\n+++\n", "line 2: TOML syntax"),
        ("---\ntitle: x\nauthor: [[1]]\n---\n", "'author' must be text"),
        ("---\ntitle: x\ntags: {a: b}\n---\n", "'tags' must be text"),
        ("---\ntitle: x\npermalink: /:nonsense/\n---\n", "'permalink' must be a path"),
        ("---\ntitle: x\ndraft: maybe\n---\n", "'draft' must be true or false"),
    ]
    /// 30,000 dotted keys: a stack overflow in a recursive reader.
    static let deepDottedKey = "+++\n" + Array(repeating: "a", count: 30_000).joined(separator: ".") + " = 1\n+++\n"
    /// 1,001 keys in one front matter: twenty such posts took 9.5 s when mappings were composed in quadratic time.
    static let tooManyTOMLKeys = "+++\n" + (0..<1_001).map { "k\($0) = 1" }.joined(separator: "\n") + "\n+++\n"
    static let tooManyYAMLKeys = "---\n" + (0..<1_001).map { "k\($0): 1" }.joined(separator: "\n") + "\n---\n"

    @Test(arguments: brokenFrontMatter + [
        (deepDottedKey, "line 2: TOML syntax"), (tooManyTOMLKeys, "more than 1000 keys"), (tooManyYAMLKeys, "more than 1000 keys"),
    ])
    func brokenFrontMatterIsRejectedWithItsReason(text: String, reason: String) {
        #expect {
            _ = try reader.read(text, at: "_posts/2020-01-01-post.md")
        } throws: { error in
            "\(error)".contains(reason) && "\(error)".hasPrefix("line ")
        }
    }

    @Test func windowsLineEndingsAndAByteOrderMarkAreRead() throws {
        let text = "\u{FEFF}+++\r\ntitle = \"Windows\"\r\ntags = [\"crlf\"]\r\n+++\r\n\r\nFirst  paragraph\r\nwraps.\r\n"
        guard case .item(let item, _, _) = try reader.read(text, at: "posts/windows.md").outcome else { Issue.record("not published"); return }
        #expect(item.title == "Windows")
        #expect(item.keywords == ["crlf"])
        #expect(item.contentDescription == "First paragraph wraps.")
    }

    @Test func aPostCannotChooseAnotherDomainOrEscapeTheSite() throws {
        let text = "---\ntitle: x\nurl: \"https://evil.example/phish\"\ndomainIdentifier: com.other\n---\n"
        guard case .item(let item, _, _) = try reader.read(text, at: "posts/x.md").outcome else { Issue.record("not published"); return }
        #expect(item.domainIdentifier == "com.example.blog")
        #expect(item.contentURL?.hasPrefix("https://example.com/") == true, "\(item.contentURL ?? "")")
    }

    /// Seeded mutations of every fixture post, whatever its front matter (YAML, JSON, TOML): each ends as an outcome
    /// or an error, never a crash, and every item the reader makes passes the index's validation.
    @Test func mutatedPostsNeverCrashTheReader() throws {
        let sites = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/Sites")
        let files = FileManager.default.enumerator(atPath: sites.path)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".md") }.sorted()
        #expect(files.count > 20)
        var mutator = Mutator(seed: 14)
        var outcomes = (items: 0, skipped: 0, errors: 0)
        for file in files {
            let text = try String(contentsOf: sites.appendingPathComponent(file), encoding: .utf8)
            for _ in 0..<150 {
                do {
                    switch try reader.read(mutator.mutate(text), at: file).outcome {
                    case .item(let item, _, _):
                        outcomes.items += 1
                        do { try item.validate() } catch { Issue.record("\(file): an item the index refuses: \(error)") }
                    case .skipped: outcomes.skipped += 1
                    }
                } catch {
                    outcomes.errors += 1
                }
            }
        }
        #expect(outcomes.items > 0 && outcomes.errors > 0, "\(outcomes)")
    }
}
