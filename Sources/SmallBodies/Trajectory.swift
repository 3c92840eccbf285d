import Astrodynamics
import Ephemeris
import Synchronization

/// Where a path's integrated chunks may be kept between processes (the server's SQLite cache):
/// `PropagatedArc.packed` numbers, by the path's key and the chunk's signed index (forward
/// chunks 0, 1, …; backward −1, −2, …). Both calls must be cheap or fail fast: a miss is
/// integrated, a failed save is forgotten.
public protocol ChunkStore: Sendable {
    func load(key: String, chunk: Int) -> [Double]?
    func save(key: String, chunk: Int, packed: [Double])
}

/// One body's integration under one force model, extended chunk by chunk as instants are asked
/// for, in either direction from the epoch. Thread-safe: one integration at a time per path
/// (others asking for the same body wait for it, then read it).
final class Trajectory: Sendable {
    /// Identifies the body, its elements and the force model (the chunk store's key).
    let key: String
    let initial: OrbitalState
    let integrator: DormandPrince853
    let forces: @Sendable (ClosedRange<Double>, () -> Bool) throws(SmallBodyError) -> SmallBodyForces
    let store: (any ChunkStore)?
    /// The span chunks stop at (the kernel's, or what the body is trusted over).
    let limits: ClosedRange<Double>
    let path: Mutex<ChunkedPath>

    init(key: String, initial: OrbitalState, chunkSeconds: Double, limits: ClosedRange<Double>, integrator: DormandPrince853, store: (any ChunkStore)?,
         forces: @escaping @Sendable (ClosedRange<Double>, () -> Bool) throws(SmallBodyError) -> SmallBodyForces) {
        self.key = key
        self.initial = initial
        self.integrator = integrator
        self.forces = forces
        self.store = store
        self.limits = limits
        path = Mutex(ChunkedPath(epochSeconds: initial.seconds, chunkSeconds: chunkSeconds))
    }

    /// The path, integrated at least through `a…b` (clamped to ``limits``), and whether chunks
    /// were added for it.
    func covering(_ a: Double, _ b: Double, shouldStop: () -> Bool) throws(SmallBodyError) -> (path: ChunkedPath, grew: Bool) {
        let a = max(a, limits.lowerBound), b = min(b, limits.upperBound)
        return try path.withLock { (p: inout ChunkedPath) throws(SmallBodyError) -> (path: ChunkedPath, grew: Bool) in
            let before = p.forward.count + p.backward.count
            if b > p.epochSeconds || a >= p.epochSeconds {
                while (p.forward.last?.span.upperBound ?? p.epochSeconds) < max(a, b) {
                    let k = p.forward.count
                    let start = p.forward.last?.end ?? initial
                    p.forward.append(try chunk(k, from: start, to: min(p.epochSeconds + Double(k + 1) * p.chunkSeconds, limits.upperBound), shouldStop: shouldStop))
                }
            }
            if a < p.epochSeconds {
                while (p.backward.last?.span.lowerBound ?? p.epochSeconds) > a {
                    let k = p.backward.count
                    // A backward arc runs from its later end (start) to its earlier one (end).
                    let start = p.backward.last?.end ?? initial
                    p.backward.append(try chunk(-k - 1, from: start, to: max(p.epochSeconds - Double(k + 1) * p.chunkSeconds, limits.lowerBound), shouldStop: shouldStop))
                }
            }
            return (p, p.forward.count + p.backward.count != before)
        }
    }

    /// Chunk `k` from `start` to `target`: from the store when it holds exactly this chunk,
    /// else integrated (and offered to the store).
    func chunk(_ k: Int, from start: OrbitalState, to target: Double, shouldStop: () -> Bool) throws(SmallBodyError) -> PropagatedArc {
        if let packed = store?.load(key: key, chunk: k), let arc = PropagatedArc(packed: packed),
           arc.start == start, arc.end.seconds == target {
            return arc
        }
        let model = try forces(min(start.seconds, target)...max(start.seconds, target), shouldStop)
        do {
            let arc = try integrator.propagate(start, to: target, model: model, shouldStop: shouldStop)
            store?.save(key: key, chunk: k, packed: arc.packed)
            return arc
        } catch {
            if case .stopped = error { throw .stopped }
            throw .propagation(error)
        }
    }
}
