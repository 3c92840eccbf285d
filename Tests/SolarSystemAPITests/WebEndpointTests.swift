import Foundation
import HTTPCore
import HTTPTestSupport
import Rendering
import Testing

@Suite("GET / (the web viewer) and /v1/textures")
struct WebEndpointTests {
    static let index = RepositoryFiles.bytes("Resources/web/index.html")

    @Test("/ and /index.html: the page, HTML headers, revalidated with a strong ETag")
    func page() throws {
        let r = try APIServer.get("/")
        #expect(r.status == 200)
        #expect(r.body == Self.index)
        #expect(r.header("content-type") == "text/html; charset=utf-8")
        #expect(r.header("cache-control") == "no-cache")
        #expect(r.header("x-content-type-options") == "nosniff")
        let csp = r.header("content-security-policy") ?? ""
        #expect(csp.contains("default-src 'self'") && csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
        let etag = try #require(r.header("etag"))
        #expect(etag.hasPrefix("\"") && !etag.hasPrefix("W/"))
        let same = try APIServer.get("/index.html?date=2026-11-22&focus=saturn")
        #expect(same.status == 200 && same.body == r.body && same.header("etag") == etag)
        let revalidated = try APIServer.get("/", headers: ["If-None-Match": etag])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty && revalidated.header("etag") == etag)
        #expect(revalidated.header("cache-control") == "no-cache")
    }

    @Test("gzip variant, HEAD, and the scripts' and styles' types")
    func encodingAndTypes() throws {
        let gz = try APIServer.get("/js/main.js", headers: ["Accept-Encoding": "gzip"])
        #expect(gz.status == 200 && gz.header("content-encoding") == "gzip")
        #expect(gunzip(gz.body) == RepositoryFiles.bytes("Resources/web/js/main.js"))
        #expect(gz.header("content-type") == "text/javascript; charset=utf-8")
        #expect(gz.header("etag")?.hasSuffix("-gzip\"") == true)
        #expect(gz.header("vary")?.contains("Accept-Encoding") == true)
        #expect(try APIServer.get("/css/viewer.css").header("content-type") == "text/css; charset=utf-8")
        #expect(try APIServer.get("/favicon.svg").header("content-type") == "image/svg+xml")

        let c = try APIServer.shared.client()
        defer { c.close() }
        try c.send("HEAD / HTTP/1.1\r\nHost: test\r\n\r\n")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.header("content-length") == String(Self.index.count))
    }

    @Test("every module the page imports is served, with relative URLs only")
    func modules() throws {
        let html = String(decoding: Self.index, as: UTF8.self)
        #expect(!html.contains("src=\"/") && !html.contains("href=\"/"), "absolute URLs break a path prefix")
        let dir = RepositoryFiles.root.appendingPathComponent("Resources/web/js")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".js") {
            let source = String(decoding: RepositoryFiles.bytes("Resources/web/js/" + name), as: UTF8.self)
            #expect(try APIServer.get("/js/" + name).status == 200)
            // Imports are relative (./x.js); requests are relative (v1/…), never rooted at / (comments aside).
            let code = source.split(separator: "\n").filter { line in
                let t = line.drop { $0 == " " }
                return !t.hasPrefix("//") && !t.hasPrefix("/*") && !t.hasPrefix("*")
            }.joined(separator: "\n")
            #expect(!code.contains("from '/") && !code.contains("'/v1/") && !code.contains("`/v1/"), "\(name)")
            for line in source.split(separator: "\n") where line.hasPrefix("import ") {
                let path = line.split(separator: "'").dropFirst().first.map(String.init) ?? ""
                #expect(path.hasPrefix("./"), "\(name): \(line)")
                #expect(try APIServer.get("/js/" + path.dropFirst(2)).status == 200, "\(name): \(path)")
            }
        }
    }

    @Test("unknown files are a 404 problem; traversal attempts are 400 or 404 (empty segments a 308 to the path without them, itself refused), never a file", arguments: [
        "/nope.js", "/../../etc/passwd", "/js/../../../etc/passwd", "/..%2f..%2fetc%2fpasswd", "/%2e%2e/%2e%2e/etc/passwd",
        "/js/%2e%2e/index.html", "/js%2fmain.js", "/%2e%2e%5cetc%5cpasswd", "/index.html%00.png", "/%00", "//etc/passwd",
        "/.git/config", "/etc/passwd", "/Resources/web/index.html", "/js/", "/C:%5cWindows%5cwin.ini",
        "http://localhost/../../etc/passwd", "/%69ndex.html",
    ])
    func refused(target: String) throws {
        var r = try APIServer.get(target)
        if r.status == 308, let location = r.header("location") {
            #expect(Router.canonicalTarget(target) == location, "\(target) → \(location)")
            r = try APIServer.get(location)
        }
        #expect(r.status == 400 || r.status == 404, "\(target) → \(r.status)")
        #expect(r.header("content-type") == "application/problem+json", "\(target)")
        #expect(!r.bodyText.contains("root:") && !r.bodyText.contains("<!doctype"), "\(target)")
    }

    @Test("/v1/textures/{id}.png: each map as an immutable PNG, the exact decoded pixels")
    func textures() throws {
        let r = try APIServer.get("/v1/textures/mars.png")
        #expect(r.status == 200 && r.header("content-type") == "image/png")
        #expect(r.header("cache-control") == "public, max-age=31536000, immutable")
        #expect(r.header("content-encoding") == nil)
        let etag = try #require(r.header("etag"))
        #expect(Array(r.body.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        // IHDR: 1024 × 512, 8-bit RGB.
        #expect(Array(r.body[16..<26]) == [0, 0, 4, 0, 0, 0, 2, 0, 8, 2])
        let again = try APIServer.get("/v1/textures/mars.png")
        #expect(again.body == r.body && again.header("etag") == etag)
        #expect(try APIServer.get("/v1/textures/mars.png", headers: ["If-None-Match": etag]).status == 304)
        let rings = try APIServer.get("/v1/textures/saturn-rings.png")
        #expect(rings.status == 200)
        #expect(Array(rings.body[16..<26]) == [0, 0, 8, 0, 0, 0, 0, 125, 8, 6]) // 2048 × 125 RGBA
    }

    @Test("every textured body and the rings have an image; others are 404s naming the ids")
    func textureIds() throws {
        let ids = TextureSet.surfaceFiles.map(\.body.rawValue) + ["saturn-rings"]
        #expect(ids.count == 15)
        for bad in ["titan", "sun", "vulcan", "earth.jpg", "earth", "..%2fearth"] {
            let target = bad.contains(".") || bad == "earth" ? "/v1/textures/\(bad)" : "/v1/textures/\(bad).png"
            let r = try APIServer.get(target)
            // An encoded slash is refused before routing (400); the rest are unknown ids.
            #expect(r.status == (bad.contains("%2f") ? 400 : 404), "\(target)")
            #expect(r.header("content-type") == "application/problem+json")
            if bad == "titan" {
                let valid = r.json["validIds"] as? [String] ?? []
                #expect(Set(valid) == Set(ids))
            }
        }
        #expect(try APIServer.get("/v1/textures/earth.png?size=2").status == 400)
    }
}
