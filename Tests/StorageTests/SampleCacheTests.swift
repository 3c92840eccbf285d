import Foundation
import Synchronization
import Testing
import Zlib
@testable import Storage

@Suite("SampleCache: packed doubles keyed by mission, vehicle, samples, frame, data and engine")
struct SampleCacheTests {
    static func key(_ mission: String = "apollo11", vehicle: String = "csm", samples: Int = 500,
                    dataHash: String = "d41d8cd9", engineVersion: String = "1") -> SampleCacheKey {
        SampleCacheKey(mission: mission, vehicle: vehicle, samples: samples, frame: "ecliptic-j2000",
                       dataHash: dataHash, engineVersion: engineVersion)
    }

    /// A migrated database at `path`.
    static func open(_ path: String) throws -> Database {
        let db = try Database(path: path)
        try Migrator(directory: repositoryMigrations).migrate(db)
        return db
    }

    /// Writes a row directly, as another process's cache would: with its payload's CRC-32, or
    /// `checksum` when given (a damaged row).
    static func insertRow(_ db: Database, _ key: SampleCacheKey, payload: DatabaseValue, lastUsed: Int64 = 0, checksum: Int64? = nil) throws {
        var crc: Int64 = 0
        if case .blob(let bytes) = payload { crc = Int64(CRC32.checksum(bytes)) }
        try db.execute(
            "INSERT OR REPLACE INTO trajectory_cache VALUES (?, ?, ?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00Z', ?, ?)",
            arguments: key.arguments + [.integer(1024), .integer(lastUsed), .integer(checksum ?? crc), payload])
    }

    @Test("a payload damaged on disk (one flipped bit, the same length) is a miss, counted, recomputed and removed")
    func damagedPayloadIsRecomputed() throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db, configuration: .fast())
        let k = Self.key()
        let values: [Double] = [1.5, -2.25, 3e291]
        #expect(cache.put(k, values: values))
        #expect(cache.waitForPendingWrites())
        #expect(try cache.get(k) == values)
        // One bit of the stored bytes flipped, as a bad sector or a stray write would.
        var bytes = PackedDoubles.pack(values)
        bytes[13] ^= 0x10
        try db.execute("UPDATE trajectory_cache SET payload = ?", arguments: [.blob(bytes)])
        #expect(try cache.get(k) == nil)
        #expect(cache.statistics.corrupt == 1 && cache.statistics.misses == 1)
        #expect(cache.waitForPendingWrites())
        #expect(try cache.count() == 0)
        // A row rewritten meanwhile with its own checksum is not removed by the clean-up.
        try Self.insertRow(db, k, payload: .blob(bytes), checksum: 12_345)
        #expect(try cache.get(k) == nil)
        try Self.insertRow(db, k, payload: .blob(PackedDoubles.pack(values)))
        #expect(cache.waitForPendingWrites())
        #expect(try cache.get(k) == values)
        #expect(cache.statistics.corrupt == 2)
    }

    @Test("a cache on the small bodies' table keeps its rows there, apart from the trajectories'")
    func secondTable() throws {
        let db = try Self.open(":memory:")
        let chunks = SampleCache(database: db, configuration: .fast(), table: SampleCache.smallBodyTableName)
        let trajectories = SampleCache(database: db, configuration: .fast())
        #expect(chunks.put(Self.key("small-bodies", vehicle: "Apophis|…", samples: -1), values: [1, 2, 3]))
        #expect(chunks.waitForPendingWrites())
        #expect(try chunks.get(Self.key("small-bodies", vehicle: "Apophis|…", samples: -1)) == [1, 2, 3])
        #expect(try chunks.count() == 1 && trajectories.count() == 0)
        #expect(try db.query("SELECT count(*) FROM small_body_chunks")[0][0] == .integer(1))
        #expect(try chunks.prune(dataHashes: ["small-bodies": "other kernel"], engineVersion: "1") == 1)
        #expect(try chunks.count() == 0)
    }

    @Test("get, put (replacing), remove, count, removeAll and the counters")
    func basics() throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db, configuration: .fast())
        #expect(try cache.get(Self.key()) == nil)
        #expect(cache.put(Self.key(), values: [1, 2, 3]))
        #expect(cache.put(Self.key(), values: [4, 5])) // replaces, queued or stored
        #expect(cache.put(Self.key(vehicle: "lm"), values: []))
        #expect(try cache.get(Self.key()) == [4, 5]) // answered from the queue or the table
        #expect(cache.waitForPendingWrites())
        #expect(try cache.get(Self.key()) == [4, 5])
        #expect(try cache.get(Self.key(vehicle: "lm")) == []) // empty is a hit, not a miss
        #expect(try cache.get(Self.key(samples: 501)) == nil) // every key part matters
        #expect(try cache.count() == 2)
        try cache.remove(Self.key(vehicle: "lm"))
        #expect(try cache.count() == 1)
        try cache.removeAll()
        #expect(try cache.count() == 0)
        let s = cache.statistics
        #expect(s.hits == 3 && s.misses == 2 && s.discarded == 0 && s.busy == 0)
        #expect(s.writes >= 2 && s.writesDropped == 0)
        #expect(s.rows == 0 && s.bytes == 0 && s.pendingBytes == 0)
    }

    @Test("the cache survives a restart bit-exactly (NaN payloads, ±inf, −0, subnormals)")
    func survivesRestart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let values = PackedDoublesTests.awkward + (0..<3000).map { Double($0) * 1.000_000_000_1e-3 }
        do {
            let db = try Self.open(path)
            let cache = SampleCache(database: db, configuration: .fast())
            cache.put(Self.key(), values: values)
            #expect(cache.close())
            db.close()
        }
        // A second connection object, as a second process would have.
        let db = try Self.open(path)
        defer { db.close() }
        let cache = SampleCache(database: db, configuration: .fast())
        defer { cache.close() }
        let back = try #require(try cache.get(Self.key()))
        #expect(back.map(\.bitPattern) == values.map(\.bitPattern))
        #expect(cache.waitForPendingWrites())
        #expect(cache.statistics.rows == 1)
        #expect(cache.statistics.bytes == values.count * 8 + SampleCache.rowOverheadBytes)
    }

    @Test("a payload that is not a whole number of doubles is a miss and is deleted", arguments: [
        DatabaseValue.blob([1, 2, 3, 4, 5, 6, 7, 8, 9]), .blob([1]), .text("not doubles"), .integer(8),
    ])
    func malformedPayload(payload: DatabaseValue) throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db, configuration: .fast())
        let k = Self.key()
        try Self.insertRow(db, k, payload: payload)
        #expect(try cache.get(k) == nil)
        #expect(cache.waitForPendingWrites())
        #expect(try cache.count() == 0)
        #expect(cache.statistics.misses == 1 && cache.statistics.discarded == 1 && cache.statistics.hits == 0)
        cache.put(k, values: [1])
        #expect(cache.waitForPendingWrites())
        #expect(try cache.get(k) == [1])
    }

    @Test("a malformed row replaced by a valid one before the writer runs is kept")
    func malformedThenRewritten() throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db, configuration: .fast())
        let k = Self.key()
        try Self.insertRow(db, k, payload: .blob([1, 2, 3]))
        // Another process stores a valid row between the read and the clean-up.
        try db.perform { db in
            #expect(try cache.get(k) == nil)
            try Self.insertRow(db, k, payload: .blob(PackedDoubles.pack([7, 8])))
        }
        #expect(cache.waitForPendingWrites())
        #expect(try cache.get(k) == [7, 8])
    }

    @Test("one cache shared by many threads")
    func sharedCache() throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db, configuration: .fast())
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            do {
                for i in 0..<50 {
                    let k = Self.key("m\(thread)", samples: i)
                    let values = (0..<i).map { Double(thread * 1000 + $0) }
                    cache.put(k, values: values)
                    if try cache.get(k) != values { Issue.record("thread \(thread) row \(i) read back wrong") }
                }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(cache.waitForPendingWrites())
        #expect(try cache.count() == 16 * 50)
        #expect(cache.statistics.hits == 16 * 50)
        #expect(cache.statistics.writesDropped == 0)
    }

    @Test("readers on other connections while one writes: no lock met, only complete transactions")
    func concurrentReadersAndWriter() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let writer = try Self.open(path)
        let readers = [try Database(path: path), try Database(path: path)]
        defer {
            writer.close()
            readers.forEach { $0.close() }
        }

        let batches = 200, rowsPerBatch = 5, valuesPerRow = 600
        @Sendable func values(_ batch: Int, _ row: Int) -> [Double] {
            (0..<valuesPerRow).map { Double(batch * 10_000 + row * 1000) + Double($0) / 7 }
        }
        let done = Atomic(false)
        let readersReady = DispatchSemaphore(value: 0)
        let readsDuringWrites = Atomic(0)
        let finished = DispatchGroup()

        // Real threads, not concurrentPerform: with fewer cores than workers it may run them one
        // after another, and the writer waits for the readers.
        for reader in readers {
            finished.enter()
            Thread {
                defer { finished.leave() }
                readersReady.signal()
                let cache = SampleCache(database: reader, configuration: .fast())
                defer { cache.close() }
                do {
                    var finalPass = false
                    while !finalPass {
                        finalPass = done.load(ordering: .acquiring)
                        // Every batch is absent or complete: transactions are atomic to readers.
                        let groups = try reader.query("SELECT mission, count(*) FROM trajectory_cache GROUP BY mission")
                        for group in groups where group[1] != .integer(Int64(rowsPerBatch)) {
                            Issue.record("partial batch \(group[0]): \(group[1]) rows")
                        }
                        // The newest batch's rows read back whole.
                        let newest = groups.compactMap { $0[0].string?.split(separator: "-").last.flatMap { Int($0) } }.max()
                        if let newest {
                            for row in 0..<rowsPerBatch {
                                let got = try cache.get(Self.key("batch-\(newest)", vehicle: "v\(row)"))
                                if got != values(newest, row) { Issue.record("batch \(newest) row \(row) read back wrong") }
                            }
                            if !finalPass { readsDuringWrites.add(1, ordering: .relaxed) }
                        }
                    }
                    let final = try reader.query("SELECT count(*) FROM trajectory_cache")[0][0]
                    if final != .integer(Int64(batches * rowsPerBatch)) { Issue.record("final count \(final)") }
                    if cache.statistics.busy != 0 { Issue.record("a read met a lock") }
                } catch {
                    Issue.record("reader: \(error)")
                }
            }.start()
        }

        finished.enter()
        Thread {
            defer {
                done.store(true, ordering: .releasing)
                finished.leave()
            }
            for _ in readers { readersReady.wait() }
            do {
                for batch in 0..<batches {
                    try writer.transaction { db in
                        for row in 0..<rowsPerBatch {
                            try Self.insertRow(db, Self.key("batch-\(batch)", vehicle: "v\(row)"),
                                               payload: .blob(PackedDoubles.pack(values(batch, row))))
                        }
                    }
                }
            } catch {
                Issue.record("writer: \(error)")
            }
        }.start()

        finished.wait()
        #expect(readsDuringWrites.load(ordering: .relaxed) > 0)
        #expect(try writer.query("SELECT count(*) FROM trajectory_cache")[0][0] == .integer(Int64(batches * rowsPerBatch)))
    }

    @Test("two caches on one file, as two processes: every row is stored or counted as dropped")
    func twoCaches() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let first = try Self.open(path)
        let second = try Database(path: path)
        defer {
            first.close()
            second.close()
        }
        let caches = [SampleCache(database: first, configuration: .fast()), SampleCache(database: second, configuration: .fast())]
        DispatchQueue.concurrentPerform(iterations: 2) { n in
            for i in 0..<100 {
                caches[n].put(Self.key("writer\(n)", samples: i), values: [Double(i), Double(n)])
            }
        }
        for cache in caches { #expect(cache.close()) }
        let dropped = caches.reduce(0) { $0 + $1.statistics.writesDropped }
        let stored = try first.query("SELECT count(*) FROM trajectory_cache")[0][0].int64 ?? -1
        #expect(stored + Int64(dropped) == 200)
        #expect(stored > 0)
    }
}

extension SampleCache.Configuration {
    /// Short delays so that retries, read times and readiness checks happen within a test.
    static func fast(maxBytes: Int? = nil, retryDelay: Duration = .milliseconds(50), maxPendingBytes: Int = 32 << 20) -> Self {
        .init(maxBytes: maxBytes, retryDelay: retryDelay, maxPendingBytes: maxPendingBytes,
              touchDelay: .milliseconds(20), readinessInterval: .milliseconds(100))
    }
}
