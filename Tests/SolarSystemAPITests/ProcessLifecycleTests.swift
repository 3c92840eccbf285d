import Foundation
import HTTPTestSupport
import Testing

/// The real executable: started on an ephemeral port, stopped with SIGTERM while a mission
/// stream is open.
@Suite("solarsystem serve as a process")
struct ProcessLifecycleTests {
    /// Starts `solarsystem serve` and returns it with the port its start-up line reports.
    static func launch(_ extra: [String] = [], db: String = ":memory:", environment: [String: String] = [:]) throws -> (Process, Int, Pipe) {
        let (p, out) = try start(["serve", "--host", "127.0.0.1", "--port", "0", "--db", db, "--log-format", "json", "--shutdown-grace", "2"] + extra,
                                 environment: environment)
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n") where line.contains("\"listening\"") {
                if let r = line.range(of: #""port":"?(\d+)"#, options: .regularExpression) {
                    let digits = line[r].filter(\.isNumber)
                    if let port = Int(digits) { return (p, port, out) }
                }
            }
        }
        p.terminate()
        throw ClientError(description: "no listening line; output: \(text)")
    }

    /// Starts the executable in `directory` with the environment minus every `SOLARSYSTEM_`
    /// variable plus `environment`; stdout and stderr go to the returned pipe.
    static func start(_ args: [String], environment: [String: String], directory: URL = RepositoryFiles.root) throws -> (Process, Pipe) {
        let exe = RepositoryFiles.executable
        guard FileManager.default.isExecutableFile(atPath: exe.path) else { throw ClientError(description: "no executable at \(exe.path)") }
        let p = Process()
        p.executableURL = exe
        p.currentDirectoryURL = directory
        p.arguments = args
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SOLARSYSTEM_") }
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        return (p, out)
    }

    /// Waits for `p` to exit; after `timeout` seconds it is killed and the wait reported, so a
    /// lost signal fails the test instead of hanging the suite.
    static func waitForExit(_ p: Process, timeout: Double = 20) {
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning, Date() < deadline { usleep(20_000) }
        if p.isRunning {
            Issue.record("process \(p.processIdentifier) still running after \(timeout) s; killed")
            kill(p.processIdentifier, SIGKILL)
        }
        p.waitUntilExit()
    }

    @Test("SIGTERM with an open mission stream: the stream gets `end`, the process exits 0")
    func sigtermEndsStreams() throws {
        let (process, port, _) = try Self.launch()
        let c = try RawClient(port: port, receiveTimeout: 20)
        defer { c.close() }
        try c.send("GET /v1/missions/apollo11/stream?speed=100&rate=5 HTTP/1.1\r\nHost: t\r\n\r\n")
        let first = try c.readUntil { String(decoding: $0, as: UTF8.self).contains("event: telemetry") }
        #expect(String(decoding: first, as: UTF8.self).contains("200"))
        kill(process.processIdentifier, SIGTERM)
        let rest = try c.readUntil { String(decoding: $0, as: UTF8.self).contains("event: end") }
        let text = String(decoding: rest, as: UTF8.self)
        #expect(text.contains("\"reason\":\"shutdown\""))
        Self.waitForExit(process)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test("SIGTERM: idle and half-sent connections close at once, new ones are refused, the request in flight finishes, exit 0")
    func sigtermDrainsOnlyWhatIsInFlight() throws {
        // A grace far longer than any wait here (300 s against waitForExit's 20 s): a shutdown that
        // waited for the grace instead of the request in flight fails waitForExit, on any machine.
        let (process, port, _) = try Self.launch(["--shutdown-grace", "300"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let idle = try RawClient(port: port)
        defer { idle.close() }
        try idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try idle.readResponse().status == 200)
        let half = try RawClient(port: port)
        defer { half.close() }
        try half.send("GET /v1/bodies HTTP/1.1\r\nHost: t\r\n")
        // In flight: 34,993 CSV rows (6.7 MB) produced as the client reads, and this client reads nothing
        // yet (a small receive buffer, so the rows cannot all wait in the kernel).
        let busy = try RawClient(port: port, receiveTimeout: 30, receiveBufferSize: 4096)
        defer { busy.close() }
        try busy.send("GET /v1/positions/moon?start=2026-01-01&stop=2027-12-31&step=30m&center=earth&format=csv HTTP/1.1\r\nHost: t\r\n\r\n")
        usleep(300_000)
        kill(process.processIdentifier, SIGTERM)
        // The 30 s deadlines detect a wait for the 300 s grace, not a slow machine.
        #expect(idle.waitForClose(timeout: 30), "the idle keep-alive connection closes without waiting for the grace")
        #expect(half.waitForClose(timeout: 30), "the half-sent request does not hold the shutdown")
        #expect(TestServer.eventually(timeout: 30) { (try? RawClient(port: port)) == nil }, "new connections are refused")
        #expect(process.isRunning, "the request in flight holds the process")
        let r = try busy.readResponse()
        #expect(r.status == 200)
        let rows = r.bodyText.split(separator: "\n")
        #expect(rows.count == 34_993 + 1, "every row arrives: \(rows.count)")
        #expect(rows.last?.hasPrefix("2027-12-31T00:00:00") == true, "\(rows.last ?? "")")
        #expect(busy.waitForClose(timeout: 5))
        // Order: the process exits once the request in flight has finished, long before the grace.
        Self.waitForExit(process)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    @Test("SIGTERM during start-up ends the process at once (nothing is served yet) with status 0, saying so")
    func sigtermDuringStartup() throws {
        let (process, out) = try Self.start(["serve", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:", "--log-format", "json", "--shutdown-grace", "2"],
                                            environment: [:])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        // The first line (a migration applied) comes from `serve` itself, long before it listens.
        let first = out.fileHandleForReading.availableData
        #expect(!first.isEmpty)
        kill(process.processIdentifier, SIGTERM)
        Self.waitForExit(process)
        let text = String(decoding: first + out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(process.terminationReason) \(process.terminationStatus): \(text)")
        #expect(text.contains("\"signal received during start-up; exiting\""), "\(text)")
        #expect(!text.contains("\"listening\""), "\(text)")
    }
}

/// Configuration of the real executable: flags, environment, resources, health check.
@Suite("solarsystem configuration")
struct ConfigurationTests {
    /// Runs the executable to completion; (exit status, stdout + stderr).
    static func run(_ args: [String], environment: [String: String] = [:], directory: URL = RepositoryFiles.root) throws -> (Int32, String) {
        let (p, out) = try ProcessLifecycleTests.start(args, environment: environment, directory: directory)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("invalid settings stop start-up with a message naming the flag or variable", arguments: [
        (["serve", "--port", "99999"], [:], "--port"),
        (["serve"], ["SOLARSYSTEM_PORT": "abc"], "SOLARSYSTEM_PORT=abc"),
        // What Kubernetes injects for a Service named solarsystem: named, value and all.
        (["serve"], ["SOLARSYSTEM_PORT": "tcp://10.0.0.1:80"], "SOLARSYSTEM_PORT=tcp://10.0.0.1:80 (environment): must be an integer 0…65535; this looks like a Kubernetes service link"),
        (["serve"], ["SOLARSYSTEM_LOG_FORMAT": "xml"], "SOLARSYSTEM_LOG_FORMAT=xml"),
        (["serve"], ["SOLARSYSTEM_MAX_CONNECTIONS": "0"], "SOLARSYSTEM_MAX_CONNECTIONS=0"),
        (["serve", "--cache-max-mb", "0"], [:], "--cache-max-mb"),
        (["serve"], ["SOLARSYSTEM_CACHE_MAX_MB": "lots"], "SOLARSYSTEM_CACHE_MAX_MB=lots"),
        (["serve", "--log-level", "loud"], [:], "--log-level loud"),
        (["serve", "--resources", "/nonexistent"], [:], "/nonexistent"),
        (["serve", "--db", ":memory:"], ["SOLARSYSTEM_RESOURCES": "/nowhere"], "SOLARSYSTEM_RESOURCES /nowhere"),
        (["serve", "--db", ":memory:", "--migrations", "/nonexistent"], [:], "--migrations /nonexistent"),
    ] as [([String], [String: String], String)])
    func invalid(args: [String], environment: [String: String], message: String) throws {
        let (status, output) = try Self.run(args, environment: environment)
        #expect(status != 0)
        #expect(output.contains(message), "\(output)")
        if environment.keys.contains(where: { $0 != "SOLARSYSTEM_RESOURCES" }) {
            // A bad environment value is not a malformed command line: no usage text.
            #expect(!output.contains("USAGE"), "\(output)")
        }
    }

    @Test("a flag wins over its variable; the variable over the default")
    func precedence() throws {
        // Text format from the environment: the start-up line is not JSON.
        // launch() passes --log-format json and finds the JSON start-up line even though the
        // environment asks for text: the flag won.
        let (p1, port1, _) = try ProcessLifecycleTests.launch([], environment: ["SOLARSYSTEM_LOG_FORMAT": "text"])
        #expect(port1 > 0)
        p1.terminate(); ProcessLifecycleTests.waitForExit(p1)
        #expect(p1.terminationStatus == 0)
        // With no flag, the environment's port is used (an invalid one proves it was read).
        let (bad, message) = try Self.run(["serve", "--db", ":memory:"], environment: ["SOLARSYSTEM_PORT": "70000"])
        #expect(bad != 0 && message.contains("SOLARSYSTEM_PORT=70000"))
        // The environment picks the resources when no flag is given; a flag overrides it.
        let (status, output) = try Self.run(["positions", "--date", "2026-01-01", "--bodies", "earth"], environment: ["SOLARSYSTEM_RESOURCES": "/nowhere"])
        #expect(status != 0 && output.contains("/nowhere"))
        let (ok, json) = try Self.run(["positions", "--date", "2026-01-01", "--bodies", "earth", "--resources", "Resources"], environment: ["SOLARSYSTEM_RESOURCES": "/nowhere"])
        #expect(ok == 0 && json.contains("\"earth\""))
    }

    @Test("resources are found in ./Resources when nothing names them; --help lists the variables")
    func lookup() throws {
        let (status, output) = try Self.run(["positions", "--date", "2026-01-01", "--bodies", "mars"])
        #expect(status == 0 && output.contains("\"mars\""))
        let elsewhere = FileManager.default.temporaryDirectory
        let (missing, message) = try Self.run(["positions", "--date", "2026-01-01"], directory: elsewhere)
        #expect(missing != 0 && message.contains("Resources"))
        let (_, help) = try Self.run(["serve", "--help"])
        for name in ["SOLARSYSTEM_HOST", "SOLARSYSTEM_PORT", "SOLARSYSTEM_DB", "SOLARSYSTEM_RESOURCES", "SOLARSYSTEM_LOG_LEVEL", "SOLARSYSTEM_LOG_FORMAT", "SOLARSYSTEM_CORS_ORIGINS", "SOLARSYSTEM_MAX_CONNECTIONS"] {
            #expect(help.contains(name), "\(name) missing from --help")
        }
    }

    @Test("healthcheck exits 0 for a healthy server, 1 for an error status or no server, 64 for a bad URL")
    func healthcheck() throws {
        let (process, port, _) = try ProcessLifecycleTests.launch()
        defer { if process.isRunning { process.terminate(); ProcessLifecycleTests.waitForExit(process) } }
        #expect(try Self.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/healthz"]).0 == 0)
        #expect(try Self.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/nothing-here"]).0 == 1)
        // No --url: /healthz on the address serve reads from the same variables; the wildcard
        // address it listens on by default means loopback.
        for host in ["0.0.0.0", "127.0.0.1", "::"] {
            let (status, output) = try Self.run(["healthcheck"], environment: ["SOLARSYSTEM_HOST": host, "SOLARSYSTEM_PORT": "\(port)"])
            if host == "::" {
                #expect(status == 1 && output.contains("http://[::1]:\(port)/healthz"), "\(output)") // serve listens on 127.0.0.1 only
            } else {
                #expect(status == 0 && output.contains("http://127.0.0.1:\(port)/healthz answered 200"), "\(output)")
            }
        }
        let (zero, message) = try Self.run(["healthcheck"], environment: ["SOLARSYSTEM_PORT": "0"])
        #expect(zero == 64 && message.contains("SOLARSYSTEM_PORT=0"), "\(message)")
        process.terminate(); ProcessLifecycleTests.waitForExit(process)
        #expect(try Self.run(["healthcheck", "--url", "http://127.0.0.1:\(port)/healthz", "--timeout", "1"]).0 == 1)
        #expect(try Self.run(["healthcheck", "--timeout", "1"], environment: ["SOLARSYSTEM_PORT": "\(port)"]).0 == 1)
        #expect(try Self.run(["healthcheck", "--url", "ftp://example"]).0 == 64)
    }

    @Test("--cache-max-mb and SOLARSYSTEM_CACHE_MAX_MB cap the SQLite cache of the running server: old rows are evicted, recent ones still hit after a restart")
    func cacheCap() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("solarsystem-cap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("cache.sqlite").path
        func get(_ port: Int, _ target: String) throws -> RawResponse { try RawClient.get(port: port, target, receiveTimeout: 30) }
        func metric(_ port: Int, _ name: String) -> Double? {
            guard let text = try? get(port, "/metrics").bodyText else { return nil }
            let line = text.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            return line.flatMap { Double($0.split(separator: " ").last ?? "") }
        }
        // Cassini at 5,000 samples is one row of about 285 KB: eight of them are twice the cap.
        let counts = Array(5_000..<5_008)
        // The flag wins over the variable (500 MiB would evict nothing).
        let (first, port1, _) = try ProcessLifecycleTests.launch(["--cache-max-mb", "1"], db: db, environment: ["SOLARSYSTEM_CACHE_MAX_MB": "500"])
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        // The trajectories' share of the cap: three quarters (the small bodies' chunks have the rest).
        #expect(metric(port1, "solarsystem_sample_cache_max_bytes") == 786_432)
        for n in counts {
            #expect(try get(port1, "/v1/missions/cassini/trajectory?samples=\(n)").status == 200)
        }
        // Writes are queued off the request path: wait until every row was written or evicted.
        #expect(TestServer.eventually(timeout: 20) {
            let rows = metric(port1, "solarsystem_sample_cache_rows") ?? 0
            let evicted = metric(port1, "solarsystem_sample_cache_evictions_total") ?? 0
            return rows + evicted == Double(counts.count) && evicted > 0
        }, "rows \(metric(port1, "solarsystem_sample_cache_rows") ?? -1), evictions \(metric(port1, "solarsystem_sample_cache_evictions_total") ?? -1)")
        let bytes = metric(port1, "solarsystem_sample_cache_bytes") ?? .infinity
        #expect(bytes <= 1_048_576, "\(bytes) bytes held under a 1 MiB cap")
        first.terminate(); ProcessLifecycleTests.waitForExit(first)
        #expect(first.terminationStatus == 0)

        // Restarted on the same file with only the variable: the cap comes from it, the newest
        // row is served from SQLite, the oldest was evicted and is computed again.
        let (second, port2, _) = try ProcessLifecycleTests.launch([], db: db, environment: ["SOLARSYSTEM_CACHE_MAX_MB": "1"])
        defer { if second.isRunning { kill(second.processIdentifier, SIGKILL) } }
        #expect(metric(port2, "solarsystem_sample_cache_max_bytes") == 786_432)
        #expect(try get(port2, "/v1/missions/cassini/trajectory?samples=\(counts.last!)").status == 200)
        #expect(metric(port2, "solarsystem_sample_cache_hits_total") == 1)
        #expect(try get(port2, "/v1/missions/cassini/trajectory?samples=\(counts.first!)").status == 200)
        #expect(metric(port2, "solarsystem_sample_cache_misses_total") == 1)
        second.terminate(); ProcessLifecycleTests.waitForExit(second)
    }

    @Test("migrate applies once and lists what it applied")
    func migrate() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("solarsystem-migrate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("db.sqlite").path
        let (s1, o1) = try Self.run(["migrate", "--db", db])
        #expect(s1 == 0 && o1.contains("0001_trajectory_cache.sql"))
        let (s2, o2) = try Self.run(["migrate", "--db", db])
        #expect(s2 == 0 && o2.contains("nothing to apply"))
        let (s3, o3) = try Self.run(["migrate", "--db", db, "--list"])
        #expect(s3 == 0 && o3.contains("0001") && o3.contains("applied"))
    }
}
