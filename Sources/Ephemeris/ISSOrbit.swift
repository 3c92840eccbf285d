import Glibc

/// The ISS without element sets: an illustrative circular orbit (the catalogue's 6,779 km radius, i.e.
/// 408 km altitude; 51.6° inclination; 92.7 min period). The plane is inclined to the Earth's
/// equator of J2000 with its ascending node fixed at right ascension 0°, and the phase starts at
/// the catalogue's `longitude_at_epoch_deg` at J2000. Illustrative only: it is not a real-time
/// ISS ephemeris (no TLE, no nodal regression, no drag).
public struct ISSOrbit: Sendable {
    public let radiusKm: Double
    public let periodDays: Double
    public let inclinationDeg: Double
    public let phaseAtEpochDeg: Double
    let toEcliptic: Matrix3

    public init(seed: SeedMeanOrbit) {
        radiusKm = seed.semiMajorAxisKm
        periodDays = seed.periodDays
        inclinationDeg = seed.inclinationDeg
        phaseAtEpochDeg = seed.longitudeAtEpochDeg
        // Orbit plane → ICRF (node at RA 0, inclined about x) → ecliptic J2000.
        toEcliptic = Precession.equatorialToEclipticJ2000 * Matrix3.rotationX(seed.inclinationDeg * Angle.radiansPerDegree)
    }

    /// Geocentric position (km) and velocity (km/day), ecliptic J2000.
    public func state(daysSinceJ2000 d: Double) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        let n = 2 * Double.pi / periodDays
        let revolutions = (d / periodDays).truncatingRemainder(dividingBy: 1)
        let u = phaseAtEpochDeg * Angle.radiansPerDegree + 2 * Double.pi * revolutions
        let c = cos(u), s = sin(u)
        let p = Vector3(radiusKm * c, radiusKm * s, 0)
        let v = Vector3(-radiusKm * n * s, radiusKm * n * c, 0)
        return (toEcliptic * p, toEcliptic * v)
    }
}
