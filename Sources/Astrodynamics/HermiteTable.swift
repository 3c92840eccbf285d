import Ephemeris

/// Positions and velocities of one or more bodies tabulated on a fixed time grid and read back by
/// cubic Hermite interpolation: what makes a force evaluation cheap when the ephemeris behind it
/// costs microseconds per body.
///
/// Nodes sit at whole multiples of ``stepSeconds`` (TDB seconds past J2000), so a value never
/// depends on which times were asked for first. The grid is built in chunks of
/// ``nodesPerChunk`` steps the first time a chunk's span is asked for; the few chunks used last
/// are kept, so a propagation walking forward (or back) through time builds each chunk once and
/// memory stays small over decades. Not thread-safe by itself: its owner serialises access.
///
/// Cubic Hermite error on a step h: at most max|x⁗|·h⁴/384 in position, so a circular orbit
/// of radius A and angular rate ω holds ε with h = (384 ε / A)^¼ / ω.
///
/// The node velocities come with the states, or — for bodies whose source gives positions
/// only, or velocities not quite the derivative of its positions — from the nodes' own
/// positions by the fourth-order stencil v_k = [8(p_k+1 − p_k−1) − (p_k+2 − p_k−2)] / 12h,
/// whose error (ωh)⁴/30 of the speed is ~10⁻⁸ on grids this fine: one source call per node
/// instead of five.
struct HermiteTable: Sendable {
    /// Where the node values come from.
    enum Sampler: Sendable {
        /// Exact states (position and its derivative per second) of the bodies at a time.
        case states(@Sendable (Double) -> [PhaseState])
        /// Positions only; velocities by the stencil over the nodes.
        case positions(@Sendable (Double) -> [Vector3])
    }

    static let nodesPerChunk = 128
    static let chunksKept = 4

    /// Node spacing, seconds.
    let stepSeconds: Double
    /// Bodies per node.
    let bodies: Int
    let sampler: Sampler

    private struct Chunk: Sendable {
        let index: Int
        var lastUse: Int
        /// Node-major: node n, body b at n * bodies + b; `nodesPerChunk + 1` nodes.
        let nodes: [PhaseState]
    }

    private var chunks: [Chunk] = []
    private var uses = 0
    private var current = 0
    /// Chunks built so far (a cost measure for tests and benchmarks).
    private(set) var chunksBuilt = 0

    init(stepSeconds: Double, bodies: Int, sampler: Sampler) {
        self.stepSeconds = stepSeconds
        self.bodies = bodies
        self.sampler = sampler
    }

    /// Writes the bodies' interpolated positions at `seconds` into `out[offset...]`.
    @inline(__always) mutating func positions(at seconds: Double, into out: inout [Vector3], offset: Int = 0) {
        let (slot, local, s) = locate(seconds)
        let s2 = s * s, s3 = s2 * s, h = stepSeconds
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * h
        let h01 = 3 * s2 - 2 * s3, h11 = (s3 - s2) * h
        chunks[slot].nodes.withUnsafeBufferPointer { n in
            let base0 = local * bodies, base1 = base0 + bodies
            for b in 0..<bodies {
                let p0 = n[base0 + b], p1 = n[base1 + b]
                out[offset + b] = p0.r * h00 + p0.v * h10 + p1.r * h01 + p1.v * h11
            }
        }
    }

    /// The bodies' interpolated positions and velocities at `seconds` (the velocity is the
    /// derivative of the interpolated position).
    mutating func states(at seconds: Double) -> [PhaseState] {
        let (slot, local, s) = locate(seconds)
        let s2 = s * s, s3 = s2 * s, h = stepSeconds
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = (s3 - 2 * s2 + s) * h
        let h01 = 3 * s2 - 2 * s3, h11 = (s3 - s2) * h
        let d00 = (6 * s2 - 6 * s) / h, d10 = 3 * s2 - 4 * s + 1
        let d01 = (6 * s - 6 * s2) / h, d11 = 3 * s2 - 2 * s
        let n = chunks[slot].nodes, base0 = local * bodies, base1 = base0 + bodies
        return (0..<bodies).map { b in
            let p0 = n[base0 + b], p1 = n[base1 + b]
            return PhaseState(r: p0.r * h00 + p0.v * h10 + p1.r * h01 + p1.v * h11,
                              v: p0.r * d00 + p0.v * d10 + p1.r * d01 + p1.v * d11)
        }
    }

    /// The chunk slot, the node within it and the fraction of the step at `seconds`.
    @inline(__always) private mutating func locate(_ seconds: Double) -> (slot: Int, local: Int, fraction: Double) {
        let u = seconds / stepSeconds
        let whole = u.rounded(.down)
        let node = Int(whole)
        let n = Self.nodesPerChunk
        let index = node >= 0 ? node / n : (node - (n - 1)) / n
        let slot = self.slot(index)
        return (slot, node - index * n, u - whole)
    }

    /// The nodes of chunk `index`, node-major.
    private func build(_ index: Int) -> [PhaseState] {
        let n = Self.nodesPerChunk
        func time(_ k: Int) -> Double { Double(index * n + k) * stepSeconds }
        var nodes: [PhaseState] = []
        nodes.reserveCapacity((n + 1) * bodies)
        switch sampler {
        case .states(let sample):
            for k in 0...n {
                let states = sample(time(k))
                precondition(states.count == bodies, "a table's sampler returns one state per body")
                nodes.append(contentsOf: states)
            }
        case .positions(let sample):
            // Two nodes beyond each end feed the stencil.
            let p = (-2...(n + 2)).map { k in
                let positions = sample(time(k))
                precondition(positions.count == bodies, "a table's sampler returns one position per body")
                return positions
            }
            let scale = 1 / (12 * stepSeconds)
            for k in 2...(n + 2) {
                for b in 0..<bodies {
                    let v = ((p[k + 1][b] - p[k - 1][b]) * 8 - (p[k + 2][b] - p[k - 2][b])) * scale
                    nodes.append(PhaseState(r: p[k][b], v: v))
                }
            }
        }
        return nodes
    }

    @inline(__always) private mutating func slot(_ index: Int) -> Int {
        uses += 1
        if current < chunks.count, chunks[current].index == index {
            chunks[current].lastUse = uses
            return current
        }
        if let found = chunks.firstIndex(where: { $0.index == index }) {
            current = found
            chunks[found].lastUse = uses
            return found
        }
        let nodes = build(index)
        chunksBuilt += 1
        let chunk = Chunk(index: index, lastUse: uses, nodes: nodes)
        if chunks.count < Self.chunksKept {
            chunks.append(chunk)
            current = chunks.count - 1
        } else {
            let oldest = chunks.indices.min { chunks[$0].lastUse < chunks[$1].lastUse } ?? 0
            chunks[oldest] = chunk
            current = oldest
        }
        return current
    }
}
