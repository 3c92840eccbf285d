import Foundation
import Testing
@testable import Storage

/// Issue 11: the disk cache is bounded. Sizes are in bytes; MiB = 2^20 bytes, MB = 10^6 bytes.
@Suite("SampleCache: size cap, LRU eviction, pruning and a bounded file")
struct SampleCacheEvictionTests {
    static let mib = 1 << 20
    static let start = Date(timeIntervalSince1970: 1_795_305_600) // 2026-11-22T00:00:00Z

    static func key(_ samples: Int, mission: String = "cassini", dataHash: String = "h1", engineVersion: String = "1") -> SampleCacheKey {
        SampleCacheTests.key(mission, vehicle: "cassini", samples: samples, dataHash: dataHash, engineVersion: engineVersion)
    }

    /// A payload of `bytes` bytes (a whole number of doubles) that identifies `seed`.
    static func values(bytes: Int, seed: Int) -> [Double] {
        var v = [Double](repeating: Double(seed), count: bytes / 8)
        v[v.count - 1] = -Double(seed)
        return v
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test("cap 20 MiB, 500 distinct Cassini-sized rows: the file stays under 24 MB, recent rows hit, old ones are gone")
    func fiveHundredKeys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let db = try SampleCacheTests.open(path)
        let cap = 20 * Self.mib
        let cache = SampleCache(database: db, configuration: .fast(maxBytes: cap))
        defer {
            cache.close()
            db.close()
        }
        // 70–200 KB payloads in a fixed pseudo-random order (a linear congruential sequence).
        var state: UInt64 = 42
        var sizes: [Int] = []
        for _ in 0..<500 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            sizes.append(70_000 + Int((state >> 33) % 130_001) / 8 * 8)
        }
        var largestWAL = 0
        for (i, size) in sizes.enumerated() {
            // One new key per request, as a client looping over `samples=` would cause.
            cache.put(Self.key(i), values: Self.values(bytes: size, seed: i), now: Self.start + Double(i))
            if i % 10 == 9 {
                #expect(cache.waitForPendingWrites())
                largestWAL = max(largestWAL, Self.fileSize(path + "-wal"))
            }
        }
        #expect(cache.waitForPendingWrites())

        let s = cache.statistics
        #expect(s.writes == 500 && s.writesDropped == 0)
        #expect(s.bytes <= cap)
        #expect(s.bytes >= cap * 8 / 10) // evicted to 90 %, not emptied
        #expect(s.rows == (try cache.count()))
        #expect(s.evictions == 500 - s.rows)
        #expect(Self.fileSize(path) < 24_000_000, "main file \(Self.fileSize(path)) bytes")
        #expect(largestWAL < 12_000_000, "WAL reached \(largestWAL) bytes")

        // The newest rows are all there and whole; the oldest are gone.
        for i in (500 - 50)..<500 {
            #expect(try cache.get(Self.key(i)) == Self.values(bytes: sizes[i], seed: i), "row \(i)")
        }
        for i in 0..<100 {
            #expect(try cache.get(Self.key(i)) == nil, "row \(i)")
        }
    }

    @Test("reads count as use: a row read recently outlives rows written after it")
    func leastRecentlyUsed() throws {
        let db = try SampleCacheTests.open(":memory:")
        // Room for about nine 100 KB rows; eviction goes down to 90 %.
        let cache = SampleCache(database: db, configuration: .fast(maxBytes: 950_000))
        let payload = 100_000
        for i in 0..<8 {
            cache.put(Self.key(i), values: Self.values(bytes: payload, seed: i), now: Self.start + Double(i))
        }
        #expect(cache.waitForPendingWrites())
        // Row 0, the oldest, is read after everything was written.
        #expect(try cache.get(Self.key(0), now: Self.start + 100) != nil)
        #expect(cache.waitForPendingWrites()) // carries the read time
        for i in 8..<12 {
            cache.put(Self.key(i), values: Self.values(bytes: payload, seed: i), now: Self.start + 200 + Double(i))
            #expect(cache.waitForPendingWrites())
        }
        #expect(cache.statistics.evictions > 0)
        #expect(try cache.get(Self.key(0)) != nil)
        #expect(try cache.get(Self.key(1)) == nil)
        #expect(try cache.get(Self.key(11)) != nil)
        #expect(cache.statistics.bytes <= 950_000)
    }

    @Test("a row larger than the whole cap is not queued")
    func oversizedRow() throws {
        let db = try SampleCacheTests.open(":memory:")
        let cache = SampleCache(database: db, configuration: .fast(maxBytes: 50_000))
        #expect(!cache.put(Self.key(1), values: Self.values(bytes: 60_000, seed: 1)))
        #expect(cache.statistics.writesDropped == 1)
        #expect(cache.waitForPendingWrites())
        #expect(try cache.count() == 0)
    }

    @Test("a new cache object sums what is stored, and evicts at once when the cap was lowered")
    func totalsAtOpen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let db = try SampleCacheTests.open(path)
        defer { db.close() }
        do {
            let cache = SampleCache(database: db, configuration: .fast())
            for i in 0..<10 { cache.put(Self.key(i), values: Self.values(bytes: 50_000, seed: i), now: Self.start + Double(i)) }
            #expect(cache.close())
        }
        let perRow = 50_000 + SampleCache.rowOverheadBytes
        let same = SampleCache(database: db, configuration: .fast())
        #expect(same.waitForPendingWrites())
        #expect(same.statistics.rows == 10 && same.statistics.bytes == 10 * perRow)
        same.close()

        let smaller = SampleCache(database: db, configuration: .fast(maxBytes: 5 * perRow))
        defer { smaller.close() }
        #expect(smaller.waitForPendingWrites())
        #expect(smaller.statistics.bytes <= 5 * perRow)
        #expect(smaller.statistics.evictions == 10 - smaller.statistics.rows)
        #expect(try smaller.get(Self.key(0)) == nil)
        #expect(try smaller.get(Self.key(9)) != nil)
    }

    @Test("prune deletes rows of another data hash, another engine version or an unknown mission")
    func prune() throws {
        let db = try SampleCacheTests.open(":memory:")
        let cache = SampleCache(database: db, configuration: .fast())
        let current = [Self.key(1), Self.key(2), Self.key(1, mission: "apollo11", dataHash: "a1")]
        let stale = [
            Self.key(3, dataHash: "h0"),                              // old missions.json
            Self.key(4, engineVersion: "0"),                          // old trajectory engine
            Self.key(5, mission: "apollo11", dataHash: "h1"),         // another mission's hash
            Self.key(6, mission: "retired", dataHash: "r1"),          // mission no longer in the catalogue
        ]
        for (i, k) in (current + stale).enumerated() { cache.put(k, values: [Double(i)]) }
        #expect(cache.waitForPendingWrites())
        #expect(try cache.prune(dataHashes: ["cassini": "h1", "apollo11": "a1"], engineVersion: "1") == 4)
        #expect(try cache.count() == 3)
        for k in current { #expect(try cache.get(k) != nil, "\(k)") }
        for k in stale { #expect(try cache.get(k) == nil, "\(k)") }
        #expect(cache.statistics.rows == 3)
        #expect(try cache.prune(dataHashes: ["cassini": "h1", "apollo11": "a1"], engineVersion: "1") == 0)
    }

    @Test("upgrading an unbounded 0001 cache: 0002 (and 0003) drop it and prune shrinks the file")
    func legacyFileShrinks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let db = try Database(path: path)
        defer { db.close() }
        let all = try Migrator.readMigrations(in: repositoryMigrations)
        try Migrator(migrations: all.filter { $0.version == 1 }).migrate(db)
        let row = [UInt8](repeating: 7, count: 200_000)
        try db.transaction { db in
            for i in 0..<150 { // 30 MB, as the unbounded cache of the issue grew
                try db.execute("INSERT INTO trajectory_cache VALUES ('cassini', 'cassini', ?, 'f', 'h', '1', ?, '2026-01-01T00:00:00Z')",
                               arguments: [.integer(Int64(i)), .blob(row)])
            }
        }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(Self.fileSize(path) > 30_000_000)

        try Migrator(migrations: all).migrate(db)
        #expect(try db.query("SELECT count(*) FROM trajectory_cache")[0][0] == .integer(0))
        let cache = SampleCache(database: db, configuration: .fast(maxBytes: 20 * Self.mib))
        defer { cache.close() }
        #expect(try cache.prune(dataHashes: ["cassini": "h"], engineVersion: "1") == 0)
        #expect(Self.fileSize(path) < 1_000_000, "file \(Self.fileSize(path)) bytes after prune")
        cache.put(Self.key(1), values: [1, 2, 3])
        #expect(cache.waitForPendingWrites())
        #expect(try cache.get(Self.key(1)) == [1, 2, 3])
    }
}
