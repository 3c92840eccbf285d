import Glibc
import Ephemeris

/// Bodies the engine does not know by id — asteroids and comets — placed in the observer's sky
/// from their heliocentric positions, as the planets are: light time, the Sun's deflection and
/// aberration, refraction; brightness from their own photometric law.
extension SkyEngine {
    /// The magnitude laws of small bodies.
    public enum SmallBodyBrightness: Sendable, Hashable {
        /// Asteroids: H and G (Bowell et al. 1989, *Asteroids II*, the IAU's 1985 two-parameter
        /// system): V = H + 5 log(rΔ) − 2.5 log((1 − G)Φ₁ + GΦ₂), Φᵢ = exp(−Aᵢ tan^Bᵢ(α/2)).
        case hg(h: Double, g: Double)
        /// Comets' total magnitude: m = M1 + 5 log Δ + K1 log r (as JPL Horizons computes T-mag).
        case comet(m1: Double, k1: Double)

        public func magnitude(sunDistanceAU r: Double, observerDistanceAU d: Double, phaseDeg: Double) -> Double {
            switch self {
            case let .hg(h, g):
                let t = tan(phaseDeg * Angle.radiansPerDegree / 2)
                let phi1 = exp(-3.33 * pow(t, 0.63)), phi2 = exp(-1.87 * pow(t, 1.22))
                return h + 5 * log10(r * d) - 2.5 * log10((1 - g) * phi1 + g * phi2)
            case let .comet(m1, k1):
                return m1 + 5 * log10(d) + k1 * log10(r)
            }
        }
    }

    /// A body given by `heliocentricEclipticAU` (position at TDB seconds past J2000, AU, ecliptic
    /// J2000) seen from `observer` at `time`, named `id` in the answer.
    public func view(id: String, heliocentricEclipticAU position: (Double) -> Vector3, brightness: SmallBodyBrightness?,
                     from observer: Observer, at time: SkyTime, atmosphere: Atmosphere?) -> SkyPosition {
        let st = station(observer, at: time)
        let sun = place(.sun, from: st)
        let p = ApparentPlace.compute(observerAU: st.positionAU, observerVelocityAUPerDay: st.velocityAUPerDay, tdbSeconds: st.tdbSeconds,
                                      deflect: true) { s in Self.eclipticToICRF * position(s) }
        let d = directions(p, station: st, observer: observer, atmosphere: atmosphere)
        let phase = (-p.bodyAU).angle(to: -p.astrometricAU) * Angle.degreesPerRadian
        return SkyPosition(
            body: id, raDeg: d.apparent.raDeg, decDeg: d.apparent.decDeg, raJ2000Deg: d.astrometric.raDeg, decJ2000Deg: d.astrometric.decDeg,
            azimuthDeg: d.horizontal.azimuthDeg, altitudeDeg: d.horizontal.altitudeDeg, airlessAltitudeDeg: d.horizontal.airlessAltitudeDeg,
            hourAngleDeg: d.hourAngleDeg, distanceKm: d.distanceAU * Constants.auKm, lightTimeS: p.lightTimeS,
            illuminatedFraction: (1 + cos(phase * Angle.radiansPerDegree)) / 2, phaseAngleDeg: phase,
            elongationDeg: p.apparentDirection.angle(to: sun.apparentDirection) * Angle.degreesPerRadian,
            magnitude: brightness?.magnitude(sunDistanceAU: p.bodyAU.length, observerDistanceAU: d.distanceAU, phaseDeg: phase),
            angularDiameterArcsec: nil
        )
    }
}
