import Foundation
import Testing
@testable import Storage

@Suite("SampleCache: packed doubles keyed by mission, vehicle, samples, frame, data and engine")
struct SampleCacheTests {
    static func key(_ mission: String = "apollo11", vehicle: String = "csm", samples: Int = 500) -> SampleCacheKey {
        SampleCacheKey(mission: mission, vehicle: vehicle, samples: samples, frame: "ecliptic-j2000",
                       dataHash: "d41d8cd9", engineVersion: "1")
    }

    /// A migrated database at `path`.
    static func open(_ path: String) throws -> Database {
        let db = try Database(path: path)
        try Migrator(directory: repositoryMigrations).migrate(db)
        return db
    }

    @Test("get, put (replacing), remove, count, removeAll and the counters")
    func basics() throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db)
        #expect(try cache.get(Self.key()) == nil)
        try cache.put(Self.key(), values: [1, 2, 3])
        try cache.put(Self.key(), values: [4, 5]) // INSERT OR REPLACE
        try cache.put(Self.key(vehicle: "lm"), values: [])
        #expect(try cache.get(Self.key()) == [4, 5])
        #expect(try cache.get(Self.key(vehicle: "lm")) == []) // empty is a hit, not a miss
        #expect(try cache.get(Self.key(samples: 501)) == nil) // every key part matters
        #expect(try cache.count() == 2)
        try cache.remove(Self.key(vehicle: "lm"))
        #expect(try cache.count() == 1)
        try cache.removeAll()
        #expect(try cache.count() == 0)
        #expect(cache.statistics == SampleCache.Statistics(hits: 2, misses: 2, discarded: 0))
    }

    @Test("the cache survives a restart bit-exactly (NaN payloads, ±inf, −0, subnormals)")
    func survivesRestart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let values = PackedDoublesTests.awkward + (0..<3000).map { Double($0) * 1.000_000_000_1e-3 }
        do {
            let db = try Self.open(path)
            try SampleCache(database: db).put(Self.key(), values: values)
            db.close()
        }
        // A second connection object, as a second process would have.
        let db = try Self.open(path)
        defer { db.close() }
        let back = try #require(try SampleCache(database: db).get(Self.key()))
        #expect(back.map(\.bitPattern) == values.map(\.bitPattern))
    }

    @Test("a payload that is not a whole number of doubles is a miss and is deleted", arguments: [
        DatabaseValue.blob([1, 2, 3, 4, 5, 6, 7, 8, 9]), .blob([1]), .text("not doubles"), .integer(8),
    ])
    func malformedPayload(payload: DatabaseValue) throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db)
        let k = Self.key()
        try db.execute(
            "INSERT INTO trajectory_cache VALUES (?, ?, ?, ?, ?, ?, ?, '2026-01-01T00:00:00Z')",
            arguments: [.text(k.mission), .text(k.vehicle), .integer(Int64(k.samples)), .text(k.frame),
                        .text(k.dataHash), .text(k.engineVersion), payload]
        )
        #expect(try cache.get(k) == nil)
        #expect(try cache.count() == 0)
        #expect(cache.statistics == SampleCache.Statistics(hits: 0, misses: 1, discarded: 1))
        try cache.put(k, values: [1])
        #expect(try cache.get(k) == [1])
    }

    @Test("one cache shared by many threads")
    func sharedCache() throws {
        let db = try Self.open(":memory:")
        let cache = SampleCache(database: db)
        DispatchQueue.concurrentPerform(iterations: 16) { thread in
            do {
                for i in 0..<50 {
                    let k = Self.key("m\(thread)", samples: i)
                    let values = (0..<i).map { Double(thread * 1000 + $0) }
                    try cache.put(k, values: values)
                    if try cache.get(k) != values { Issue.record("thread \(thread) row \(i) read back wrong") }
                }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(try cache.count() == 16 * 50)
        #expect(cache.statistics.hits == 16 * 50)
    }

    @Test("readers on other connections while one writes: no SQLITE_BUSY, only complete transactions")
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
        let done = Flag()
        let readersReady = DispatchSemaphore(value: 0)
        let readsDuringWrites = Counter()
        let finished = DispatchGroup()

        // Real threads, not concurrentPerform: with fewer cores than workers it may run them one
        // after another, and the writer waits for the readers.
        for reader in readers {
            finished.enter()
            Thread {
                defer { finished.leave() }
                readersReady.signal()
                do {
                    let cache = SampleCache(database: reader)
                    var finalPass = false
                    while !finalPass {
                        finalPass = done.isSet
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
                            if !finalPass { readsDuringWrites.increment() }
                        }
                    }
                    let final = try reader.query("SELECT count(*) FROM trajectory_cache")[0][0]
                    if final != .integer(Int64(batches * rowsPerBatch)) { Issue.record("final count \(final)") }
                } catch {
                    Issue.record("reader: \(error)") // an SQLITE_BUSY would land here
                }
            }.start()
        }

        finished.enter()
        Thread {
            defer {
                done.set()
                finished.leave()
            }
            for _ in readers { readersReady.wait() }
            do {
                let cache = SampleCache(database: writer)
                for batch in 0..<batches {
                    try writer.transaction { _ in
                        for row in 0..<rowsPerBatch {
                            try cache.put(Self.key("batch-\(batch)", vehicle: "v\(row)"), values: values(batch, row))
                        }
                    }
                }
            } catch {
                Issue.record("writer: \(error)")
            }
        }.start()

        finished.wait()
        #expect(readsDuringWrites.value > 0)
        #expect(try SampleCache(database: writer).count() == batches * rowsPerBatch)
    }
}

extension SampleCacheTests {
    @Test("two writers on separate connections wait for each other instead of failing with SQLITE_BUSY")
    func twoWriters() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path("cache.sqlite")
        let first = try Self.open(path)
        let second = try Database(path: path)
        defer {
            first.close()
            second.close()
        }
        let finished = DispatchGroup()
        for (n, db) in [first, second].enumerated() {
            finished.enter()
            Thread {
                defer { finished.leave() }
                let cache = SampleCache(database: db)
                do {
                    for i in 0..<100 {
                        try db.transaction { _ in
                            try cache.put(Self.key("writer\(n)", samples: i), values: [Double(i), Double(n)])
                            try cache.put(Self.key("writer\(n)", vehicle: "lm", samples: i), values: [Double(i)])
                        }
                    }
                } catch {
                    Issue.record("writer \(n): \(error)")
                }
            }.start()
        }
        finished.wait()
        #expect(try SampleCache(database: first).count() == 400)
    }
}

/// A thread-safe boolean for the concurrency test.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}
