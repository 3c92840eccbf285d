import Foundation
import Logging

extension Database {
    /// The copies of a corrupt database moved aside next to `path` (`<path>.corrupt-<stamp>[-n]`
    /// with their `-wal`, `-shm` and `-journal` files), newest first, each with its bytes.
    public static func movedAside(path: String) -> [(path: String, bytes: Int)] {
        guard path != ":memory:", !path.isEmpty else { return [] }
        let url = URL(fileURLWithPath: path)
        let dir = url.deletingLastPathComponent().path
        let prefix = url.lastPathComponent + ".corrupt-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        let mains = names.filter { name in name.hasPrefix(prefix) && !["-wal", "-shm", "-journal"].contains { name.hasSuffix($0) } }
        func size(_ p: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: p))?[.size] as? NSNumber)?.intValue ?? 0 }
        // The stamps sort in time order (yyyyMMddTHHmmssZ, then -n for the same second).
        return mains.sorted { ($0.count, $0) > ($1.count, $1) }.map { name in
            let p = dir + "/" + name
            return (p, size(p) + ["-wal", "-shm", "-journal"].reduce(0) { $0 + size(p + $1) })
        }
    }

    /// Keeps the disk the cache may use within its cap: of the copies moved aside, only the
    /// newest is kept for inspection, and only when it takes at most `keepAtMost` bytes; the rest
    /// are deleted (logged). Returns the bytes kept, which the cache's own cap then leaves out.
    @discardableResult
    public static func pruneMovedAside(path: String, keepAtMost: Int, logger: Logger?) -> Int {
        var kept = 0
        for (i, copy) in movedAside(path: path).enumerated() {
            if i == 0, copy.bytes <= keepAtMost {
                kept = copy.bytes
                continue
            }
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) }
            logger?.warning("database: a copy moved aside as corrupt was deleted to keep within the cache's cap", metadata: [
                "file": "\(copy.path)", "bytes": .stringConvertible(copy.bytes),
                "reason": "\(i == 0 ? "larger than half the cap" : "an older copy")",
            ])
        }
        return kept
    }
}
