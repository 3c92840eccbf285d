import Foundation
import HTTPCore
import Testing
@testable import SolarSystemAPI

/// A web root in a temporary directory, with a secret beside it that no request may reach.
private struct WebRoot {
    let base: URL
    var root: URL { base.appendingPathComponent("web") }

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("static-site-\(UUID().uuidString)")
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("js/lib"), withIntermediateDirectories: true)
        try fm.createDirectory(at: base.appendingPathComponent("outside"), withIntermediateDirectories: true)
        try write("index.html", "<!doctype html><title>viewer</title>" + String(repeating: "<p>padding</p>", count: 200))
        try write("js/main.js", "export const x = 1;")
        try write("js/lib/util.js", "export const y = 2;")
        try write("style.css", "body { color: red }")
        try write(".hidden.js", "secret")
        try write("notes.exe", "MZ")
        try Data("root:x:0:0".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try Data("outside".utf8).write(to: base.appendingPathComponent("outside/inner.js"))
        // Links: one inside the tree (followed), three that leave it (skipped).
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("alias.js").path, withDestinationPath: "js/main.js")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("leak.txt").path, withDestinationPath: "../secret.txt")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("etc.txt").path, withDestinationPath: "/etc/passwd")
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("out").path, withDestinationPath: base.appendingPathComponent("outside").path)
    }

    func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: root.appendingPathComponent(path))
    }

    func remove() { try? FileManager.default.removeItem(at: base) }
}

@Suite("Static site: loading and path checks")
struct StaticSiteTests {
    @Test("loads the tree; symlinks that leave it, hidden names and unknown types are skipped")
    func load() throws {
        let dir = try WebRoot()
        defer { dir.remove() }
        let site = try StaticSite.load(directory: dir.root)
        #expect(Set(site.files.keys) == ["index.html", "js/main.js", "js/lib/util.js", "style.css", "alias.js"])
        #expect(site.files["alias.js"]?.body.identity == Array("export const x = 1;".utf8))
        let skipped = site.skipped.joined(separator: "\n")
        for name in ["leak.txt", "etc.txt", "out", ".hidden.js", "notes.exe"] { #expect(skipped.contains(name), "\(name)") }
        #expect(!site.files.values.contains { $0.body.identity == Array("root:x:0:0".utf8) || $0.body.identity == Array("outside".utf8) })
    }

    @Test("content types and cache policies")
    func types() throws {
        let dir = try WebRoot()
        defer { dir.remove() }
        let site = try StaticSite.load(directory: dir.root)
        let index = try site.file(forTarget: "/")
        #expect(index.path == "index.html" && index.isHTML)
        #expect(index.body.contentType == "text/html; charset=utf-8" && index.cacheControl == "no-cache")
        #expect(index.body.gzip != nil) // over 1 KiB and compressible: the variant exists up front
        #expect(try site.file(forTarget: "/js/main.js").body.contentType == "text/javascript; charset=utf-8")
        #expect(try site.file(forTarget: "/style.css?v=2").body.contentType == "text/css; charset=utf-8")
        #expect(try site.file(forTarget: "/index.html").body.etag == index.body.etag)
        #expect(try site.file(forTarget: "http://example.com/js/lib/util.js").path == "js/lib/util.js")
        #expect(StaticSite.type(ofServablePath: "img/a.png")?.cacheControl == "public, max-age=86400")
    }

    /// Every way out of the tree, as raw request targets: refused (400) or unknown (404), never a file.
    @Test("traversal, encoded dots and slashes, NUL, absolute and hidden paths are refused", arguments: [
        ("/../secret.txt", 400), ("/js/../../secret.txt", 400), ("/./index.html", 400), ("/js/..", 400),
        ("/%2e%2e/secret.txt", 400), ("/%2E%2E%2Fsecret.txt", 400), ("/js%2fmain.js", 400), ("/js%2Fmain.js", 400),
        ("/%69ndex.html", 400), ("/index.html%00.js", 400), ("/..%5c..%5csecret.txt", 400), ("/js\\main.js", 400),
        ("//etc/passwd", 400), ("/js//main.js", 400), ("/js/", 400), ("/.hidden.js", 400), ("/js/.x.js", 400),
        ("/C:/secret.txt", 400), ("http://host/../secret.txt", 400), ("/leak.txt", 404), ("/etc.txt", 404),
        ("/out/inner.js", 404), ("/secret.txt", 404), ("/etc/passwd", 404), ("/notes.exe", 404), ("/missing.js", 404),
        ("*", 400), ("", 400),
    ])
    func refused(target: String, status: Int) throws {
        let dir = try WebRoot()
        defer { dir.remove() }
        let site = try StaticSite.load(directory: dir.root)
        #expect(throws: ProblemDetails.self) { try site.file(forTarget: target) }
        do {
            _ = try site.file(forTarget: target)
        } catch {
            #expect(error.status.code == status, "\(target): \(error.detail ?? "")")
        }
    }

    @Test("files over the size limit stop loading with the file's name")
    func tooLarge() throws {
        let dir = try WebRoot()
        defer { dir.remove() }
        try Data(count: StaticSite.maxFileBytes + 1).write(to: dir.root.appendingPathComponent("big.js"))
        #expect { try StaticSite.load(directory: dir.root) } throws: { "\($0)".contains("big.js") }
        #expect(throws: StaticSiteError.self) { try StaticSite.load(directory: dir.root.appendingPathComponent("none")) }
    }
}
