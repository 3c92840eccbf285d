import Ephemeris

/// The Marsden–Sekanina non-gravitational acceleration of a comet (or the transverse A2 of an
/// asteroid, its Yarkovsky drift): in the heliocentric radial–transverse–normal frame,
/// a = g(r′) (A1 r̂ + A2 t̂ + A3 n̂), with r′ the heliocentric distance `DT` days earlier
/// (Yeomans & Chodas 1989, AJ 98, 1083: outgassing peaking after perihelion). A1…A3 in AU/d²,
/// as JPL's SBDB `model_pars` give them.
public struct NonGravitationalParameters: Sendable, Hashable {
    public var a1: Double
    public var a2: Double
    public var a3: Double
    /// Delay of the g(r) curve, days (`DT`; 0: none).
    public var dtDays: Double
    public var law: SublimationLaw

    public init(a1: Double = 0, a2: Double = 0, a3: Double = 0, dtDays: Double = 0, law: SublimationLaw) {
        self.a1 = a1
        self.a2 = a2
        self.a3 = a3
        self.dtDays = dtDays
        self.law = law
    }

    /// True when every parameter is zero (nothing to add).
    public var isZero: Bool { a1 == 0 && a2 == 0 && a3 == 0 }

    /// The acceleration (km/s²) at heliocentric position `r` (km) and velocity `v` (km/s);
    /// `delayedDistanceKm` is |r(t − DT)| (|r| without a delay).
    @inline(__always) func accelerationKmS2(r: Vector3, v: Vector3, delayedDistanceKm: Double) -> Vector3 {
        let rn = r.length
        let radial = r / rn
        let normalVector = r.cross(v)
        let normal = normalVector / normalVector.length
        let transverse = normal.cross(radial)
        let g = law.g(rAU: delayedDistanceKm / Constants.auKm) * SmallBodyConstants.auPerDay2InKmS2
        return (radial * a1 + transverse * a2 + normal * a3) * g
    }
}
