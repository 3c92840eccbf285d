import Foundation

extension SampleCache {
    /// Deletes the rows no request can read any more: those whose engine version is not
    /// `engineVersion` or whose data hash is not `dataHashes[mission]` (rows of a mission absent
    /// from `dataHashes` go too), and forgets such queued rows. Then, when the free pages exceed
    /// a quarter of the cap (16 MiB at least) — as after migration 0002 dropped an unbounded
    /// 0001 table — rebuilds the file (`VACUUM`) so that it shrinks; a locked database skips that
    /// with a warning. Returns the number of rows deleted. For start-up: it runs on the writer's
    /// queue and waits for it.
    ///
    /// ```swift
    /// let gone = try cache.prune(dataHashes: missions.dataHashes, engineVersion: MissionEngine.engineVersion)
    /// ```
    @discardableResult
    public func prune(dataHashes: [String: String], engineVersion: String) throws -> Int {
        try writerQueue.sync {
            let deleted = try database.transaction { db -> Int in
                let groups = try db.query("SELECT DISTINCT mission, data_hash, engine_version FROM \(table)")
                var deleted = 0
                for group in groups {
                    let mission = group[0].string ?? "", hash = group[1].string ?? "", engine = group[2].string ?? ""
                    guard engine != engineVersion || dataHashes[mission] != hash else { continue }
                    try db.execute(
                        "DELETE FROM \(table) WHERE mission = ? AND data_hash = ? AND engine_version = ?",
                        arguments: [.text(mission), .text(hash), .text(engine)])
                    deleted += db.changes
                }
                return deleted
            }
            state.withLock { s in
                s.discard { $0.engineVersion != engineVersion || dataHashes[$0.mission] != $0.dataHash }
            }
            try refreshTotals()
            reclaimFreePages()
            return deleted
        }
    }

    /// `VACUUM` when the free pages exceed max(16 MiB, cap / 4); true when it ran. Steady LRU
    /// eviction never gets there: SQLite reuses freed pages, and eviction stops at 90 % of the cap.
    @discardableResult
    func reclaimFreePages() -> Bool {
        guard !database.isInMemory else { return false }
        do {
            let free = try database.query("PRAGMA freelist_count").first?[0].int64 ?? 0
            let pageSize = try database.query("PRAGMA page_size").first?[0].int64 ?? 4096
            let threshold = max(Int64(16 << 20), Int64((configuration.maxBytes ?? 0) / 4))
            guard free * pageSize > threshold else { return false }
            try database.execute("VACUUM")
            // The shrunken image reaches the file (and the WAL is emptied) at a checkpoint.
            try database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            logger?.notice("sample cache: file compacted", metadata: ["freedBytes": "\(free * pageSize)"])
            return true
        } catch {
            logger?.warning("sample cache: cannot compact the file", metadata: ["error": "\(error)"])
            return false
        }
    }
}
