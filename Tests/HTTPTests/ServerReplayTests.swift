import Foundation
import HTTP
@testable import HTTPCore
import HTTPTestSupport
import Logging
import Synchronization
import Testing

/// Replayed answers (Replay.swift, docs/http.md "Replayed answers"): a planner's ready answer on a
/// route that replays is sent again to identical requests without planning or running the chain,
/// byte for byte the same apart from Date and X-Request-Id, logged and counted as any request.
@Suite("Replayed answers")
struct ServerReplayTests {
    static let json = Array(String(repeating: #"{"id":"earth","x":0.123456789},"#, count: 200).utf8)

    /// One loop, so every connection meets the same memo; `planned` counts the planner's runs,
    /// `valid` is the answer's replay condition.
    final class Fixture: Sendable {
        final class State: Sendable {
            let planned = Atomic<Int>(0)
            let valid = Atomic<Bool>(true)
        }

        let server: TestServer
        let state = State()
        let body = EncodedBody(bytes: ServerReplayTests.json, contentType: "application/json")

        init(configure: @escaping (inout HTTPServerConfiguration) -> Void = { _ in },
             middleware: @escaping (HTTPServerConfiguration, HTTPMetrics, Logger) -> [any HTTPMiddleware]? = { _, _, _ in nil }) throws {
            let state = state, body = body
            server = try TestServer(configure: { $0.eventLoopCount = 1; configure(&$0) }, middleware: middleware, routes: { r in
                r.plan(.get, "/answer", cost: .compute, answers: .small, replaysOn: ["accept"]) { req, _ in
                    state.planned.add(1, ordering: .relaxed)
                    _ = try req.negotiate(["application/json"])
                    return .respond(HTTPResponse(encoded: body).immutable().varying(on: "Accept").replayable { state.valid.load(ordering: .relaxed) })
                }
                r.plan(.get, "/unmarked", cost: .compute, replaysOn: []) { _, _ in
                    state.planned.add(1, ordering: .relaxed)
                    return .respond(HTTPResponse(encoded: body).immutable())
                }
                r.plan(.get, "/undeclared", cost: .compute) { _, _ in
                    state.planned.add(1, ordering: .relaxed)
                    return .respond(HTTPResponse(encoded: body).immutable().replayable { true })
                }
            })
        }

        var runs: Int { state.planned.load(ordering: .relaxed) }
        var memo: ReplayMemo? { server.server.core.loops[0].replayMemo }
        func metric(_ series: String) -> Double? { server.metric(series) }

        /// Asks for `/answer` twice: planned once (a miss would be offloaded; this planner always
        /// answers), then kept and replayed.
        func keepAnswer() throws {
            _ = try server.get("/answer")
            _ = try server.get("/answer")
            #expect(runs == 1)
        }
    }

    static func headWithout(_ r: RawResponse, _ names: Set<String>) -> [String] {
        r.headers.fields.filter { !names.contains($0.name.lowercased()) }.map { "\($0.name): \($0.value)" }
    }

    @Test("the same request is answered from the memo: the planner runs once, the bytes and headers match, each has its own id, log line and count")
    func replaysIdenticalRequests() throws {
        let f = try Fixture()
        let first = try f.server.get("/answer")
        let second = try f.server.get("/answer")
        let third = try f.server.get("/answer", headers: ["X-Request-Id": "client-chosen-1"])
        #expect(f.runs == 1, "the planner ran \(f.runs) times")
        for r in [first, second, third] {
            #expect(r.status == 200 && r.body == Self.json)
        }
        let fixed: Set = ["date", "x-request-id"]
        #expect(Self.headWithout(second, fixed) == Self.headWithout(first, fixed))
        #expect(Self.headWithout(third, fixed) == Self.headWithout(first, fixed))
        #expect(first.header("x-request-id") != second.header("x-request-id"))
        #expect(third.header("x-request-id") == "client-chosen-1")
        #expect(second.header("date") != nil && second.header("etag") == f.body.etag)
        #expect(f.metric(#"http_replayed_responses_total"#) == 2)
        #expect(f.metric(#"http_requests_total{route="/answer",method="GET",status="200"}"#) == 3)
        #expect(f.metric(#"http_response_bytes_total{route="/answer"}"#) == Double(3 * Self.json.count))
        #expect(f.metric(#"http_request_duration_seconds_count{route="/answer",method="GET"}"#) == 3)
        let lines = f.server.logs.lines.filter { $0.contains(#""route":"/answer""#) }
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.last?.contains(#""requestId":"client-chosen-1""#) == true)
        #expect(lines.last?.contains(#""bytes":\#(Self.json.count)"#) == true && lines.last?.contains(#""status":200"#) == true)
    }

    @Test("the key is the target and the headers the route and the middleware read: gzip, Accept, If-None-Match and Origin each get their own answer")
    func keyHeaders() throws {
        let f = try Fixture()
        try f.keepAnswer()
        let zipped = try f.server.get("/answer", headers: ["Accept-Encoding": "gzip"])
        let zippedAgain = try f.server.get("/answer", headers: ["Accept-Encoding": "gzip"])
        #expect(f.runs == 2)
        #expect(zippedAgain.header("content-encoding") == "gzip" && zippedAgain.body == f.body.gzip && zipped.body == zippedAgain.body)
        #expect(zippedAgain.header("etag") == ETagMiddleware.gzipVariant(of: f.body.etag))
        // Another Accept: planned again, and a refusal (406) is never kept.
        for _ in 0..<2 { #expect(try f.server.get("/answer", headers: ["Accept": "text/csv"]).status == 406) }
        #expect(f.runs == 4)
        // A revalidation is a 304 from the chain, not the 200 kept for the plain request.
        let revalidated = try f.server.get("/answer", headers: ["If-None-Match": f.body.etag])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        #expect(f.runs == 5)
        _ = try f.server.get("/answer", headers: ["Origin": "https://example.org"])
        #expect(f.runs == 6)
        // Another target (the query is part of it).
        _ = try f.server.get("/answer?x=1")
        #expect(f.runs == 7)
        // HEAD is routed every time.
        let head = try RawClient(port: f.server.port)
        try head.send("HEAD /answer HTTP/1.1\r\nHost: test\r\n\r\n")
        #expect(try head.readResponse(head: true).status == 200)
        #expect(f.runs == 8)
    }

    @Test("an answer whose condition no longer holds is planned again; unmarked answers and undeclared routes are never replayed")
    func conditionsAndOptIn() throws {
        let f = try Fixture()
        try f.keepAnswer()
        f.state.valid.store(false, ordering: .relaxed)
        _ = try f.server.get("/answer")
        #expect(f.runs == 2, "a stale answer was replayed")
        f.state.valid.store(true, ordering: .relaxed)
        _ = try f.server.get("/answer")
        #expect(f.runs == 2, "the fresh answer is kept again")
        for target in ["/unmarked", "/undeclared"] {
            let before = f.runs
            for _ in 0..<3 { #expect(try f.server.get(target).status == 200) }
            #expect(f.runs == before + 3, "\(target) was replayed")
        }
    }

    @Test("a chain with a middleware that cannot be replayed replays nothing")
    func opaqueMiddlewareTurnsReplayOff() throws {
        let f = try Fixture(middleware: { config, metrics, logger in
            HTTPServer.standardMiddleware(configuration: config, metrics: metrics, logger: logger)
                + [ClosureMiddleware { req, ctx, next in try next(req, ctx).withHeader("X-Seen", ctx.requestId) }]
        })
        #expect(f.memo == nil)
        let a = try f.server.get("/answer"), b = try f.server.get("/answer")
        #expect(f.runs == 2 && a.header("x-seen") != b.header("x-seen"))
    }

    @Test("Connection: close and HTTP/1.0 keep-alive are written per request, the body by its length")
    func framingPerRequest() throws {
        let f = try Fixture()
        try f.keepAnswer()
        let c = try RawClient(port: f.server.port)
        try c.send("GET /answer HTTP/1.0\r\nHost: test\r\nConnection: keep-alive\r\n\r\nGET /answer HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        let kept = try c.readResponse()
        #expect(kept.header("connection")?.lowercased() == "keep-alive" && kept.body == Self.json)
        let closing = try c.readResponse()
        #expect(closing.header("connection") == "close" && closing.header("content-length") == String(Self.json.count) && closing.body == Self.json)
        #expect(f.runs == 1)
    }

    @Test("a flood of distinct targets stays within the memo's slots and bytes")
    func floodIsBounded() throws {
        let f = try Fixture(configure: { $0.replaySlots = 16; $0.replayBytes = 64 * 1024 })
        let c = try RawClient(port: f.server.port)
        for i in 0..<400 {
            try c.send("GET /answer?n=\(i) HTTP/1.1\r\nHost: test\r\n\r\n")
            #expect(try c.readResponse().status == 200)
        }
        let (capacity, count, held) = try Self.onLoop(f) { f.memo.map { ($0.capacity, $0.count, $0.heldBytes) } ?? (0, 0, 0) }
        #expect(capacity == 16 && count <= 16 && count > 0)
        #expect(held <= 64 * 1024, "held \(held)")
        #expect(f.runs == 400)
    }

    @Test("replay can be turned off")
    func off() throws {
        let f = try Fixture(configure: { $0.replaySlots = 0 })
        #expect(f.memo == nil)
        for _ in 0..<3 { _ = try f.server.get("/answer") }
        #expect(f.runs == 3)
    }

    /// Reads loop-confined state on the loop.
    static func onLoop<T: Sendable>(_ f: Fixture, _ body: @escaping @Sendable () -> T) throws -> T {
        let result = Mutex<T?>(nil), done = Latch()
        f.server.server.core.loops[0].execute {
            result.withLock { $0 = body() }
            done.open()
        }
        #expect(done.wait())
        return try #require(result.withLock { $0 })
    }
}
