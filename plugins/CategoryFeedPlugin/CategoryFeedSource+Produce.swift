import Foundation
public import PluginAPI

extension CategoryFeedSource {
    /// Reads the feed, then turns its categories into items a window of `concurrency` at a time: the window's
    /// thumbnails download concurrently in a task group of the caller's task, so cancelling it cancels them. Then
    /// the state: the feed's validators (`ETag`, `Last-Modified`), its bytes' digest and the identifiers sent.
    ///
    /// An incremental run asks the feed only for what changed since the state (a conditional GET): a `304 Not Modified`,
    /// or the same bytes, write nothing; a changed feed is sent whole, and the categories gone from it are deleted.
    public func produce(into sink: inout some ItemSink) async throws {
        let previous = try context.mode == .incremental ? context.state.map { try FeedState.decode($0, feed: feed) } : nil
        let fetched = try await feedData(unless: previous?.validators)
        let digest = fetched.body.map { ContentDigest.of($0) }
        guard let body = fetched.body, let digest, previous?.digest != digest else {
            context.logger.info("the feed did not change: nothing to write", metadata: ["notModified": "\(fetched.body == nil)"])
            if var previous {
                previous.validators = fetched.validators
                try await sink.send(state: SyncState(encoding: previous))
            }
            return
        }
        let entries = try decodeFeed(body).entries
        var sent: [String] = []
        var start = 0
        while start < entries.count {
            try Task.checkCancellation()
            let window = Array(entries[start..<min(entries.count, start + concurrency)])
            start += window.count
            for item in try await items(for: window) {
                try await sink.send(item)
                sent.append(item.uniqueIdentifier)
            }
        }
        let kept = Set(sent)
        for gone in previous?.ids ?? [] where !kept.contains(gone) { try await sink.delete(identifier: gone) }
        try await sink.send(finalState: FeedState(feed: feed, validators: fetched.validators, digest: digest, ids: sent), context: context)
    }

    // MARK: The feed

    /// Reads and decodes the feed, retrying a transient HTTP failure with backoff.
    func loadFeed() async throws -> CategoryFeed {
        guard let body = try await feedData(unless: nil).body else { throw FeedFailure(description: "the feed \(feed) answered 304 to a plain request") }
        return try decodeFeed(body)
    }

    private func decodeFeed(_ data: Data) throws -> CategoryFeed {
        do {
            return try JSONDecoder().decode(CategoryFeed.self, from: data)
        } catch {
            throw FeedFailure(description: "the feed \(feed) is not a JSON array of categories (or {\"categories\": [...]}): \(error)")
        }
    }

    /// The feed's bytes, unless `validators` are given and the server answers that the feed did not change.
    private func feedData(unless validators: HTTPFetcher.Validators?) async throws -> HTTPFetcher.Fetched {
        guard feed.hasPrefix("http://") || feed.hasPrefix("https://") else {
            let path = context.resolve(path: feed)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard size <= CategoryFeedSource.maxFeedBytes, let data = FileManager.default.contents(atPath: path) else {
                throw FeedFailure(description: "cannot read the feed file \(path) (missing, unreadable or over \(CategoryFeedSource.maxFeedBytes) bytes)")
            }
            return HTTPFetcher.Fetched(body: data, contentType: nil, validators: HTTPFetcher.Validators())
        }
        guard let url = URL(string: feed) else { throw FeedFailure(description: "the feed URL \(feed) is not a URL") }
        let fetcher = HTTPFetcher(timeout: timeout, maxRedirects: 5, allowPrivateNetworks: options.allowPrivateNetworks ?? false)
        let attempts = (options.retries ?? 3) + 1
        for attempt in 1...attempts {
            do {
                return try await fetcher.fetch(url, maxBytes: CategoryFeedSource.maxFeedBytes, trusted: true, unless: validators)
            } catch let failure as HTTPFetcher.Failure where failure.isTransient && attempt < attempts {
                let delay = Duration.milliseconds(250 << (attempt - 1))
                context.logger.warning("the feed failed, retrying", metadata: ["error": "\(failure)", "attempt": "\(attempt)", "in": "\(delay)"])
                try await Task.sleep(for: delay)
            } catch let failure as HTTPFetcher.Failure {
                throw FeedFailure(description: "the feed failed after \(attempt) attempt(s): \(failure)")
            }
        }
        throw FeedFailure(description: "the feed failed")
    }

    /// The feed could not be read: the run fails and nothing is deleted.
    struct FeedFailure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: Items and thumbnails

    /// The items of `window`, in order, without the rejected ones.
    private func items(for window: [Result<Category, any Error>]) async throws -> [SearchableItem] {
        try await withThrowingTaskGroup(of: (Int, SearchableItem?).self) { group in
            for (index, entry) in window.enumerated() {
                group.addTask { (index, try await item(for: entry)) }
            }
            var items = [SearchableItem?](repeating: nil, count: window.count)
            for try await (index, item) in group { items[index] = item }
            return items.compactMap { $0 }
        }
    }

    /// The item of one feed entry, or `nil` (reported as rejected) when it cannot be indexed.
    func item(for entry: Result<Category, any Error>) async throws -> SearchableItem? {
        let category: Category
        switch entry {
        case .success(let decoded): category = decoded
        case .failure(let error):
            context.rejections.reject("a category", reason: "does not decode: \(error)")
            return nil
        }
        var item = SearchableItem(
            uniqueIdentifier: context.partition.map { "\($0)/\(category.id)" } ?? category.id,
            domainIdentifier: context.domain, title: category.name
        )
        item.keywords = category.keywords
        item.contentDescription = category.metaDescription
        item.contentURL = context.contentURL(for: category.id)
        let mode = options.thumbnails ?? .required
        guard mode != .none else {
            item.thumbnailURL = category.imageURL.flatMap { URL(string: $0)?.scheme != nil ? $0 : nil }
            return item
        }
        do {
            let (url, data) = try await thumbnail(category.imageURL)
            item.thumbnailURL = url.absoluteString
            item.thumbnailData = data
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            if mode == .required {
                context.rejections.reject(item.uniqueIdentifier, reason: "no thumbnail: \(error)")
                return nil
            }
            context.logger.info("indexed without thumbnail", metadata: ["category": "\(category.id)", "reason": "\(error)"])
        }
        return item
    }

    /// Downloads the image at `address`, if it is an allowed http(s) URL answering with an image.
    func thumbnail(_ address: String?) async throws -> (URL, Data) {
        guard let address, !address.isEmpty else { throw ThumbnailProblem(description: "the category has no imageURL") }
        guard let url = URL(string: address), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host else {
            throw ThumbnailProblem(description: "imageURL '\(address.prefix(200))' is not an http(s) URL")
        }
        if let allowed = options.allowedHosts, !allowed.contains(where: { $0.caseInsensitiveCompare(host) == .orderedSame }) {
            throw ThumbnailProblem(description: "host \(host) is not in allowedHosts")
        }
        let fetcher = HTTPFetcher(timeout: timeout, maxRedirects: 0, allowPrivateNetworks: options.allowPrivateNetworks ?? false)
        let (data, contentType) = try await fetcher.fetch(url, maxBytes: options.maxImageBytes ?? ItemLimits.standard.maxThumbnailBytes)
        guard let contentType, contentType.lowercased().hasPrefix("image/") else {
            throw ThumbnailProblem(description: "\(url.absoluteString.prefix(200)) is \(contentType ?? "of no content type"), not an image")
        }
        return (url, data)
    }

    /// Why a category has no thumbnail.
    struct ThumbnailProblem: Error, CustomStringConvertible {
        var description: String
    }
}
