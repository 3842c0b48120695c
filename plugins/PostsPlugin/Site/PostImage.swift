import Foundation
import PluginAPI

/// A post's image, made its item's thumbnail: an `http(s)` address becomes `thumbnailURL`; a path to a file in the
/// posts folder (relative to the post's own folder, or to the folder's root when it starts with `/`; a front
/// matter's relative path is tried in both, as jekyll-seo-tag and Hugo themes read it from the site's root) is read
/// through the confined folder and becomes `thumbnailData` when it is a PNG, JPEG, GIF or WebP image within the
/// item's thumbnail limit. A path from the site's root (`/assets/img/a.png`, or a front matter's relative one)
/// the folder does not hold, such as a Hugo site's `static/` files, is linked at the site's address when the
/// source knows it (`baseURL`): where the site serves it. Anything else is left out, with the reason counted: the post is published without it.
enum PostImage {
    /// Why an image named by a post is not its thumbnail.
    enum Ignored: String, CaseIterable, Error {
        /// Another scheme (`file:`, `data:`, `javascript:`), a scheme-relative `//host/…`, or a malformed address.
        case notAnAddress = "not_an_address"
        /// A path climbing out of the posts folder (`../../etc/passwd`).
        case outside
        /// A path the folder does not hold as a readable regular file within the limit, or one reached through a
        /// symbolic link leading outside it.
        case unreadable
        /// A file that is not a PNG, JPEG, GIF or WebP image.
        case notAnImage = "not_an_image"
    }

    /// An image as a post names it.
    struct Reference: Equatable {
        var text: String
        /// Named in the front matter (whose relative paths themes read from the site's root), not in the body.
        var inFrontMatter: Bool
    }

    /// Where an image named by a post is.
    enum Location: Equatable {
        case address(String)
        /// Paths relative to the posts folder's root, to try in order, and the path from the site's root to link under
        /// `baseURL` when none reads (`nil`: a path relative to the page, which the site's root does not serve).
        case files([String], sitePath: String?)
    }

    /// Where `reference`, named by the post at `postPath` (relative to the folder), points.
    static func locate(_ reference: Reference, from postPath: String) -> Result<Location, Ignored> {
        let trimmed = reference.text.trimmingCharacters(in: .whitespaces)
        if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
            let scheme = trimmed[..<colon].lowercased()
            guard scheme == "http" || scheme == "https", let url = URL(string: trimmed), url.host?.isEmpty == false else { return .failure(.notAnAddress) }
            return .success(.address(trimmed))
        }
        guard !trimmed.hasPrefix("//"), !trimmed.isEmpty else { return .failure(.notAnAddress) }
        // A file: without its query or fragment, percent-escapes decoded, `.` and `..` resolved within the folder.
        let path = String(trimmed.prefix { $0 != "?" && $0 != "#" })
        guard let decoded = path.removingPercentEncoding, !decoded.contains("\0") else { return .failure(.notAnAddress) }
        /// `decoded` resolved from the folder `base`, or why it cannot be.
        func resolved(from base: [String]) -> Result<String, Ignored> {
            var parts = base
            for part in decoded.split(separator: "/") where part != "." {
                if part == ".." {
                    guard !parts.isEmpty else { return .failure(.outside) }
                    parts.removeLast()
                } else {
                    parts.append(String(part))
                }
            }
            return parts.isEmpty ? .failure(.notAnAddress) : .success(parts.joined(separator: "/"))
        }
        let fromRoot = resolved(from: [])
        if decoded.hasPrefix("/") { return fromRoot.map { .files([$0], sitePath: "/" + $0) } }
        let fromPost = resolved(from: postPath.split(separator: "/").dropLast().map(String.init))
        guard reference.inFrontMatter, case .success(let rootPath) = fromRoot else { return fromPost.map { .files([$0], sitePath: nil) } }
        let candidates = (try? fromPost.get()).map { [$0] } ?? []
        return .success(.files(candidates + (candidates.contains(rootPath) ? [] : [rootPath]), sitePath: "/" + rootPath))
    }

    /// `item` with the thumbnail `reference` names, read from `folder` for the post at `postPath` or linked under
    /// `baseURL`; or the reason it has none.
    static func apply(_ reference: Reference, from postPath: String, in folder: ContentFolder, baseURL: String?, to item: inout SearchableItem) -> Ignored? {
        func link(_ address: String) -> Ignored? {
            var candidate = item
            candidate.thumbnailURL = address
            guard (try? candidate.validate()) != nil else { return .notAnAddress }
            item = candidate
            return nil
        }
        switch locate(reference, from: postPath) {
        case .failure(let reason):
            return reason
        case .success(.address(let address)):
            return link(address)
        case .success(.files(let paths, let sitePath)):
            guard let data = paths.lazy.compactMap({ try? folder.read($0, maxBytes: ItemLimits.standard.maxThumbnailBytes) }).first else {
                guard let sitePath, let baseURL else { return .unreadable }
                let escaped = sitePath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? sitePath
                return link(String(baseURL.trimmingTrailingSlashes) + escaped)
            }
            guard ThumbnailFormat(sniffing: data) != nil else { return .notAnImage }
            item.thumbnailData = data
        }
        return nil
    }
}
