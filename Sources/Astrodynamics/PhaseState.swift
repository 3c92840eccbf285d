import Ephemeris

/// Position (km) and velocity (km/s) as one vector of the first-order system the Runge–Kutta
/// integrator advances: d/dt (r, v) = (v, a(r, t)).
struct PhaseState: Sendable, Hashable {
    var r: Vector3
    var v: Vector3

    static let zero = PhaseState(r: .zero, v: .zero)

    @inline(__always) static func + (a: PhaseState, b: PhaseState) -> PhaseState { PhaseState(r: a.r + b.r, v: a.v + b.v) }
    @inline(__always) static func - (a: PhaseState, b: PhaseState) -> PhaseState { PhaseState(r: a.r - b.r, v: a.v - b.v) }
    @inline(__always) static func * (a: PhaseState, s: Double) -> PhaseState { PhaseState(r: a.r * s, v: a.v * s) }
    @inline(__always) static func += (a: inout PhaseState, b: PhaseState) { a = a + b }

    var isFinite: Bool { r.isFinite && v.isFinite }
}
