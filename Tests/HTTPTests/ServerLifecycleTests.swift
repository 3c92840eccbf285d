import Foundation
import Testing
@testable import HTTPCore
import HTTPTestSupport

@Suite("Server: offloading and shutdown")
struct ServerLifecycleTests {
    @Test func heavyRouteDoesNotStallOtherConnections() throws {
        let started = Latch(), release = Latch()
        let s = try TestServer(configure: { $0.eventLoopCount = 1; $0.workerPoolSize = 2 }, routes: { r in
            r.get("/render", cost: .heavy) { _, _ in
                started.open()
                // Blocks until the test has been served by the same (single) loop.
                _ = release.wait(timeout: 30)
                return .text("rendered")
            }
            r.get("/hello") { _, _ in .text("hello") }
        })
        let heavy = try s.client()
        try heavy.send("GET /render HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(started.wait())
        // Same event loop, heavy handler still running: this must be answered now.
        #expect(try s.get("/hello").bodyText == "hello")
        release.open()
        #expect(try heavy.readResponse().bodyText == "rendered")
        // The connection that waited keeps working.
        try heavy.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try heavy.readResponse().bodyText == "hello")
    }

    @Test func heavyRoutesBeyondTheCapAndTheWaitListGet503WithRetryAfter() throws {
        let started = Latch(), release = Latch()
        let s = try TestServer(configure: { $0.workerPoolSize = 1; $0.heavyQueueLimit = 1 }, routes: { r in
            r.get("/render", cost: .heavy) { _, _ in
                started.open()
                _ = release.wait(timeout: 30)
                return .text("rendered")
            }
        })
        let first = try s.client()
        try first.send("GET /render HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(started.wait())
        // The second waits for the worker; the third finds the wait list full.
        let second = try s.client()
        try second.send("GET /render HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(TestServer.eventually { s.server.offloadedInFlight == 2 })
        let third = try s.get("/render")
        #expect(third.status == 503)
        #expect(third.header("retry-after") == "1")
        #expect(third.header("content-type") == "application/problem+json")
        #expect(s.server.metrics.offloadRejected.value(labels: ["workers"]) == 1)
        release.open()
        #expect(try first.readResponse().bodyText == "rendered")
        #expect(try second.readResponse().bodyText == "rendered")
        #expect(TestServer.eventually { s.server.offloadedInFlight == 0 })
        let fourth = try s.get("/render")
        #expect(fourth.bodyText == "rendered")
    }

    @Test func gracefulShutdownFinishesTheRequestInFlight() throws {
        let started = Latch(), release = Latch()
        let s = try TestServer(routes: { r in
            r.get("/slow", cost: .heavy) { _, _ in
                started.open()
                _ = release.wait(timeout: 30)
                return .text("finished")
            }
            r.get("/hello") { _, _ in .text("hello") }
        })
        let idle = try s.client()
        try idle.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let busy = try s.client()
        try busy.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(started.wait())
        s.server.shutdown(deadline: 20)
        // Idle keep-alive connections are closed right away; new ones are refused.
        #expect(idle.waitForClose())
        #expect(TestServer.eventually { (try? RawClient(port: s.port)) == nil })
        #expect(!s.server.waitUntilStopped(timeout: 0.2))
        release.open()
        let r = try busy.readResponse()
        #expect(r.status == 200)
        #expect(r.bodyText == "finished")
        #expect(r.header("connection") == "close")
        #expect(busy.waitForClose())
        #expect(s.server.waitUntilStopped(timeout: 10))
    }

    @Test func shutdownTellsEventStreamsToEnd() throws {
        let closed = Recorder<EventStream.CloseReason>()
        let s = try TestServer(routes: { r in
            r.get("/mission") { _, _ in
                .eventStream { stream in
                    stream.send(event: "telemetry", data: "{}")
                    stream.onShutdown {
                        stream.send(event: "end", data: "{\"reason\":\"shutdown\"}")
                        stream.close()
                    }
                    stream.onClose { closed.append($0) }
                }
            }
            r.get("/quiet") { _, _ in .eventStream { _ in } }
        })
        let a = try s.client(), b = try s.client()
        try a.send("GET /mission HTTP/1.1\r\nHost: t\r\n\r\n")
        try b.send("GET /quiet HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(TestServer.eventually { s.server.openEventStreams == 2 })
        s.server.shutdown(deadline: 10)
        let mission = try a.readResponse()
        #expect(mission.bodyText == "event: telemetry\ndata: {}\n\nevent: end\ndata: {\"reason\":\"shutdown\"}\n\n")
        #expect(mission.header("connection") == nil || mission.header("connection") == "close")
        let quiet = try b.readResponse()
        #expect(quiet.status == 200)
        #expect(quiet.body.isEmpty)
        #expect(s.server.waitUntilStopped(timeout: 10))
        #expect(closed.all == [.closedByApp])
    }

    @Test func shutdownDeadlineClosesWhatIsLeft() throws {
        let release = Latch()
        let s = try TestServer(routes: { r in
            r.get("/stuck", cost: .heavy) { _, _ in
                _ = release.wait(timeout: 30)
                return .text("late")
            }
        })
        defer { release.open() }
        let c = try s.client()
        try c.send("GET /stuck HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(TestServer.eventually { s.server.offloadedInFlight == 1 })
        s.server.shutdown(deadline: 0.3)
        #expect(s.server.waitUntilStopped(timeout: 10))
        #expect(c.waitForClose())
    }
}
