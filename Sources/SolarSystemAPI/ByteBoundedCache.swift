/// An in-memory least-recently-used cache of encoded bodies, bounded by their total size.
/// Thread-safe. Used in front of the SQLite sample cache for `/trajectory` answers, whose
/// encoding costs more than computing the samples did.
///
/// ```swift
/// let cache = ByteBoundedCache<String>(capacityBytes: 64 << 20)
/// cache.insert(body, for: "apollo11/5000")
/// cache[ "apollo11/5000"]   // the bytes, now most recently used
/// ```
public final class ByteBoundedCache<Key: Hashable & Sendable>: @unchecked Sendable {
    private struct Entry {
        let value: [UInt8]
        var lastUse: UInt64
    }

    public let capacityBytes: Int
    private let lock = PthreadLock()
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    private var size = 0
    private var counters = (hits: 0, misses: 0, evictions: 0)

    public init(capacityBytes: Int) {
        self.capacityBytes = capacityBytes
    }

    public subscript(key: Key) -> [UInt8]? {
        lock.locked {
            guard var e = entries[key] else { counters.misses += 1; return nil }
            clock += 1
            e.lastUse = clock
            entries[key] = e
            counters.hits += 1
            return e.value
        }
    }

    /// Stores `value` (a value larger than the whole capacity is not kept), evicting the least
    /// recently used entries until the total fits.
    public func insert(_ value: [UInt8], for key: Key) {
        guard value.count <= capacityBytes else { return }
        lock.locked {
            if let old = entries.removeValue(forKey: key) { size -= old.value.count }
            while size + value.count > capacityBytes, let victim = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries.removeValue(forKey: victim.key)
                size -= victim.value.value.count
                counters.evictions += 1
            }
            clock += 1
            entries[key] = Entry(value: value, lastUse: clock)
            size += value.count
        }
    }

    public func removeAll() {
        lock.locked {
            entries.removeAll()
            size = 0
        }
    }

    public var totalBytes: Int { lock.locked { size } }
    public var count: Int { lock.locked { entries.count } }
    public var statistics: (hits: Int, misses: Int, evictions: Int) { lock.locked { counters } }
}
