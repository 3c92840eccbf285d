import Foundation
import Testing
@testable import HTTPCore
import HTTPTestSupport

struct SmugglingVector: Sendable, CustomTestStringConvertible {
    let name: String
    let request: [UInt8]
    let status: Int
    var testDescription: String { name }
    init(_ name: String, _ request: String, _ status: Int) {
        self.name = name
        self.request = Array(request.utf8)
        self.status = status
    }
    init(_ name: String, bytes: [UInt8], _ status: Int) {
        self.name = name
        self.request = bytes
        self.status = status
    }
}

private let smugglingVectors: [SmugglingVector] = [
    SmugglingVector("CL.TE", "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 13\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /x HTTP/1.1\r\n\r\n", 400),
    SmugglingVector("TE.CL", "POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\nGPOST / HTTP/1.1\r\n\r\n0\r\n\r\n", 400),
    SmugglingVector("differing Content-Length", "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nContent-Length: 40\r\n\r\nabc", 400),
    SmugglingVector("non-numeric Content-Length", "POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 3a\r\n\r\nabc", 400),
    // RFC 9112 §6.3: without chunked as the final coding the length is unknown: 400, not 501.
    SmugglingVector("transfer coding other than chunked", "POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: identity\r\n\r\n", 400),
    SmugglingVector("unimplemented coding before chunked", "POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
    SmugglingVector("obfuscated TE (space before colon)", "POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding : chunked\r\n\r\n0\r\n\r\n", 400),
    SmugglingVector("obs-fold", "GET /hello HTTP/1.1\r\nHost: t\r\nX-A: a\r\n b\r\n\r\n", 400),
    SmugglingVector("obs-fold hiding Transfer-Encoding", "POST /upload HTTP/1.1\r\nHost: t\r\nX: y\r\n Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    SmugglingVector("bare CR", "GET /hello HTTP/1.1\r\nHost: t\r\nX-A: a\rTransfer-Encoding: chunked\r\n\r\n", 400),
    SmugglingVector("bare LF", "GET /hello HTTP/1.1\nHost: t\n\n", 400),
    SmugglingVector("NUL in header", bytes: Array("GET /hello HTTP/1.1\r\nHost: t\r\nX-A: a".utf8) + [0] + Array("\r\n\r\n".utf8), 400),
    SmugglingVector("space in header name", "GET /hello HTTP/1.1\r\nHost: t\r\nContent Length: 5\r\n\r\n", 400),
    SmugglingVector("HTTP/2 version", "GET /hello HTTP/2.0\r\nHost: t\r\n\r\n", 505),
]

@Suite("Server: hardening")
struct ServerHardeningTests {
    @Test("smuggling vector answered with 4xx/5xx problem and close", arguments: smugglingVectors)
    func smugglingVector(_ v: SmugglingVector) throws {
        let s = try TestServer(routes: echoRoutes)
        let c = try s.client()
        try c.send(v.request)
        let r = try c.readResponse()
        #expect(r.status == v.status)
        #expect(r.header("content-type") == "application/problem+json")
        #expect(r.json["status"] as? Int == v.status)
        #expect(r.header("connection") == "close")
        #expect(r.header("x-request-id") != nil && r.header("date") != nil)
        #expect(c.waitForClose(), "the connection must be closed after a framing error")
        // The next request on a fresh connection is served.
        #expect(try s.get("/hello").bodyText == "hello")
    }

    @Test func slowLorisGets408AndIsClosed() throws {
        let s = try TestServer(configure: { $0.headerReadTimeout = 0.5 }, routes: echoRoutes)
        let c = try s.client()
        // Dribble a header byte by byte: activity must not extend the head deadline.
        let partial = Array("GET /hello HTTP/1.1\r\nHost: t\r\nX-Slow: ".utf8)
        try c.send(partial)
        for _ in 0..<8 {
            usleep(150_000)
            if (try? c.send("a")) == nil { break }
        }
        let r = try c.readResponse()
        #expect(r.status == 408)
        #expect(r.header("content-type") == "application/problem+json")
        #expect(r.header("connection") == "close")
        #expect(c.waitForClose())
        #expect(s.server.metrics.timeouts.value(labels: ["header"]) >= 1)
        #expect(try s.get("/hello").status == 200)
    }

    @Test func idleKeepAliveConnectionsAreClosed() throws {
        let s = try TestServer(configure: { $0.idleTimeout = 0.5 }, routes: echoRoutes)
        let c = try s.client()
        try c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try c.readResponse().status == 200)
        #expect(c.waitForClose(timeout: 10))
        #expect(TestServer.eventually { s.server.openConnections == 0 })
    }

    @Test func oversizedInputs() throws {
        let s = try TestServer(routes: echoRoutes)
        let cases: [(String, Int)] = [
            ("GET /\(String(repeating: "a", count: 9 * 1024)) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
            ("GET /hello HTTP/1.1\r\nHost: t\r\n" + (0..<40).map { "X-H\($0): \(String(repeating: "v", count: 1000))\r\n" }.joined() + "\r\n", 431),
            ("GET /hello HTTP/1.1\r\nHost: t\r\n" + (0..<101).map { "X-H\($0): v\r\n" }.joined() + "\r\n", 431),
            ("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(2 << 20)\r\n\r\n", 413),
        ]
        for (request, status) in cases {
            let c = try s.client()
            try c.send(request)
            let r = try c.readResponse()
            #expect(r.status == status)
            #expect(r.header("content-type") == "application/problem+json")
            #expect(c.waitForClose())
        }
        // A chunked upload that grows past 1 MiB is cut off with 413 while it streams.
        let c = try s.client()
        try c.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 0x10000) + Array("\r\n".utf8)
        var rejected = false
        for _ in 0..<20 where !rejected {
            if (try? c.send(chunk)) == nil { rejected = true }
        }
        let r = try c.readResponse()
        #expect(r.status == 413)
        #expect(try s.get("/hello").status == 200)
    }

    @Test func abruptCloseMidRequestLeavesTheServerHealthy() throws {
        let s = try TestServer(routes: echoRoutes)
        for i in 0..<20 {
            let c = try s.client()
            switch i % 3 {
            case 0: try c.send("GET /hel")
            case 1: try c.send("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\nonly-part")
            default: try c.send("POST /upload HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab")
            }
            if i % 2 == 0 { c.abort() } else { c.close() }
        }
        #expect(TestServer.eventually { s.server.openConnections == 0 })
        #expect(try s.get("/hello").bodyText == "hello")
    }

    @Test func abruptCloseMidResponseIsDetected() throws {
        let outcomes = Recorder<ResponseOutcome>()
        let produced = Recorder<Int>()
        let s = try TestServer(routes: { r in
            r.get("/endless") { _, ctx in
                ctx.onResponseComplete { outcomes.append($0) }
                let line = [UInt8](repeating: 0x78, count: 16 * 1024)
                return .stream(contentType: "application/octet-stream", BodyProducer(state: 0) { n in
                    n += 1
                    produced.append(n)
                    // Bounded so a broken server cannot run forever: 4 GiB.
                    return n < 262_144 ? line : nil
                })
            }
            r.get("/hello") { _, _ in .text("hello") }
        })
        let c = try s.client(receiveBufferSize: 8192)
        try c.send("GET /endless HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = try c.readUntil { $0.count > 100_000 }
        c.abort()
        #expect(TestServer.eventually { outcomes.all.count == 1 })
        #expect(outcomes.all.first?.completed == false)
        #expect((outcomes.all.first?.bodyBytes ?? 0) > 0)
        #expect(produced.all.count < 262_144)
        #expect(TestServer.eventually { s.server.openConnections == 0 })
        #expect(try s.get("/hello").bodyText == "hello")
    }

    @Test func beyondMaxConnectionsGets503AndClose() throws {
        let s = try TestServer(configure: { $0.maxConnections = 2 }, routes: echoRoutes)
        let a = try s.client(), b = try s.client()
        for c in [a, b] {
            try c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try c.readResponse().status == 200)
        }
        let third = try s.client()
        let r = try third.readResponse()
        #expect(r.status == 503)
        #expect(r.header("retry-after") == "1")
        #expect(r.header("content-type") == "application/problem+json")
        #expect(third.waitForClose())
        #expect(s.server.metrics.shedConnections.value() == 1)
        a.close()
        #expect(TestServer.eventually { s.server.openConnections == 1 })
        #expect(try s.get("/hello").status == 200)
    }

    @Test func clientThatNeverReadsResponsesIsBackPressuredNotBuffered() throws {
        // Pipelines many requests for a large response without reading: the server must stop
        // reading from it instead of queueing unbounded output.
        let big = [UInt8](repeating: 0x41, count: 256 * 1024)
        // Its own ledger and a short stall timeout: the outcome must not depend on how much
        // memory other suites' servers hold in the shared ledger (pressure shortens the stall).
        let s = try TestServer(configure: { $0.idleTimeout = 1; $0.writeStallTimeout = 2; $0.memoryLedger = MemoryLedger() }, routes: { r in
            r.get("/big") { _, _ in .bytes(big, contentType: "application/octet-stream") }
            r.get("/hello") { _, _ in .text("hello") }
        })
        let c = try s.client(receiveBufferSize: 4096)
        let request = Array("GET /big HTTP/1.1\r\nHost: t\r\n\r\n".utf8)
        // Non-blocking-ish: stop when the kernel stops taking our requests.
        var sent = 0
        var flags = fcntl(c.fd, F_GETFL)
        flags |= O_NONBLOCK
        _ = fcntl(c.fd, F_SETFL, flags)
        for _ in 0..<20_000 {
            let n = request.withUnsafeBytes { send(c.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += 1
        }
        #expect(sent > 0)
        // The server stays responsive for others, holds about one answer for the stalled client
        // (it stopped parsing the pipelined requests), and drops it once it has stalled.
        #expect(try s.get("/hello").bodyText == "hello")
        #expect(s.server.responseMemoryBytes <= 2 * big.count, "\(s.server.responseMemoryBytes) bytes held")
        #expect(TestServer.eventually(timeout: 20) { s.server.openConnections == 0 })
        #expect(s.server.metrics.timeouts.value(labels: ["write"]) >= 1)
        #expect(s.server.responseMemoryBytes == 0)
    }
}
