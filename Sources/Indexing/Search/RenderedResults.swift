import Synchronization

/// The bytes one rendering of a page of results made (the HTTP API's JSON body), kept with the results in the
/// ``SearchResultCache``: a repeated search is answered without rendering its results again. Rendering is a function
/// of the results alone, so these bytes hold exactly as long as the cached results do.
///
/// Not part of the results' value: results compare and encode without it, and results that change drop it
/// (``SearchResults``).
package final class RenderedResults: Sendable {
    private let rendered = Mutex<[UInt8]?>(nil)

    package init() {}

    /// The bytes `render` makes, rendered the first time only (`nil` when `render` cannot render them, which is then
    /// asked again).
    package func bytes(orRender render: () -> [UInt8]?) -> [UInt8]? {
        if let bytes = rendered.withLock({ $0 }) { return bytes }
        // Rendered outside the lock: two first requests at once may both render, and the same bytes are kept.
        guard let bytes = render() else { return nil }
        rendered.withLock { $0 = bytes }
        return bytes
    }
}
