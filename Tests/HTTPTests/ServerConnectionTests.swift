import Foundation
import Testing
@testable import HTTP
@testable import HTTPCore
import HTTPTestSupport

/// Echo routes shared by the connection tests.
func echoRoutes(_ r: Router) {
    r.get("/hello") { _, _ in .text("hello") }
    r.get("/echo/{word}") { _, c in .text(try c.parameters.require("word")) }
    r.post("/upload") { req, _ in
        var response = HTTPResponse.text("got \(req.body.count): " + String(decoding: req.body, as: UTF8.self))
        if let sum = req.trailers["x-checksum"] { response.headers.add(name: "X-Trailer-Checksum", value: sum) }
        return response
    }
    r.get("/query") { req, _ in .text("samples=\(try req.query.int("samples", in: 16...4096, default: 256))") }
}

@Suite("Server: connections", .serialized)
struct ServerConnectionTests {
    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        for word in ["one", "two", "three"] {
            try c.send("GET /echo/\(word) HTTP/1.1\r\nHost: t\r\n\r\n")
            let r = try c.readResponse()
            #expect(r.status == 200)
            #expect(r.bodyText == word)
            #expect(r.header("connection") == nil)
            #expect(r.header("date")?.hasSuffix(" GMT") == true)
            #expect(r.header("server") == "SolarSystem")
            #expect(r.header("x-request-id") != nil)
            #expect(r.header("content-length") == String(word.utf8.count))
        }
        #expect(s.server.openConnections == 1)
    }

    @Test func threePipelinedRequestsInOneWriteAreAnsweredInOrder() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("GET /echo/a HTTP/1.1\r\nHost: t\r\n\r\nPOST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nxyzGET /echo/c HTTP/1.1\r\nHost: t\r\n\r\n")
        let bodies = try (0..<3).map { _ in try c.readResponse().bodyText }
        #expect(bodies == ["a", "got 3: xyz", "c"])
    }

    @Test func headHasHeadersButNoBody() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("HEAD /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200)
        #expect(head.header("content-length") == "5")
        #expect(head.header("content-type") == "text/plain; charset=utf-8")
        // If a body had been sent, this next response would be garbled.
        try c.send("GET /echo/next HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try c.readResponse().bodyText == "next")
    }

    @Test func expect100ContinueThenBody() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("POST /upload HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n")
        let interim = try c.readResponse()
        #expect(interim.status == 100)
        try c.send("hello world")
        let final = try c.readResponse()
        #expect(final.status == 200)
        #expect(final.bodyText == "got 11: hello world")
    }

    @Test func chunkedUploadWithTrailers() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        try c.send("6\r\nhello \r\n")
        try c.send("5;ext=1\r\nworld\r\n0\r\nX-Checksum: 1234\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.bodyText == "got 11: hello world")
        #expect(r.header("x-trailer-checksum") == "1234")
    }

    @Test func connectionCloseIsHonoured() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("GET /hello HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.header("connection") == "close")
        #expect(c.waitForClose())
    }

    @Test func http10IsCloseByDefaultAndKeepAliveOnRequest() throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send("GET /hello HTTP/1.0\r\n\r\n")
        #expect(try c.readResponse().header("connection") == "close")
        #expect(c.waitForClose())
        let k = try s.client()
        try k.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try k.readResponse().header("connection") == "keep-alive")
        try k.send("GET /echo/again HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try k.readResponse().bodyText == "again")
    }

    @Test func perConnectionRequestCap() throws {
        let s = try TestServer(configure: { $0.maxRequestsPerConnection = 2 }, routes: echoRoutes)
        let c = try s.client()
        try c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try c.readResponse().header("connection") == nil)
        try c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try c.readResponse().header("connection") == "close")
        #expect(c.waitForClose())
    }

    @Test func requestIdIsHonouredWhenSaneAndReplacedOtherwise() throws {
        let s = try TestServer(routes: echoRoutes)
        #expect(try s.get("/hello", headers: ["X-Request-Id": "client-abc.123"]).header("x-request-id") == "client-abc.123")
        let replaced = try s.get("/hello", headers: ["X-Request-Id": "bad id <script>"]).header("x-request-id")
        #expect(replaced != nil && replaced != "bad id <script>")
        // Two fresh ids differ.
        #expect(try s.get("/hello").header("x-request-id") != s.get("/hello").header("x-request-id"))
    }

    @Test func queryErrorsAre400ProblemsNamingTheParameter() throws {
        let s = try TestServer(routes: echoRoutes)
        #expect(try s.get("/query?samples=64").bodyText == "samples=64")
        let r = try s.get("/query?samples=1")
        #expect(r.status == 400)
        #expect(r.header("content-type") == "application/problem+json")
        #expect(r.json["parameter"] as? String == "samples")
        #expect(r.json["instance"] as? String == "/query")
        let twice = try s.get("/query?samples=64&samples=65")
        #expect(twice.status == 400)
        #expect((twice.json["detail"] as? String)?.contains("repeated") == true)
        let malformed = try s.get("/query?samples=%zz")
        #expect(malformed.status == 400)
        #expect(malformed.json["parameter"] as? String == "samples")
    }

    @Test func notFoundAndMethodNotAllowedAreProblems() throws {
        let s = try TestServer(routes: echoRoutes)
        let missing = try s.get("/nothing/here")
        #expect(missing.status == 404)
        #expect(missing.json["status"] as? Int == 404)
        let c = try s.client()
        try c.send("DELETE /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 405)
        #expect(r.header("allow") == "GET, HEAD, OPTIONS")
        #expect(r.header("content-type") == "application/problem+json")
        try c.send("OPTIONS /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let options = try c.readResponse()
        #expect(options.status == 204)
        #expect(options.header("allow") == "GET, HEAD, OPTIONS")
    }

    @Test func listensOnIPv6Loopback() throws {
        var config = HTTPServerConfiguration(host: "::1", port: 0)
        config.eventLoopCount = 1
        let router = Router()
        echoRoutes(router)
        let server = HTTPServer(configuration: config, router: router)
        let address: BoundAddress
        do {
            address = try server.start()
        } catch {
            // A machine without IPv6 loopback cannot run this check.
            withKnownIssue("IPv6 loopback unavailable: \(error)") { throw error }
            return
        }
        defer {
            server.shutdown(deadline: 1)
            _ = server.waitUntilStopped(timeout: 5)
        }
        #expect(address.host == "::1")
        let c = try RawClient(port: address.port, host: "::1")
        try c.send("GET /hello HTTP/1.1\r\nHost: [::1]\r\n\r\n")
        #expect(try c.readResponse().bodyText == "hello")
    }
}
