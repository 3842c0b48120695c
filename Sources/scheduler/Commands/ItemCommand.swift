import ArgumentParser
import Foundation
import Indexing
import PluginAPI

/// `scheduler item ID`: one item of the index, as `GET /items/{id}` shows it, and how often it was opened.
struct ItemCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "Show the item with this unique identifier, as a search would return it, and how often it was opened.",
        discussion: "Exits with status 1 when no live item has the identifier: never indexed, expired, deleted or purged."
    )

    @Argument(help: ArgumentHelp("The item's unique identifier, exactly as indexed.", valueName: "id"))
    var identifier: String

    @Flag(help: "Print the item as one JSON object, as GET /items/{id} answers (without its opens), instead of text.")
    var json = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let found = try await store.withStore(logger: CommandLogger.make()) { store -> (SearchableItem, [OpenTally])? in
            guard let item = try await store.index.liveItem(withIdentifier: identifier, at: Date()) else { return nil }
            return (item, try await store.index.openTallies(identifier: identifier))
        }
        guard let (item, tallies) = found else {
            throw UserError("no item '\(identifier)' in the index: it was never indexed, has expired or was deleted")
        }
        let document = ItemDocument(item)
        if json { return try JSONOutput.print(document) }
        let fields = document.fields
        print(fields.title ?? fields.displayName ?? fields.uniqueIdentifier)
        let lines: [(String, String?)] = [
            ("identifier", fields.uniqueIdentifier), ("domain", fields.domainIdentifier), ("type", fields.contentType),
            ("title", fields.title), ("display name", fields.displayName), ("description", fields.contentDescription),
            ("keywords", fields.keywords.isEmpty ? nil : fields.keywords.joined(separator: ", ")),
            ("authors", fields.authorNames.isEmpty ? nil : fields.authorNames.joined(separator: ", ")),
            ("created", fields.contentCreationDate.map { $0.formatted(.iso8601) }),
            ("modified", fields.contentModificationDate.map { $0.formatted(.iso8601) }), ("link", fields.contentURL),
            ("thumbnail", [fields.thumbnailURL, document.thumbnailType.map { "\($0) stored" }].compactMap { $0 }.joined(separator: ", ")),
            ("ranking hint", fields.rankingHint.map(String.init)), ("expires", fields.expirationDate.formatted(.iso8601)),
            ("opens", "\(tallies.filter { $0.key.query == nil }.map(\.opens).reduce(0, +))"),
        ]
        for case let (name, value?) in lines where !value.isEmpty {
            print("  \(name.padding(toLength: 13, withPad: " ", startingAt: 0)) \(value)")
        }
    }
}
