import Foundation
import HTTPCore

/// The web viewer's files (`Resources/web/`), read once at start-up and served from memory at
/// `/`: each file an `EncodedBody` (identity, gzip variant, strong ETag) with its content type
/// and cache policy. Nothing is read from the disk per request, and a request can only name a
/// file that was loaded: the path is checked byte by byte (`file(forTarget:)`) and looked up in
/// a dictionary; it is never joined to a directory.
///
/// ```swift
/// let site = try StaticSite.load(directory: resources.appendingPathComponent("web"))
/// let index = try site.file(forTarget: "/")        // index.html
/// ```
public struct StaticSite: Sendable {
    public struct File: Sendable {
        /// The path under the site's root (`js/main.js`).
        public let path: String
        public let body: EncodedBody
        public let cacheControl: String
        /// HTML pages carry the Content-Security-Policy.
        public var isHTML: Bool { path.hasSuffix(".html") }
    }

    public let files: [String: File]
    /// What loading skipped and why (symlinks out of the tree, unknown types, hidden files).
    public let skipped: [String]

    public static let empty = StaticSite(files: [:], skipped: [])

    /// The page `/` serves.
    public static let indexFile = "index.html"
    /// A file, or the site as a whole, larger than this is refused at load time.
    public static let maxFileBytes = 4 << 20
    public static let maxSiteBytes = 16 << 20
    public static let maxFiles = 256

    /// `Content-Security-Policy` of the HTML pages: scripts, styles, images and requests from the
    /// page's own origin only (no inline script or style), no plugins, no framing.
    public static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
        + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// Types served, by extension, with their cache policy. HTML and the scripts and styles it
    /// loads revalidate on every use (`no-cache` + ETag: a 304 costs one round trip) because
    /// their names carry no content hash: a page must never run with another version's modules.
    /// Images are kept a day.
    static let types: [String: (contentType: String, cacheControl: String)] = [
        "html": ("text/html; charset=utf-8", "no-cache"),
        "js": ("text/javascript; charset=utf-8", "no-cache"),
        "mjs": ("text/javascript; charset=utf-8", "no-cache"),
        "css": ("text/css; charset=utf-8", "no-cache"),
        "json": ("application/json; charset=utf-8", "no-cache"),
        "webmanifest": ("application/manifest+json; charset=utf-8", "no-cache"),
        "txt": ("text/plain; charset=utf-8", "no-cache"),
        "svg": ("image/svg+xml", "public, max-age=86400"),
        "png": ("image/png", "public, max-age=86400"),
        "ico": ("image/x-icon", "public, max-age=86400"),
    ]

    /// Builds the site from `(path, bytes)` pairs, paths relative to the root with `/` between
    /// segments. Names that `isServableName` refuses or whose type is not in `types` are skipped.
    public init(files list: [(path: String, bytes: [UInt8])]) {
        var files: [String: File] = [:]
        var skipped: [String] = []
        for (path, bytes) in list {
            guard let type = Self.type(ofServablePath: path) else {
                skipped.append("\(path): not a servable name or type")
                continue
            }
            files[path] = File(path: path, body: EncodedBody(bytes: bytes, contentType: type.contentType), cacheControl: type.cacheControl)
        }
        self.init(files: files, skipped: skipped)
    }

    init(files: [String: File], skipped: [String]) {
        self.files = files
        self.skipped = skipped
    }

    /// The content type and cache policy of a relative path, nil when it may not be served.
    static func type(ofServablePath path: String) -> (contentType: String, cacheControl: String)? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty, segments.allSatisfy({ isServableName($0) }), let last = segments.last,
              let dot = last.lastIndex(of: ".") else { return nil }
        return types[last[last.index(after: dot)...].lowercased()]
    }

    /// A path segment the site serves: ASCII letters, digits, `-`, `_` and `.`, not starting with
    /// a dot (no `.`, `..` or hidden files), at most 128 bytes.
    static func isServableName<S: StringProtocol>(_ name: S) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, first != UInt8(ascii: "."), bytes.count <= 128 else { return false }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".")
        }
    }

    // MARK: - Requests

    /// The file a request target names. The raw target is checked, not its decoded path, so an
    /// encoded dot or slash cannot turn into a traversal after the check: a target with `%`,
    /// `\`, an empty, `.` or `..` segment, a hidden name or a byte outside the servable set is a
    /// 400; a well-formed name that was not loaded is a 404. `/` is `index.html`.
    public func file(forTarget target: String) throws(ProblemDetails) -> File {
        let path = Self.rawPath(of: target)
        if path == "/" { return try lookup(Self.indexFile, path: path) }
        guard path.utf8.first == UInt8(ascii: "/") else {
            throw .invalidPath(path, reason: "a static file path starts with /")
        }
        if path.utf8.contains(UInt8(ascii: "%")) {
            throw .invalidPath(path, reason: "static file paths are never percent-encoded (an encoded dot, slash or NUL is refused)")
        }
        if path.utf8.contains(UInt8(ascii: "\\")) {
            throw .invalidPath(path, reason: "a backslash is not a path separator here")
        }
        let segments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        for seg in segments {
            let s = String(decoding: seg, as: UTF8.self)
            if s.isEmpty { throw .invalidPath(path, reason: "empty path segment (// or a trailing /)") }
            if s == "." || s == ".." { throw .invalidPath(path, reason: "dot segments are refused") }
            if !Self.isServableName(s) {
                throw .invalidPath(path, reason: "a path segment may hold letters, digits, -, _ and . and may not start with a dot")
            }
        }
        return try lookup(String(path.dropFirst()), path: path)
    }

    private func lookup(_ relative: String, path: String) throws(ProblemDetails) -> File {
        guard let f = files[relative] else {
            throw ProblemDetails(status: .notFound, detail: "no file \(Self.shown(path)) in the web viewer; GET / for the viewer, /openapi.yaml for the API")
        }
        return f
    }

    /// The path part of a request target as sent: origin-form up to `?`; absolute-form after its
    /// authority.
    static func rawPath(of target: String) -> String {
        var t = Substring(target)
        if t.first != "/", let scheme = t.range(of: "://") {
            t = t[scheme.upperBound...]
            t = t[(t.firstIndex(of: "/") ?? t.endIndex)...]
            if t.isEmpty { return "/" }
        }
        if let q = t.firstIndex(of: "?") { t = t[..<q] }
        return String(t)
    }

    /// A path as quoted in a problem: at most 200 characters.
    static func shown(_ path: String) -> String { path.count > 200 ? String(path.prefix(200)) + "…" : path }

    // MARK: - Loading

    /// Reads every file under `directory` (recursively). A symlink is followed only when its
    /// target resolves inside the directory; anything that resolves outside it, hidden names,
    /// unknown types and special files are skipped (listed in `skipped`). A file over
    /// `maxFileBytes`, a site over `maxSiteBytes` or `maxFiles` files, or an unreadable directory
    /// throws.
    public static func load(directory: URL) throws -> StaticSite {
        let fm = FileManager.default
        let root = directory.resolvingSymlinksInPath().standardizedFileURL.path
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: root, isDirectory: &isDir), isDir.boolValue else {
            throw StaticSiteError("\(directory.path): not a directory")
        }
        var list: [(path: String, bytes: [UInt8])] = []
        var skipped: [String] = []
        var total = 0
        func walk(_ relative: String, depth: Int) throws {
            let dir = relative.isEmpty ? root : root + "/" + relative
            let names: [String]
            do { names = try fm.contentsOfDirectory(atPath: dir).sorted() } catch {
                throw StaticSiteError("\(dir): \(error.localizedDescription)")
            }
            for name in names {
                let rel = relative.isEmpty ? name : relative + "/" + name
                guard isServableName(name) else { skipped.append("\(rel): not a servable name"); continue }
                let full = root + "/" + rel
                // Where the entry really is (every symlink on the way resolved): inside the root, or skipped.
                let real = URL(fileURLWithPath: full).resolvingSymlinksInPath().standardizedFileURL.path
                guard real.hasPrefix(root + "/") else { skipped.append("\(rel): resolves outside \(root) (\(real))"); continue }
                guard fm.fileExists(atPath: real, isDirectory: &isDir) else { skipped.append("\(rel): dangling link"); continue }
                if isDir.boolValue {
                    guard depth < 8 else { skipped.append("\(rel): nested too deep"); continue }
                    try walk(rel, depth: depth + 1)
                    continue
                }
                let attributes = try? fm.attributesOfItem(atPath: real)
                guard attributes?[.type] as? FileAttributeType == .typeRegular else { skipped.append("\(rel): not a regular file"); continue }
                guard type(ofServablePath: rel) != nil else { skipped.append("\(rel): type not served"); continue }
                guard let data = fm.contents(atPath: real) else { throw StaticSiteError("\(full): unreadable") }
                guard data.count <= maxFileBytes else { throw StaticSiteError("\(full): \(data.count) bytes, over the \(maxFileBytes)-byte limit") }
                total += data.count
                guard total <= maxSiteBytes, list.count < maxFiles else {
                    throw StaticSiteError("\(root): over \(maxFiles) files or \(maxSiteBytes) bytes")
                }
                list.append((rel, [UInt8](data)))
            }
        }
        try walk("", depth: 0)
        let site = StaticSite(files: list)
        return StaticSite(files: site.files, skipped: skipped + site.skipped)
    }
}

public struct StaticSiteError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension ProblemDetails {
    /// 400 for a static-file path the site refuses to interpret.
    static func invalidPath(_ path: String, reason: String) -> ProblemDetails {
        let shown = StaticSite.shown(path)
        var p = ProblemDetails(status: .badRequest, detail: "path \(shown): \(reason)")
        p.extensions.append(("path", .string(shown)))
        return p
    }
}
