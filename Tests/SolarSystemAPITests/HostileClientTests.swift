import Foundation
import HTTPTestSupport
import Storage
import Testing

/// The real executable under the loads of issue 11: heavy requests, a database another process
/// has locked, and clients that ask for the largest answers and never read them. No time or
/// memory bounds: these check, by order and counts, that nothing waits on what it must not, not
/// how fast it is or how much it holds (scripts/bench-api.sh measures those).
@Suite("solarsystem serve under load and hostile clients", .serialized)
struct HostileClientTests {
    /// One request on a fresh connection (a generous receive timeout: a debug build on a busy CI
    /// machine is slow; nothing here times the answers).
    static func get(_ port: Int, _ target: String) throws -> RawResponse {
        try RawClient.get(port: port, target, receiveTimeout: 120)
    }

    /// A counter's value in the server's /metrics, or nil.
    static func metric(_ port: Int, _ name: String) -> Double? {
        guard let text = try? get(port, "/metrics").bodyText else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

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
        let sent = Recorder<Bool>()
        let completed = Recorder<Int>()
        let finished = Recorder<Bool>()
        // Threads of their own, not the global queue: with the whole suite running in parallel
        // the global queue's threads can all be busy, and a client that has not started yet
        // would leave no probe counted.
        for (i, target) in heavy.enumerated() {
            done.enter()
            Thread {
                defer { finished.append(true); done.leave() }
                guard let c = try? RawClient(port: port, receiveTimeout: 120) else { return }
                defer { c.close() }
                let gzip = i < 8 ? "Accept-Encoding: gzip\r\n" : ""
                guard (try? c.send("GET \(target) HTTP/1.1\r\nHost: t\r\n\(gzip)\r\n")) != nil else { return }
                sent.append(true)
                if let r = try? c.readResponse(), r.status == 200 { completed.append(r.body.count) }
            }.start()
        }
        // Order, not speed: a /healthz sent after every heavy request was sent is answered while
        // more than two of them are still unanswered. Queued behind them on two workers it could
        // only be answered once eight had completed. (Latency bounds failed on loaded CI machines;
        // the speed is measured by scripts/bench-api.sh.)
        var answeredWhileHeavyInProgress = 0, probes = 0
        while finished.all.count < heavy.count, probes < 500 {
            let allSent = sent.all.count == heavy.count
            let r = try Self.get(port, "/healthz")
            #expect(r.status == 200)
            probes += 1
            if allSent, heavy.count - finished.all.count > 2 { answeredWhileHeavyInProgress += 1 }
            usleep(20_000)
        }
        done.wait()
        #expect(completed.all.count == heavy.count, "every heavy request completed")
        print("[load] /healthz during heavy requests: \(answeredWhileHeavyInProgress) of \(probes) answered after every heavy request was sent and while more than two ran")
        // One such answer shows it: what makes the count mean something is what is counted (a probe
        // before the heavy requests reached the server used to count too).
        #expect(answeredWhileHeavyInProgress > 0, "\(answeredWhileHeavyInProgress) of \(probes)")
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
        // The lock is held for the whole test: an answer at all shows nothing waited for its
        // release. That no request waits even for a busy timeout is shown by order, without a
        // clock, in StorageTests' SampleCacheLockTests (a put returns while the writer is held).
        let h = try RawClient.get(port: port, "/healthz", receiveTimeout: 120)
        #expect(h.status == 200)
        let r = try RawClient.get(port: port, "/readyz", receiveTimeout: 120)
        #expect(r.status == 200, "\(r.bodyText)")
        let t = try Self.get(port, "/v1/missions/cassini/trajectory?samples=777")
        #expect(t.status == 200, "\(t.bodyText)")
        // A second, different trajectory while still locked; the server keeps answering.
        #expect(try Self.get(port, "/v1/missions/voyager2/trajectory?samples=333").status == 200)
        // Both answers were computed and served although their cache writes met the lock: the
        // writer gives them up after its tries (the lock was real, and the answers did not need it).
        #expect(TestServer.eventually(timeout: 30) {
            Self.metric(port, "solarsystem_sample_cache_writes_dropped_total") == 2
        }, "writes dropped: \(Self.metric(port, "solarsystem_sample_cache_writes_dropped_total") ?? -1)")
        // The background check (every 5 s) sees the lock; the deadline only detects that it never does.
        #expect(TestServer.eventually(timeout: 60) {
            ((try? Self.get(port, "/readyz").bodyText) ?? "").contains("\"busy\"")
        })
    }

    @Test("200 clients that ask for the largest answers and never read: others are served meanwhile")
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
        #expect(try Self.get(port, "/healthz").status == 200)
        #expect(try Self.get(port, "/v1/positions?date=2031-05-05").status == 200)
        #expect(try Self.get(port, "/v1/scene?date=now").status == 200)
        // The memory budget (100 MB) is measured by scripts/bench-api.sh (scripts/load-clients.py
        // slow, a release build; docs/benchmarks.md), not here: a debug build's resident size is not
        // the budget's, and how many answers are under way at once depends on the machine.
        print("[load] resident memory with 200 clients that do not read: peak \(peak) MiB (the budget is checked by scripts/bench-api.sh)")
    }

    @Test("thousands of mission streams that never read, then all gone at once: every replay ends, and the server serves on")
    func abandonedStreamsEnd() throws {
        // As many as this process may open, up to 3,000 (the server raises its own limit).
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = min(limit.rlim_max, 8_192)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        let count = min(3_000, Int(limit.rlim_cur) - 200)
        let (process, port, _) = try ProcessLifecycleTests.launch()
        defer { process.terminate(); ProcessLifecycleTests.waitForExit(process) }
        var clients: [RawClient] = []
        defer { for c in clients { c.abort() } }
        for i in 0..<count {
            let c = try RawClient(port: port, receiveTimeout: 30, receiveBufferSize: 4096)
            try c.send("GET /v1/missions/\(i % 2 == 0 ? "apollo11" : "voyager2")/stream?rate=10&speed=100 HTTP/1.1\r\nHost: t\r\n\r\n")
            clients.append(c)
        }
        // Many open at once. Not all need be: the write-stall timeout ends streams that never
        // read (3 s when the server is short of memory), and under CI's load (every suite at
        // once, a debug build) 1,704 of 3,000 were the most seen running together.
        var peak = 0.0
        #expect(TestServer.eventually(timeout: 60) {
            peak = max(peak, Self.metric(port, "solarsystem_mission_streams_open") ?? 0)
            return peak >= Double(count) / 4
        }, "at most \(peak) of \(count) replays running")
        usleep(1_000_000)
        // Reset, not closed: their unread bytes make each a RST, as a crashed client's would.
        for c in clients { c.abort() }
        clients = []
        // Each replay ends: its stream closes, and the ticker stops ticking it. (With each
        // replay on a serial queue that the ticker's workers waited on, 6,000 such streams
        // left 6,000 replays running.)
        #expect(TestServer.eventually(timeout: 60) { Self.metric(port, "solarsystem_mission_streams_open") == 0 },
                "\(Self.metric(port, "solarsystem_mission_streams_open") ?? -1) of \(count) replays still running")
        #expect(Self.metric(port, "http_sse_streams_open") == 0)
        #expect(Self.metric(port, "http_sse_held_bytes") == 0)
        #expect(try Self.get(port, "/healthz").status == 200)
        let c = try RawClient(port: port, receiveTimeout: 60)
        defer { c.close() }
        try c.send("GET /v1/missions/apollo11/stream?speed=1e6&rate=30&from=190 HTTP/1.1\r\nHost: t\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 200 && r.bodyText.contains("event: end"))
    }
}
