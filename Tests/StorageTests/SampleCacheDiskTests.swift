import Foundation
import Testing
@testable import Storage

/// What the cache leaves on disk and what it reports about it: the WAL counted within the cap,
/// and a failed write seen by `isWritable`.
@Suite("SampleCache on disk: the WAL within the cap, failed writes reported")
struct SampleCacheDiskTests {
    @Test("database and WAL together stay within the cap plus a small margin, idle and after close")
    func walWithinCap() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let cap = 2 << 20
        // Pages that are not rows: the schema, the indexes' interior pages, part-filled pages.
        let margin = 256 << 10
        let db = try SampleCacheTests.open(path)
        defer { db.close() }
        let cache = SampleCache(database: db, configuration: .init(
            maxBytes: cap, maxBatchBytes: 256 << 10, touchDelay: .milliseconds(20), readinessInterval: .milliseconds(100)))
        // 5 MB of rows through a 2 MiB cap, in many batches: the WAL grows while they are written.
        let row = (0..<12_800).map(Double.init) // 100 KiB
        for i in 0..<50 {
            #expect(cache.put(SampleCacheTests.key(samples: i), values: row))
            if i % 10 == 9 { #expect(cache.waitForPendingWrites()) }
        }
        #expect(cache.waitForPendingWrites())
        #expect(cache.statistics.evictions > 0 && cache.statistics.bytes <= cap)
        let idle = (db: SampleCacheEvictionTests.fileSize(path), wal: SampleCacheEvictionTests.fileSize(path + "-wal"))
        print("[cache] idle under a \(cap) B cap: database \(idle.db) B, WAL \(idle.wal) B")
        #expect(idle.wal == 0, "the WAL keeps \(idle.wal) B while idle")
        #expect(idle.db + idle.wal <= cap + margin, "\(idle)")
        // A read and its touch, then shutdown: the WAL is emptied again.
        #expect(try cache.get(SampleCacheTests.key(samples: 49)) == row)
        #expect(cache.close())
        let closed = (db: SampleCacheEvictionTests.fileSize(path), wal: SampleCacheEvictionTests.fileSize(path + "-wal"))
        #expect(closed.wal == 0 && closed.db + closed.wal <= cap + margin, "after close: \(closed)")
    }

    @Test("a write that fails (a full disk, injected) makes isWritable false until a write commits")
    func failedWriteIsReported() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try SampleCacheTests.open(dir.path("cache.sqlite"))
        defer { db.close() }
        let cache = SampleCache(database: db, configuration: .fast())
        defer { cache.close() }
        #expect(cache.put(SampleCacheTests.key(samples: 1), values: [1]))
        #expect(cache.waitForPendingWrites())
        #expect(cache.checkReadiness().state == .ok && cache.isWritable())

        // Every insert now fails, as on a full disk; the lock check still succeeds.
        try db.execute("""
            CREATE TEMP TRIGGER injected_failure BEFORE INSERT ON trajectory_cache
            BEGIN SELECT RAISE(ABORT, 'database or disk is full (injected)'); END
            """)
        #expect(cache.put(SampleCacheTests.key(samples: 2), values: [2]))
        #expect(cache.waitForPendingWrites())
        #expect(cache.statistics.writesDropped == 1)
        #expect(cache.checkReadiness().state == .ok)
        #expect(cache.readiness.lastWriteFailure?.contains("injected") == true, "\(cache.readiness)")
        #expect(!cache.isWritable())

        // The next write that commits clears it.
        try db.execute("DROP TRIGGER injected_failure")
        #expect(cache.put(SampleCacheTests.key(samples: 3), values: [3]))
        #expect(cache.waitForPendingWrites())
        #expect(cache.readiness.lastWriteFailure == nil)
        #expect(cache.isWritable())
    }
}
