import Glibc
import Synchronization

extension SGP4 {
    /// The resonance integrator of a 12 h or 24 h orbit after `steps` steps of 720 min toward
    /// the past or the future: `atime` minutes from the epoch, the mean longitude `xli` and the
    /// mean motion `xni` (Vallado et al. 2006, dspace), and the unit rotors of the mean
    /// longitude and of the perigee at `atime`. The rotors are carried from step to step by
    /// multiplication and recomputed from the angles every ``resyncSteps`` steps (so their
    /// rounding never grows past 64 steps' worth, about 1e-14): a pure function of `steps`,
    /// so a state saved and resumed continues exactly as if never stopped.
    struct ResonanceState: Sendable, Equatable {
        static let stepMinutes = 720.0
        static let resyncSteps = 64
        var steps = 0
        var atime = 0.0
        var xli: Double
        var xni: Double
        var longitude: Rotor
        var perigee: Rotor

        init(xli: Double, xni: Double, perigee: Double) {
            self.xli = xli
            self.xni = xni
            longitude = Rotor(reducing: xli)
            self.perigee = Rotor(reducing: perigee)
        }
    }

    /// A point on the unit circle, (cos θ, sin θ): products add angles, so the sines of the
    /// resonance terms' angle combinations cost multiplications instead of library calls.
    struct Rotor: Sendable, Equatable {
        var cos: Double
        var sin: Double

        @inline(__always) init(cos: Double, sin: Double) {
            self.cos = cos
            self.sin = sin
        }

        @inline(__always) init(angle: Double) {
            cos = Glibc.cos(angle)
            sin = Glibc.sin(angle)
        }

        /// The rotor of an angle of any size: reduced to one turn first (exactly), which spares
        /// the library's slow path for large arguments.
        @inline(__always) init(reducing angle: Double) {
            self.init(angle: fmod(angle, 2 * Double.pi))
        }

        /// The rotor of a small angle (under 0.01 rad) by its Taylor series, to rounding; a
        /// larger one by the library.
        @inline(__always) init(small x: Double) {
            guard abs(x) < 0.01 else {
                self.init(angle: x)
                return
            }
            let x2 = x * x
            // Horner's form with the reciprocals as constants: no division on the integrator's path.
            self.init(cos: 1 - x2 * 0.5 * (1 - x2 * (1.0 / 12) * (1 - x2 * (1.0 / 30))),
                      sin: x * (1 - x2 * (1.0 / 6) * (1 - x2 * (1.0 / 20) * (1 - x2 * (1.0 / 42)))))
        }

        @inline(__always) var conjugate: Rotor { Rotor(cos: cos, sin: -sin) }

        @inline(__always) static func * (a: Rotor, b: Rotor) -> Rotor {
            Rotor(cos: a.cos * b.cos - a.sin * b.sin, sin: a.sin * b.cos + a.cos * b.sin)
        }
    }
}

/// Integrator states of one resonant orbit saved along the way, so that a propagation far from
/// the epoch resumes near its time instead of integrating from the epoch (a GEO set a thousand
/// years out is 730,000 steps; the pass search asks for hundreds of instants).
///
/// Per direction: the states at every `spacing` steps from the epoch, contiguous (an
/// integration from the epoch passes them all), at most ``maxPerDirection`` of them — past that
/// the spacing doubles and every other one goes — and the last state reached, which a series
/// walking in time resumes from. Memory is bounded (about 3 KiB per propagator); any call costs
/// at most a spacing of steps beyond the first that reached so far. The states are the ones the
/// fixed-step integration from the epoch passes through, so the answers do not depend on which
/// one a call resumes from.
final class ResonanceCheckpoints: Sendable {
    static let maxPerDirection = 64
    static let initialSpacing = 256

    struct Direction: Sendable {
        var spacing = ResonanceCheckpoints.initialSpacing
        /// saved[k] is the state after (k + 1) × spacing steps.
        var saved: [SGP4.ResonanceState] = []
        var last: SGP4.ResonanceState?
    }

    /// What one integration passed, to be saved when it ends.
    struct Recorder {
        let spacing: Int
        var next: Int
        var passedStates: [SGP4.ResonanceState] = []

        mutating func passed(_ s: SGP4.ResonanceState) {
            guard s.steps == next * spacing else { return }
            passedStates.append(s)
            next += 1
        }
    }

    private let state = Mutex((forward: Direction(), backward: Direction()))

    /// The saved state with the most steps not beyond `steps` in that direction, if any.
    func nearest(to steps: Int, forward: Bool) -> SGP4.ResonanceState? {
        state.withLock { s in
            let d = forward ? s.forward : s.backward
            var best: SGP4.ResonanceState?
            let k = min(steps / d.spacing, d.saved.count)
            if k > 0 { best = d.saved[k - 1] }
            if let last = d.last, last.steps <= steps, last.steps > (best?.steps ?? 0) { best = last }
            return best
        }
    }

    /// A recorder for an integration in that direction: it keeps the checkpoints it passes that
    /// extend the saved run (none when it starts beyond it).
    func recorder(forward: Bool) -> Recorder {
        state.withLock { s in
            let d = forward ? s.forward : s.backward
            return Recorder(spacing: d.spacing, next: d.saved.count + 1)
        }
    }

    /// Saves what `recorder` passed (when it continues the saved run) and `last`.
    func store(_ recorder: Recorder, last: SGP4.ResonanceState, forward: Bool) {
        state.withLock { s in
            var d = forward ? s.forward : s.backward
            if recorder.spacing == d.spacing {
                for p in recorder.passedStates where p.steps == (d.saved.count + 1) * d.spacing { d.saved.append(p) }
            }
            while d.saved.count > Self.maxPerDirection {
                // Keep the states at the doubled spacing: saved[1], saved[3], …
                d.saved = stride(from: 1, to: d.saved.count, by: 2).map { d.saved[$0] }
                d.spacing *= 2
            }
            d.last = last
            if forward { s.forward = d } else { s.backward = d }
        }
    }
}
