import ArgumentParser
import Foundation
import SchedulerService

/// `scheduler openapi`: the HTTP API's contract, for generating clients without a running service.
struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the HTTP API's OpenAPI 3.1 document (what GET /openapi.yaml serves).",
        discussion: "Generate a client from it, or check answers against it; docs/openapi.yaml is the same document."
    )

    @Flag(help: "Print it as JSON (what GET /openapi.json serves).")
    var json = false

    func run() throws {
        // Written as it is: the document is this program's own text, and its line breaks are its form.
        FileHandle.standardOutput.write(json ? Data(OpenAPIContract.json + [UInt8(ascii: "\n")]) : Data(OpenAPIContract.yaml.utf8))
    }
}
