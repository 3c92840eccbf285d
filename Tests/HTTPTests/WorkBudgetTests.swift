import Foundation
import Glibc
import Testing
@testable import HTTPCore
import HTTPTestSupport

/// Work on the worker pool stops when nobody wants it any more (the client closed) or when the
/// request has spent its CPU budget: cooperatively, at the handler's checks. Asserted by order,
/// not by clock: with one worker, the next request runs only once the stopped one has given the
/// worker back, and the stopped one records why it stopped.
@Suite("Server: request CPU budget and cancellation")
struct WorkBudgetTests {
    /// Spins, checking the budget, until it throws (or a safety cap, so a broken server fails the
    /// test instead of hanging it); records why it stopped.
    static func spin(_ log: Recorder<String>, started: Latch? = nil, cap: Double = 60) throws -> HTTPResponse {
        started?.open()
        let until = Date().addingTimeInterval(cap)
        var x = 0.0
        while Date() < until {
            for i in 0..<1_000 { x += sin(Double(i)) }
            do {
                try WorkBudget.checkCurrent()
            } catch {
                log.append("stopped: \(error.status.code)")
                throw error
            }
        }
        log.append("ran to the cap \(x)")
        return .text("done")
    }

    @Test("a client that closes while its answer is computed stops the computation before the next request runs")
    func closedClientStopsItsWork() throws {
        let log = Recorder<String>()
        let started = Latch()
        let s = try TestServer(configure: { $0.workerPoolSize = 1 }, routes: { r in
            r.get("/spin", cost: .compute) { _, _ in try Self.spin(log, started: started) }
            r.get("/next", cost: .compute) { _, _ in
                log.append("next ran")
                return .text("next")
            }
        })
        let gone = try s.client()
        try gone.send("GET /spin HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(started.wait())
        gone.close()
        // One worker: /next runs only after /spin gives it back.
        let next = try s.get("/next")
        #expect(next.bodyText == "next")
        #expect(log.all == ["stopped: 499", "next ran"])
        // The abandoned request is logged and counted as nginx does: 499.
        #expect(TestServer.eventually { s.server.metrics.requests.value(labels: ["/spin", "GET", "499"]) == 1 })
    }

    @Test("a request past its CPU budget is stopped with a 503 problem naming the limit")
    func spentBudgetIs503NamingTheLimit() throws {
        let log = Recorder<String>()
        let s = try TestServer(configure: { $0.requestCPULimit = 0.05 }, routes: { r in
            r.get("/spin", cost: .compute) { _, _ in try Self.spin(log) }
        })
        let r = try s.get("/spin")
        #expect(r.status == 503)
        #expect(r.header("content-type") == "application/problem+json")
        #expect(r.json["limit"] as? String == "--request-cpu-limit")
        #expect(r.json["limitSeconds"] as? Double == 0.05)
        #expect((r.json["detail"] as? String)?.contains("CPU budget of 0.05 s") == true)
        #expect(log.all == ["stopped: 503"])
    }

    @Test("the budget counts CPU, not waiting: a handler that sleeps past it is not stopped")
    func waitingIsNotSpending() throws {
        let s = try TestServer(configure: { $0.requestCPULimit = 0.05 }, routes: { r in
            r.get("/sleep", cost: .compute) { _, _ in
                for _ in 0..<20 {
                    usleep(10_000)
                    try WorkBudget.checkCurrent()
                }
                return .text("slept")
            }
        })
        #expect(try s.get("/sleep").bodyText == "slept")
    }

    @Test("a streamed body past its CPU budget is cut, and the connection closed, not finished as if whole")
    func streamedBodyStopsAtItsBudget() throws {
        let s = try TestServer(configure: { $0.requestCPULimit = 0.05 }, routes: { r in
            r.get("/long", cost: .compute) { _, _ in
                .stream(contentType: "text/plain", BodyProducer(state: 0) { n in
                    var x = 0.0
                    for i in 0..<200_000 { x += sin(Double(i)) }
                    n += 1
                    return n > 100_000 ? nil : Array("chunk \(n) \(x > 0)\n".utf8)
                })
            }
        })
        let c = try s.client()
        try c.send("GET /long HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(throws: (any Error).self) { _ = try c.readResponse() }
    }

    @Test func budgetWithoutALimitNeverStops() throws {
        let budget = WorkBudget(cpuLimitSeconds: 0)
        try budget.run {
            for _ in 0..<100 { try budget.check() }
        }
        #expect(budget.stopReason == nil)
        budget.cancel(.clientGone)
        budget.cancel(.budgetSpent)
        #expect(budget.stopReason == .clientGone, "the first reason stays")
        #expect(throws: ProblemDetails.self) { try budget.check() }
    }
}
