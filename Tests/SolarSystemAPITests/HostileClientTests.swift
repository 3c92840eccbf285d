import Foundation
import HTTPTestSupport
import Storage
import Testing

/// The real executable under the loads of issue 11: heavy requests, a database another process
/// has locked, and clients that ask for the largest answers and never read them. Generous bounds:
/// these check that nothing waits on what it must not, not how fast it is (scripts/bench-api.sh
/// measures that).
@Suite("solarsystem serve under load and hostile clients", .serialized)
struct HostileClientTests {
    /// Milliseconds of one request on a fresh connection (a generous receive timeout: a debug
    /// build on a busy CI machine is slow; the bounds that matter are asserted by the callers).
    static func timed(_ port: Int, _ target: String) throws -> (Double, RawResponse) {
        let start = Date()
        let r = try RawClient.get(port: port, target, receiveTimeout: 120)
        return (Date().timeIntervalSince(start) * 1000, r)
    }

    static func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }

    /// Resident memory of a process, in MiB (Linux).
    static func residentMiB(_ pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kb / 1024
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("solarsystem-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test("while 8 clients fetch 4,096-sample orbits with gzip and 2 fetch 70,000-sample series, /healthz keeps answering")
    func healthzUnderHeavyLoad() throws {
        let (process, port, _) = try ProcessLifecycleTests.launch()
        defer { process.terminate(); ProcessLifecycleTests.waitForExit(process) }
        let heavy = (0..<8).map { _ in "/v1/orbits?date=now&samples=4096" } + (0..<2).map { _ in
            "/v1/positions/moon?start=2026-01-01&stop=2027-12-31&step=15m&center=earth"
        }
        let done = DispatchGroup()
        let completed = Recorder<Int>()
        let finished = Recorder<Bool>()
        for (i, target) in heavy.enumerated() {
            DispatchQueue.global().async(group: done) {
                defer { finished.append(true) }
                guard let c = try? RawClient(port: port, receiveTimeout: 120) else { return }
                defer { c.close() }
                let gzip = i < 8 ? "Accept-Encoding: gzip\r\n" : ""
                try? c.send("GET \(target) HTTP/1.1\r\nHost: t\r\n\(gzip)\r\n")
                if let r = try? c.readResponse(), r.status == 200 { completed.append(r.body.count) }
            }
        }
        // Order, not speed: /healthz is answered while heavy requests are still in progress, so it
        // is not queued behind them. (Latency bounds failed on loaded CI machines; the speed is
        // measured by scripts/bench-api.sh.)
        var latencies: [Double] = []
        var answeredWhileHeavyInProgress = 0
        while finished.all.count < heavy.count, latencies.count < 200 {
            let (ms, r) = try Self.timed(port, "/healthz")
            #expect(r.status == 200)
            latencies.append(ms)
            if finished.all.count < heavy.count { answeredWhileHeavyInProgress += 1 }
            usleep(20_000)
        }
        done.wait()
        #expect(completed.all.count == heavy.count, "every heavy request completed")
        print("[load] /healthz during heavy requests: \(answeredWhileHeavyInProgress) answered while they ran, median \(latencies.isEmpty ? 0 : Self.median(latencies)) ms")
        #expect(answeredWhileHeavyInProgress >= 1)
    }

    @Test("another process holds BEGIN IMMEDIATE on the database: /healthz and /readyz answer while it does, a trajectory is computed")
    func databaseLockedByAnotherProcess() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("cache.sqlite").path
        let (process, port, _) = try ProcessLifecycleTests.launch(db: path)
        defer { process.terminate(); ProcessLifecycleTests.waitForExit(process) }
        // The lock holder: a second connection that takes the write lock and keeps it.
        let holder = try Database(path: path)
        try holder.execute("BEGIN IMMEDIATE")
        defer {
            try? holder.execute("ROLLBACK")
            holder.close()
        }
        // The lock is held for the whole test: an answer at all shows nothing waited for it.
        // The one time bound is far from both sides: a regression to 5 s busy timeouts took 15 s
        // for the trajectory; computing it takes well under a second even on a loaded machine.
        let h = try RawClient.get(port: port, "/healthz", receiveTimeout: 120)
        #expect(h.status == 200)
        let r = try RawClient.get(port: port, "/readyz", receiveTimeout: 120)
        #expect(r.status == 200, "\(r.bodyText)")
        let (trajectory, t) = try Self.timed(port, "/v1/missions/cassini/trajectory?samples=777")
        #expect(t.status == 200, "\(t.bodyText)")
        #expect(trajectory < 10_000, "\(trajectory) ms (three busy timeouts took 15 s before)")
        // A second, different trajectory while still locked; the server keeps answering.
        #expect(try Self.timed(port, "/v1/missions/voyager2/trajectory?samples=333").1.status == 200)
        // Within a few check periods the background check has seen the lock.
        #expect(TestServer.eventually(timeout: 12) {
            ((try? Self.timed(port, "/readyz").1.bodyText) ?? "").contains("\"busy\"")
        })
    }

    @Test("200 clients that ask for the largest answers and never read: memory stays within budget, others are served")
    func slowReadersStayWithinTheMemoryBudget() throws {
        let (process, port, _) = try ProcessLifecycleTests.launch()
        defer { process.terminate(); ProcessLifecycleTests.waitForExit(process) }
        let pid = process.processIdentifier
        let largest = [
            "/v1/orbits?date=2026-11-22&samples=4096", "/v1/orbits?date=now&samples=4096",
            "/v1/positions/mars?start=1950-01-01&stop=2026-01-01&step=7h&format=csv",
            "/v1/stars", "/v1/stars?format=csv", "/v1/missions/cassini/trajectory?samples=20000",
        ]
        var readers: [RawClient] = []
        defer { for c in readers { c.abort() } }
        for i in 0..<200 {
            let c = try RawClient(port: port, receiveTimeout: 30, receiveBufferSize: 4096)
            try c.send("GET \(largest[i % largest.count]) HTTP/1.1\r\nHost: t\r\nAccept-Encoding: \(i % 2 == 0 ? "gzip" : "identity")\r\n\r\n")
            readers.append(c)
        }
        // Let every answer start and the windows fill; memory settles.
        var peak = 0.0
        for _ in 0..<30 {
            usleep(200_000)
            peak = max(peak, Self.residentMiB(pid) ?? 0)
        }
        // Others are served meanwhile, including work that needs a worker.
        #expect(try Self.timed(port, "/healthz").1.status == 200)
        #expect(try Self.timed(port, "/v1/positions?date=2031-05-05").1.status == 200)
        #expect(try Self.timed(port, "/v1/scene?date=now").1.status == 200)
        print("[load] resident memory with 200 clients that do not read: peak \(peak) MiB")
        // A size, not a speed: a slower machine has fewer answers under way at once, so it only
        // stays further under the budget.
        #expect(peak > 0 && peak <= 100, "\(peak) MiB resident")
    }
}

