import HTTPCore
import Synchronization

/// The API's memory cache of encoded answers (identity, gzip variant and ETag together, so a
/// repeat costs no computing, encoding, compressing or hashing), least recently used out first,
/// bounded by the bytes of both variants. Thread-safe; every operation is O(1).
///
/// ```swift
/// let cache = ResponseCache<ResponseKey>(capacityBytes: 16 << 20)
/// if let hit = cache[key] { return .respond(HTTPResponse(encoded: hit).immutable()) }
/// cache.insert(EncodedBody(bytes: json, contentType: HTTPResponse.jsonContentType), for: key)
/// ```
/// Entries larger than `maxEntryBytes` are not kept: one huge answer must not flush the cache
/// (the routes stream such answers instead).
public final class ResponseCache<Key: Hashable & Sendable>: Sendable {
    public struct Statistics: Sendable, Equatable {
        public var hits = 0
        public var misses = 0
        public var insertions = 0
        public var evictions = 0
        public var entries = 0
        public var bytes = 0
    }

    /// A doubly linked list over array slots: `head` is the most recently used.
    private struct State {
        var slots: [Key: Int] = [:]
        var keys: [Key?] = []
        var values: [EncodedBody?] = []
        var prev: [Int] = []
        var next: [Int] = []
        var free: [Int] = []
        var head = -1
        var tail = -1
        var stats = Statistics()

        mutating func unlink(_ i: Int) {
            let p = prev[i], n = next[i]
            if p >= 0 { next[p] = n } else { head = n }
            if n >= 0 { prev[n] = p } else { tail = p }
            prev[i] = -1
            next[i] = -1
        }

        mutating func pushFront(_ i: Int) {
            prev[i] = -1
            next[i] = head
            if head >= 0 { prev[head] = i }
            head = i
            if tail < 0 { tail = i }
        }

        mutating func remove(_ i: Int) {
            unlink(i)
            if let k = keys[i] { slots.removeValue(forKey: k) }
            stats.bytes -= values[i]?.byteCount ?? 0
            stats.entries -= 1
            keys[i] = nil
            values[i] = nil
            free.append(i)
        }
    }

    public let capacityBytes: Int
    public let maxEntryBytes: Int
    private let state = Mutex(State())

    public init(capacityBytes: Int, maxEntryBytes: Int? = nil) {
        self.capacityBytes = max(0, capacityBytes)
        self.maxEntryBytes = maxEntryBytes ?? self.capacityBytes / 4
    }

    /// The entry, now the most recently used; nil (a miss) when absent.
    public subscript(key: Key) -> EncodedBody? {
        guard let body = lookUp(key) else {
            recordMiss()
            return nil
        }
        return body
    }

    /// The entry, now the most recently used, counting a hit; a miss is not counted (the caller
    /// counts it with `recordMiss` once it computes the answer, so a request that looks twice,
    /// before and after waiting for a worker, counts one miss).
    public func lookUp(_ key: Key) -> EncodedBody? {
        state.withLock { s in
            guard let i = s.slots[key] else { return nil }
            s.stats.hits += 1
            if s.head != i {
                s.unlink(i)
                s.pushFront(i)
            }
            return s.values[i]
        }
    }

    /// Counts an answer computed because the cache did not hold it.
    public func recordMiss() {
        state.withLock { $0.stats.misses += 1 }
    }

    /// Whether an entry of `bytes` would be kept.
    public func admits(bytes: Int) -> Bool { bytes <= maxEntryBytes && bytes <= capacityBytes }

    /// Stores `body` (replacing an entry under the same key), evicting the least recently used
    /// entries until the total fits. Bodies larger than `maxEntryBytes` are not kept.
    public func insert(_ body: EncodedBody, for key: Key) {
        let size = body.byteCount
        guard admits(bytes: size) else { return }
        // Victims are released after the lock: the last reference may free megabytes.
        var evicted: [EncodedBody] = []
        state.withLock { s in
            if let old = s.slots[key] {
                if let v = s.values[old] { evicted.append(v) }
                s.remove(old)
            }
            while s.stats.bytes + size > capacityBytes, s.tail >= 0 {
                if let v = s.values[s.tail] { evicted.append(v) }
                s.remove(s.tail)
                s.stats.evictions += 1
            }
            let i: Int
            if let f = s.free.popLast() {
                i = f
                s.keys[i] = key
                s.values[i] = body
            } else {
                i = s.keys.count
                s.keys.append(key)
                s.values.append(body)
                s.prev.append(-1)
                s.next.append(-1)
            }
            s.slots[key] = i
            s.pushFront(i)
            s.stats.bytes += size
            s.stats.entries += 1
            s.stats.insertions += 1
        }
        withExtendedLifetime(evicted) {}
    }

    public func removeAll() {
        let dropped: [EncodedBody?] = state.withLock { s in
            let values = s.values
            let stats = s.stats
            s = State()
            s.stats.hits = stats.hits
            s.stats.misses = stats.misses
            s.stats.insertions = stats.insertions
            s.stats.evictions = stats.evictions
            return values
        }
        withExtendedLifetime(dropped) {}
    }

    public var statistics: Statistics { state.withLock { $0.stats } }
    public var totalBytes: Int { statistics.bytes }
    public var count: Int { statistics.entries }
}
