import Logging
import SmallBodies
import Storage

/// The small-body propagator's chunks in the SQLite cache (`small_body_chunks`, migration 0004),
/// through a ``SampleCache`` over that table: reads never wait on a lock (a busy read is a miss),
/// writes are queued for its writer, the table is capped and evicted least recently used first.
/// A row is keyed by the path (body, elements, force model), the chunk, the planetary kernel and
/// the propagator's version, so nothing integrated under other data is ever read.
public struct SampleCacheChunkStore: ChunkStore {
    let cache: SampleCache
    /// Names the planetary kernel (its label, size and modification time).
    let kernelIdentity: String
    let logger: Logger

    /// Bumped when the propagator's numbers change.
    public static let engineVersion = "1"
    static let mission = "small-bodies"
    static let frame = "ssb-ecliptic-j2000"

    public init(cache: SampleCache, kernelIdentity: String, logger: Logger) {
        self.cache = cache
        self.kernelIdentity = kernelIdentity
        self.logger = logger
    }

    func key(_ path: String, _ chunk: Int) -> SampleCacheKey {
        SampleCacheKey(mission: Self.mission, vehicle: path, samples: chunk, frame: Self.frame, dataHash: kernelIdentity, engineVersion: Self.engineVersion)
    }

    public func load(key: String, chunk: Int) -> [Double]? {
        do {
            return try cache.get(self.key(key, chunk))
        } catch {
            logger.warning("small-body chunk cache read failed; integrating instead", metadata: ["error": "\(error)"])
            return nil
        }
    }

    public func save(key: String, chunk: Int, packed: [Double]) {
        _ = cache.put(self.key(key, chunk), values: packed)
    }

    /// Deletes rows of another kernel or propagator version (start-up).
    public func prune() throws -> Int {
        try cache.prune(dataHashes: [Self.mission: kernelIdentity], engineVersion: Self.engineVersion)
    }
}
