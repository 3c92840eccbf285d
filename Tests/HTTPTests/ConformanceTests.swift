import Foundation
import Testing
@testable import HTTPCore
import HTTPTestSupport

/// The requests the HTTP/1.1 conformance replay (issue 12) found answered wrongly, sent over a
/// real socket: each must now get its status as a problem document and a closed connection.
private let replayedVectors: [(name: String, request: String, status: Int)] = [
    ("Host with userinfo", "GET /hello HTTP/1.1\r\nHost: user@127.0.0.1:8080\r\n\r\n", 400),
    ("Host with a path", "GET /hello HTTP/1.1\r\nHost: 127.0.0.1:8080/path\r\n\r\n", 400),
    ("empty Host", "GET /hello HTTP/1.1\r\nHost: \r\n\r\n", 400),
    ("Host list", "GET /hello HTTP/1.1\r\nHost: a.example, b.example\r\n\r\n", 400),
    ("asterisk with GET", "GET * HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    ("version without minor", "GET /hello HTTP/1\r\nHost: t\r\n\r\n", 400),
    ("unsupported major version", "GET /hello HTTP/3.0\r\nHost: t\r\n\r\n", 505),
    ("chunked not final", "POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400),
    ("chunk size too large to represent", "POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n", 400),
    ("chunk extension with a bad token", "POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5;bad[=x\r\nhello\r\n0\r\n\r\n", 400),
    ("fragment in the target", "GET /hello#frag HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    ("over-long method", String(repeating: "A", count: 10_000) + " /hello HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    ("Content-Length list", "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 5, 5\r\n\r\nhello", 400),
]

@Suite("Server: HTTP/1.1 conformance")
struct ConformanceTests {
    @Test("replayed vector refused and closed", arguments: replayedVectors.indices)
    func replayedVector(_ index: Int) throws {
        let v = replayedVectors[index]
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send(v.request)
        let r = try c.readResponse()
        #expect(r.status == v.status, "\(v.name)")
        #expect(r.header("content-type") == "application/problem+json", "\(v.name)")
        #expect(r.header("connection") == "close", "\(v.name)")
        #expect(c.waitForClose(), "\(v.name): the connection must close")
    }

    /// A TLS ClientHello on the plain port holds no line end: it must be refused at its first
    /// byte, not after the 10 s header timeout.
    /// Order, not a stopwatch: the header timeout is set far beyond the client's receive timeout,
    /// so any answer at all came before it.
    @Test func tlsHandshakeIsRefusedAtOnce() throws {
        let s = try TestServer(configure: { $0.headerReadTimeout = 600 }, routes: echoRoutes)
        let c = try s.client(receiveTimeout: 60)
        try c.send([0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00])
        let r = try c.readResponse()
        #expect(r.status == 400)
        #expect(r.json["detail"] as? String != nil)
        #expect(r.header("connection") == "close")
        #expect(c.waitForClose(timeout: 5))
        #expect(try s.get("/hello").status == 200)
    }

    @Test func optionsAsteriskListsTheServersMethods() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("OPTIONS * HTTP/1.1\r\nHost: t\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.header("allow") == "GET, HEAD, POST, OPTIONS")
        #expect(r.header("content-length") == "0")
        #expect(r.body.isEmpty)
        // The connection stays usable.
        try c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try c.readResponse().bodyText == "hello")
    }

    /// `5;` is not a chunk extension: the request is refused with 400 and the connection closed
    /// before the pipelined request behind it can be read as a request of its own.
    @Test func bareSemicolonChunkExtensionStopsThePipeline() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5;\r\nhello\r\n0\r\n\r\nGET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 400)
        #expect(r.header("connection") == "close")
        let rest = try c.readUntil { _ in false }
        #expect(!String(decoding: rest, as: UTF8.self).contains("HTTP/1.1 200"), "the pipelined request was served")
        #expect(c.waitForClose())
    }

    @Test func higherMinorVersionIsServedAsHTTP11() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("GET /hello HTTP/1.2\r\nHost: [::1]:8080\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.version == "HTTP/1.1")
        #expect(r.header("connection") == nil)
    }

    @Test func routerAnswersTheServerWideOptions() throws {
        let router = Router()
        echoRoutes(router)
        router.add(HTTPMethod("PURGE"), "/cache") { _, _ in HTTPResponse() }
        router.delete("/cache/{key}") { _, _ in HTTPResponse() }
        guard case .found(let route, _) = router.match(.options, path: "*") else {
            Issue.record("OPTIONS * must be answered")
            return
        }
        #expect(route.pattern == "*" && route.cost == .light)
        guard case .handler(let handler) = route.action else {
            Issue.record("OPTIONS * is answered by a handler")
            return
        }
        let response = try handler(try HTTPRequest(method: .options, target: "*"), RequestContext())
        #expect(response.status == .ok)
        #expect(response.headers["allow"] == "GET, HEAD, POST, DELETE, OPTIONS, PURGE")
        guard case .methodNotAllowed(let allowed) = router.match(.get, path: "*") else {
            Issue.record("GET * is not a request on a resource")
            return
        }
        #expect(allowed == [.options])
    }
}
