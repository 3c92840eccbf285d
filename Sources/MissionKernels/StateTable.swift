import Astrodynamics
import Ephemeris
import Missions

/// States at known times (an entry flown at one-second steps, an integration's outputs), read
/// between them by cubic Hermite interpolation on the neighbouring pair: continuous in
/// position and velocity, and as good as the table's spacing.
public struct StateTable: Sendable {
    public let states: [OrbitalState]

    public struct TableError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public init(_ states: [OrbitalState]) throws {
        guard states.count >= 2 else { throw TableError(description: "a table needs two states, has \(states.count)") }
        for (a, b) in zip(states, states.dropFirst()) where !(b.seconds > a.seconds) {
            throw TableError(description: "state times must increase (\(b.seconds) after \(a.seconds))")
        }
        self.states = states
    }

    public var span: ClosedRange<Double> { states[0].seconds...states[states.count - 1].seconds }

    public func state(at t: Double) -> OrbitalState {
        var lo = 0, hi = states.count - 2
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if states[mid].seconds <= t { lo = mid } else { hi = mid - 1 }
        }
        let a = states[lo], b = states[lo + 1]
        let h = b.seconds - a.seconds
        let s = max(0, min(1, (t - a.seconds) / h))
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        let p = a.positionKm * h00 + a.velocityKmS * (h10 * h) + b.positionKm * h01 + b.velocityKmS * (h11 * h)
        let d00 = (6 * s2 - 6 * s) / h, d10 = 3 * s2 - 4 * s + 1, d01 = (-6 * s2 + 6 * s) / h, d11 = 3 * s2 - 2 * s
        let v = a.positionKm * d00 + a.velocityKmS * d10 + b.positionKm * d01 + b.velocityKmS * d11
        return OrbitalState(seconds: t, positionKm: p, velocityKmS: v)
    }

    /// The table moved by a centre's motion: `centre(t)` added to every state (for tables kept
    /// relative to a body).
    public func offset(by center: (Double) -> (positionKm: Vector3, velocityKmS: Vector3)) throws -> StateTable {
        try StateTable(states.map { s in
            let c = center(s.seconds)
            return OrbitalState(seconds: s.seconds, positionKm: s.positionKm + c.positionKm, velocityKmS: s.velocityKmS + c.velocityKmS)
        })
    }
}
