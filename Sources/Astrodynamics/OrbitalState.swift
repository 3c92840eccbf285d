import Ephemeris

/// A spacecraft's state at one instant: TDB seconds past J2000, position in km and velocity in
/// km/s relative to some centre, ecliptic J2000 axes unless the holder says otherwise. The time
/// is the SPK kernels' own argument, so states read from and written to kernels need no
/// conversion; ``TimeScale/instant(tdbSecondsPastJ2000:)`` turns it into an ``Instant``.
public struct OrbitalState: Sendable, Hashable {
    public var seconds: Double
    public var positionKm: Vector3
    public var velocityKmS: Vector3

    public init(seconds: Double, positionKm: Vector3, velocityKmS: Vector3) {
        self.seconds = seconds
        self.positionKm = positionKm
        self.velocityKmS = velocityKmS
    }

    public static func + (a: OrbitalState, b: (positionKm: Vector3, velocityKmS: Vector3)) -> OrbitalState {
        OrbitalState(seconds: a.seconds, positionKm: a.positionKm + b.positionKm, velocityKmS: a.velocityKmS + b.velocityKmS)
    }

    public static func - (a: OrbitalState, b: (positionKm: Vector3, velocityKmS: Vector3)) -> OrbitalState {
        OrbitalState(seconds: a.seconds, positionKm: a.positionKm - b.positionKm, velocityKmS: a.velocityKmS - b.velocityKmS)
    }
}
