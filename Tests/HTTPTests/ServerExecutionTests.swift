import Foundation
import Synchronization
import Testing
@testable import HTTP
@testable import HTTPCore
import Zlib
import HTTPTestSupport

/// The execution model (docs/http.md): what runs on the event loops, what on the worker pool,
/// and the bounds on what a connection may hold.
@Suite("Server: execution model and response memory")
struct ServerExecutionTests {
    @Test("light routes run on the loop; compute and heavy routes on the worker pool; the context says which")
    func whereHandlersRun() throws {
        let seen = Recorder<(String, Bool)>()
        let s = try TestServer(routes: { r in
            r.get("/light") { _, ctx in seen.append(("light", ctx.isOnEventLoop)); return .text("l") }
            r.get("/compute", cost: .compute) { _, ctx in seen.append(("compute", ctx.isOnEventLoop)); return .text("c") }
            r.get("/heavy", cost: .heavy) { _, ctx in seen.append(("heavy", ctx.isOnEventLoop)); return .text("h") }
        })
        for path in ["/light", "/compute", "/heavy"] { #expect(try s.get(path).status == 200) }
        let byRoute = Dictionary(seen.all, uniquingKeysWith: { a, _ in a })
        #expect(byRoute == ["light": true, "compute": false, "heavy": false])
    }

    @Test("a planner answers from the loop when it can, offloads otherwise; its errors are answered on the loop")
    func plannedRoutes() throws {
        let seen = Recorder<(String, Bool)>()
        let s = try TestServer(routes: { r in
            r.plan(.get, "/answer", cost: .compute) { req, ctx in
                seen.append(("planner", ctx.isOnEventLoop))
                switch req.query["mode"] {
                case "cached": return .respond(.text("from memory"))
                case "bad": throw ProblemDetails.invalidParameter("mode", value: "bad", accepted: "cached or computed")
                default: return .offload {
                    seen.append(("work", false))
                    return .text("computed")
                }
                }
            }
        })
        let cached = try s.get("/answer?mode=cached")
        #expect(cached.status == 200 && cached.bodyText == "from memory")
        let computed = try s.get("/answer?mode=computed")
        #expect(computed.status == 200 && computed.bodyText == "computed")
        let bad = try s.get("/answer?mode=bad")
        #expect(bad.status == 400 && bad.header("content-type") == "application/problem+json")
        #expect(bad.json["parameter"] as? String == "mode")
        // The planner always ran on the loop; the work ran once, on a worker.
        #expect(seen.all.filter { $0.0 == "planner" }.allSatisfy { $0.1 })
        #expect(seen.all.filter { $0.0 == "work" }.count == 1)
        // A HEAD of a planned GET is planned the same way.
        let c = try s.client()
        try c.send("HEAD /answer?mode=computed HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try c.readResponse(head: true)
        #expect(head.status == 200 && head.body.isEmpty && head.header("content-length") == "8")
    }

    @Test("heavy work never takes every worker: compute requests are served while pictures render")
    func heavyLeavesRoomForCompute() throws {
        let started = Latch(), release = Latch()
        let renderEvents = Recorder<String>()
        let s = try TestServer(configure: { $0.workerPoolSize = 2 }, routes: { r in
            r.get("/render", cost: .heavy) { _, _ in
                renderEvents.append("started")
                started.open()
                _ = release.wait(timeout: 30)
                renderEvents.append("finished")
                return .text("rendered")
            }
            r.get("/positions", cost: .compute) { _, _ in .text("positions") }
        })
        defer { release.open() }
        let renders = try (0..<2).map { _ in try s.client() }
        for c in renders { try c.send("GET /render HTTP/1.1\r\nHost: t\r\n\r\n") }
        #expect(started.wait())
        // One render runs (heavy concurrency is pool size − 1), one waits; compute work still runs.
        // Order, not speed: every compute answer comes while the render still holds its worker
        // (it is released only below). Compute work queued behind the renders would be answered
        // only after a render gave up its wait (30 s), and "finished" would be recorded first.
        for _ in 0..<5 { #expect(try s.get("/positions").bodyText == "positions") }
        #expect(renderEvents.all == ["started"], "\(renderEvents.all)")
        release.open()
        for c in renders { #expect(try c.readResponse().bodyText == "rendered") }
    }

    @Test("over the response-memory limit, offloaded requests with large answers get 503 (reason memory) while light routes and small answers are served")
    func memoryLimitRefusesOffloadedWork() throws {
        let ledger = MemoryLedger()
        let s = try TestServer(configure: { $0.responseMemoryLimit = 1 << 20; $0.memoryLedger = ledger }, routes: { r in
            r.get("/light") { _, _ in .text("light") }
            r.get("/compute", cost: .compute) { _, _ in .text("computed") }
            r.get("/snapshot", cost: .compute, answers: .small) { _, _ in .text("small") }
        })
        #expect(try s.get("/compute").status == 200)
        do {
            // Hold 2 MiB of encoded bodies, as a cache full of answers would.
            let held = (0..<2).map { _ in
                EncodedBody(bytes: [UInt8](repeating: 7, count: 1 << 20), contentType: "application/octet-stream", ledger: ledger)
            }
            #expect(ledger.bytes == 2 << 20)
            let refused = try s.get("/compute")
            #expect(refused.status == 503)
            #expect(refused.header("retry-after") == "1")
            #expect(s.server.metrics.offloadRejected.value(labels: ["memory"]) == 1)
            #expect(try s.get("/light").bodyText == "light")
            #expect(try s.get("/snapshot").bodyText == "small")
            withExtendedLifetime(held) {}
        }
        #expect(ledger.bytes == 0)
        #expect(try s.get("/compute").status == 200)
    }

    @Test("an encoded body is sent as its gzip variant without compressing again, with its own ETag, and 304s from memory")
    func encodedBodies() throws {
        let json = Array(String(repeating: #"{"id":"earth","x":0.123456789},"#, count: 200).utf8)
        let body = EncodedBody(bytes: json, contentType: "application/json")
        let gzip = try #require(body.gzip)
        let s = try TestServer(routes: { r in
            r.get("/encoded") { _, _ in HTTPResponse(encoded: body).immutable() }
        })
        let plain = try s.get("/encoded")
        #expect(plain.body == json && plain.header("etag") == body.etag)
        #expect(plain.headerValues("vary").joined(separator: ",").contains("Accept-Encoding"))
        let zipped = try s.get("/encoded", headers: ["Accept-Encoding": "gzip"])
        #expect(zipped.header("content-encoding") == "gzip")
        #expect(zipped.body == gzip, "the stored variant, byte for byte")
        #expect(gunzip(zipped.body) == json)
        #expect(zipped.header("etag") == ETagMiddleware.gzipVariant(of: body.etag))
        let revalidated = try s.get("/encoded", headers: ["Accept-Encoding": "gzip", "If-None-Match": zipped.header("etag") ?? ""])
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
    }

    @Test("a client that stops reading a streamed body holds at most its window; it is closed once it stalls")
    func slowReaderHoldsItsWindowOnly() throws {
        let produced = Recorder<Int>()
        let s = try TestServer(configure: {
            $0.outputHighWaterMark = 64 * 1024
            $0.writeStallTimeout = 1
            $0.memoryLedger = MemoryLedger() // count this server's bytes only
        }, routes: { r in
            r.get("/endless") { _, _ in
                .stream(contentType: "text/plain", BodyProducer(state: 0) { n in
                    n += 1
                    guard n < 100_000 else { return nil } // 1.6 GB if nobody stopped it
                    produced.append(16 * 1024)
                    return [UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024)
                })
            }
        })
        let c = try s.client(receiveBufferSize: 4096)
        try c.send("GET /endless HTTP/1.1\r\nHost: t\r\n\r\n")
        // Production stops once the kernel buffers and the window are full.
        var last = -1
        #expect(TestServer.eventually(timeout: 5) {
            let now = produced.all.count
            defer { last = now }
            usleep(200_000)
            return now == last && now > 0
        })
        let held = s.server.responseMemoryBytes
        #expect(held <= 64 * 1024 + 16 * 1024 * 5, "\(held) bytes held for one stalled client")
        #expect(produced.all.reduce(0, +) < 32 << 20, "production stopped early, not after the whole body")
        // Stalled past the write timeout: closed, and its bytes released.
        #expect(TestServer.eventually(timeout: 10) { s.server.openConnections == 0 })
        #expect(s.server.responseMemoryBytes == 0)
        #expect(s.server.metrics.timeouts.value(labels: ["write"]) >= 1)
        c.close()
    }

    @Test("a gzip stream a client stops reading charges its deflater's state to response memory until it ends")
    func streamedGzipChargesItsDeflater() throws {
        let s = try TestServer(configure: {
            $0.outputHighWaterMark = 64 * 1024
            $0.writeStallTimeout = 1
            $0.memoryLedger = MemoryLedger() // count this server's bytes only
        }, routes: { r in
            r.get("/series", cost: .compute) { _, _ in
                // Numbers that compress about as well as a real series: 40 MB if nobody stopped it.
                .stream(contentType: "text/csv", BodyProducer(state: 0) { n in
                    n += 1
                    guard n < 2_500 else { return nil }
                    return Array((0..<400).map { "\(n),\(Double($0) * 1.000_001 / Double(n)),\n" }.joined().utf8)
                })
            }
        })
        let deflater = Deflater(format: .gzip, level: 1, memory: .compact, scratchSize: 16 * 1024).retainedBytes
        let c = try s.client(receiveBufferSize: 4096)
        try c.send("GET /series HTTP/1.1\r\nHost: t\r\nAccept-Encoding: gzip\r\n\r\n")
        #expect(TestServer.eventually(timeout: 5) { s.server.responseMemoryBytes >= deflater })
        let held = s.server.responseMemoryBytes
        #expect(held <= deflater + 64 * 1024 + 64 * 1024, "\(held) bytes held for one stalled gzip client")
        #expect(TestServer.eventually(timeout: 10) { s.server.openConnections == 0 })
        #expect(s.server.responseMemoryBytes == 0)
        c.close()
        // Read to the end, the charge is released with the body.
        let whole = try s.get("/series", headers: ["Accept-Encoding": "gzip"])
        #expect(whole.header("content-encoding") == "gzip")
        #expect((gunzip(whole.body)?.count ?? 0) > 10_000_000)
        #expect(TestServer.eventually(timeout: 5) { s.server.responseMemoryBytes == 0 })
    }

    @Test("the event loop knows its own thread (what the debug-build assertions check); timers fire in deadline order")
    func loopIdentity() {
        let loop = EventLoop(index: 0)
        let other = EventLoop(index: 1)
        #expect(!loop.isCurrent)
        loop.start()
        other.start()
        let seen = Mutex<[String]>([])
        let done = DispatchSemaphore(value: 0)
        loop.execute {
            seen.withLock { $0.append("on loop \(loop.isCurrent), on other \(other.isCurrent)") }
            loop.schedule(afterNanos: 30_000_000) { seen.withLock { $0.append("30 ms") }; done.signal() }
            let cancelled = loop.schedule(afterNanos: 10_000_000) { seen.withLock { $0.append("cancelled") } }
            loop.schedule(afterNanos: 20_000_000) { seen.withLock { $0.append("20 ms") } }
            loop.schedule(afterNanos: 0) { seen.withLock { $0.append("now") } }
            loop.cancelTimer(cancelled)
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.withLock { $0 } == ["on loop true, on other false", "now", "20 ms", "30 ms"])
        loop.stop()
        other.stop()
        #expect(loop.waitUntilStopped(seconds: 10))
        #expect(other.waitUntilStopped(seconds: 10))
    }
}
