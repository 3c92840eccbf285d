import Foundation
import Testing
@testable import Storage

/// Issue 11: SQLite never makes a request wait on a lock. Another connection or process holds the
/// write lock; the cache must still answer. Order, not speed: each probe is shown to answer while
/// what it must not wait for (the lock, the writer's queue, the writer's connection) is still
/// held, so a loaded machine cannot fail these and a regression that waits cannot pass.
@Suite("SampleCache under a lock held by another connection or process")
struct SampleCacheLockTests {
    /// How long a probe may take before it counts as waiting for what is held. A hang detector
    /// only: a probe that waits on a held queue never finishes by itself, and this only bounds how
    /// long the test takes to say so.
    static let hangDetector: DispatchTimeInterval = .seconds(30)

    static func key(_ samples: Int) -> SampleCacheKey { SampleCacheTests.key("cassini", vehicle: "cassini", samples: samples) }
    static func values(_ samples: Int) -> [Double] { (0..<(samples * 3)).map { Double($0) * 0.5 } }

    /// Runs the checks while `lock` holds the write lock on the cache's file, releasing it with
    /// `release` half-way; `cache` already holds `key(1)`.
    static func exercise(_ cache: SampleCache, release: () throws -> Void) throws {
        let clock = ContinuousClock()
        let before = cache.statistics

        // A stored row reads back while the lock is held (it is released only below): WAL readers
        // do not wait for a writer. A read that met the lock would answer nil and count as busy.
        // Should one ever meet a lock, it waits at most the cache's short busy timeout.
        #expect(try cache.get(key(1)) == values(1))
        #expect(cache.statistics.busy == before.busy)
        #expect(cache.reader.busyTimeout == cache.configuration.busyTimeout)

        // The readiness accessor answers from the last check while the writer's connection (which
        // the check uses) is held by another thread: it runs no check itself. The next check
        // reports the lock.
        #expect(answers(whileHolding: cache.database) { _ = cache.readiness }, "readiness waited for the writer's connection")
        #expect(cache.checkReadiness().state == .busy)
        #expect(!cache.isWritable())
        #expect(cache.readiness.lastSuccess != nil)

        // A write is accepted while the writer's queue is held (it only queues the row), is
        // answered from the queue meanwhile, and is dropped after its tries (3 tries, 200 + 400 ms
        // apart).
        var accepted = false
        #expect(answers(whileHolding: cache.writerQueue) { accepted = cache.put(key(2), values: values(2)) }, "put waited for the writer")
        #expect(accepted)
        #expect(try cache.get(key(2)) == values(2))
        #expect(cache.waitForPendingWrites(timeout: .seconds(10)))
        #expect(cache.statistics.writesDropped == before.writesDropped + 1)
        #expect(cache.statistics.writes == before.writes)
        #expect(try cache.get(key(2)) == nil)

        // A write that meets the lock is retried: released after its first try, it lands.
        cache.put(key(3), values: values(3))
        let deadline = clock.now + .seconds(5)
        while !cache.state.withLock({ $0.retryAt != nil }), clock.now < deadline { Thread.sleep(forTimeInterval: 0.002) }
        #expect(cache.state.withLock { $0.retryAt != nil }, "the first try did not meet the lock")
        try release()
        #expect(cache.waitForPendingWrites(timeout: .seconds(10)))
        #expect(cache.statistics.writes == before.writes + 1)
        #expect(cache.statistics.writesDropped == before.writesDropped + 1)
        #expect(try cache.get(key(3)) == values(3))

        // Unlocked: writes land at once and the database is ready again.
        cache.put(key(4), values: values(4))
        #expect(cache.waitForPendingWrites(timeout: .seconds(10)))
        #expect(cache.statistics.writes == before.writes + 2)
        #expect(cache.checkReadiness().state == .ok)
        #expect(cache.isWritable())
        #expect(try cache.count() == 3)
    }

    /// Runs `body` with a cache on a migrated file database holding `key(1)`, and the file's path.
    static func withStoredRow(_ body: (SampleCache, String) throws -> Void) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let db = try SampleCacheTests.open(path)
        let cache = SampleCache(database: db, configuration: .fast(retryDelay: .milliseconds(200)))
        defer {
            cache.close()
            db.close()
        }
        cache.put(key(1), values: values(1))
        #expect(cache.waitForPendingWrites())
        #expect(cache.checkReadiness().state == .ok)
        try body(cache, path)
    }

    @Test("a second connection holds BEGIN IMMEDIATE")
    func secondConnection() throws {
        try Self.withStoredRow { cache, path in
            let locker = try Database(path: path)
            defer { locker.close() }
            try locker.execute("BEGIN IMMEDIATE")
            try Self.exercise(cache) { try locker.execute("ROLLBACK") }
        }
    }

    @Test("a second process holds BEGIN IMMEDIATE",
          .enabled(if: LockingProcess.python3 != nil, "python3 is not on PATH; the second-connection test covers the same checks in-process"))
    func secondProcess() throws {
        try Self.withStoredRow { cache, path in
            let locker = try LockingProcess(path: path)
            defer { locker.release() }
            try Self.exercise(cache) { locker.release() }
        }
    }

    @Test("the readiness timer notices a lock and its release by itself")
    func readinessTimer() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try SampleCacheTests.open(dir.path("cache.sqlite"))
        let cache = SampleCache(database: db, configuration: .fast()) // a check every 100 ms
        defer {
            cache.close()
            db.close()
        }
        #expect(Self.waitFor(.seconds(5)) { cache.readiness.state == .ok })
        #expect(cache.isWritable())
        let locker = try Database(path: dir.path("cache.sqlite"))
        defer { locker.close() }
        try locker.execute("BEGIN IMMEDIATE")
        #expect(Self.waitFor(.seconds(5)) { cache.readiness.state == .busy })
        #expect(!cache.isWritable())
        try locker.execute("ROLLBACK")
        #expect(Self.waitFor(.seconds(5)) { cache.readiness.state == .ok })
        let r = cache.readiness
        #expect(r.lastSuccess == r.checkedAt)
        #expect((r.age() ?? 99) < 5)
    }

    @Test("a read that meets a lock answers nil at once and counts as busy, not as a miss")
    func busyRead() throws {
        // In WAL mode readers never wait for a writer, so this uses the rollback journal, where
        // a writer's EXCLUSIVE lock stops readers.
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let writer = try Database(path: path, busyTimeout: .seconds(5), writeAheadLog: false)
        try Migrator(directory: repositoryMigrations).migrate(writer)
        let reader = try Database(path: path, busyTimeout: .milliseconds(30), writeAheadLog: false)
        let cache = SampleCache(database: writer, reader: reader, configuration: .fast())
        defer {
            cache.close()
            writer.close()
        }
        #expect(try reader.query("PRAGMA journal_mode")[0][0] == .text("delete"))
        cache.put(Self.key(1), values: Self.values(1))
        #expect(cache.waitForPendingWrites())

        let locker = try Database(path: path, busyTimeout: .seconds(5), writeAheadLog: false)
        defer { locker.close() }
        try locker.execute("BEGIN EXCLUSIVE")
        // The read answers nil while the lock holder's connection is held by another thread, so
        // the lock cannot go before it answers: it gives up after its busy timeout instead of
        // waiting for the release.
        var got: Result<[Double]?, any Error> = .success([0])
        #expect(Self.answers(whileHolding: locker) { got = Result { try cache.get(Self.key(1)) } }, "get waited for the lock's release")
        #expect(try got.get() == nil)
        #expect(cache.statistics.busy == 1 && cache.statistics.misses == 0)
        try locker.execute("ROLLBACK")
        #expect(try cache.get(Self.key(1)) == Self.values(1))
    }

    @Test("the write queue is bounded in bytes: beyond it a put is dropped and counted")
    func pendingBound() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try SampleCacheTests.open(dir.path("cache.sqlite"))
        // Three 40,000-byte payloads do not fit in 100,000 bytes of queue.
        let cache = SampleCache(database: db, configuration: .fast(retryDelay: .seconds(1), maxPendingBytes: 100_000))
        defer {
            cache.close()
            db.close()
        }
        #expect(cache.waitForPendingWrites())
        let locker = try Database(path: dir.path("cache.sqlite"))
        defer { locker.close() }
        try locker.execute("BEGIN IMMEDIATE")
        let payload = [Double](repeating: 1, count: 5000)
        #expect(cache.put(Self.key(1), values: payload))
        #expect(cache.put(Self.key(2), values: payload))
        #expect(cache.put(Self.key(2), values: payload)) // a replacement takes no more room
        #expect(!cache.put(Self.key(3), values: payload))
        #expect(cache.statistics.writesDropped == 1)
        #expect(cache.statistics.pendingBytes == 80_000)
        try locker.execute("ROLLBACK")
        #expect(cache.waitForPendingWrites())
        #expect(try cache.count() == 2)
        #expect(cache.statistics.pendingBytes == 0)
    }

    /// Whether `probe`, run on the calling thread, finishes while another thread holds `queue` (a
    /// block on it waits for the probe). A probe that needs the queue waits until the hang detector
    /// lets the block go, and then this is false.
    static func answers(whileHolding queue: DispatchQueue, _ probe: () -> Void) -> Bool {
        answers(holding: { body in queue.async(execute: body) }, probe)
    }

    /// Whether `probe` finishes while another thread holds `database`'s connection (its serial
    /// queue, as `perform` takes it).
    static func answers(whileHolding database: Database, _ probe: () -> Void) -> Bool {
        answers(holding: { body in DispatchQueue.global().async { database.perform { _ in body() } } }, probe)
    }

    /// `hold` runs the given block on what is held; the block waits (up to `hangDetector`) for
    /// the probe to finish and records whether it did.
    static func answers(holding hold: (@escaping @Sendable () -> Void) -> Void, _ probe: () -> Void) -> Bool {
        let held = DispatchSemaphore(value: 0), probed = DispatchSemaphore(value: 0)
        let answeredWhileHeld = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        hold {
            held.signal()
            if probed.wait(timeout: .now() + hangDetector) == .success { answeredWhileHeld.signal() }
            released.signal()
        }
        held.wait()
        probe()
        probed.signal()
        released.wait()
        return answeredWhileHeld.wait(timeout: .now()) == .success
    }

    static func waitFor(_ limit: Duration, _ condition: () -> Bool) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !condition() {
            guard clock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}

/// A `python3` process holding `BEGIN IMMEDIATE` on a database file until `release()`.
final class LockingProcess {
    /// `python3` on PATH, or nil.
    static let python3: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    private let process = Process()
    private let input = Pipe()

    init(path: String) throws {
        let python3 = try #require(Self.python3)
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: python3)
        process.arguments = ["-c", """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)
            db.execute("BEGIN IMMEDIATE")
            print("locked", flush=True)
            sys.stdin.read()
            db.execute("ROLLBACK")
            """, path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Wait for the lock: "locked", or end of output if python3 failed.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("locked") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        try #require(String(decoding: seen, as: UTF8.self).contains("locked"), "python3 did not take the lock")
    }

    /// Ends the process (and its lock). Idempotent.
    func release() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
