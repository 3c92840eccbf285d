import Glibc
import Ephemeris

/// Geodetic coordinates on the WGS-84 ellipsoid.
public struct Geodetic: Sendable, Hashable {
    public var latitudeDeg: Double
    /// East longitude, −180…180.
    public var longitudeDeg: Double
    /// Height above the ellipsoid, km.
    public var altitudeKm: Double

    /// The point of an Earth-fixed position (km): Bowring's iteration from a geocentric start
    /// (converges to 1e-12 rad in three steps for any altitude above the Earth's centre region).
    public init(earthFixedKm r: Vector3) {
        let a = SGP4Constants.wgs84RadiusKm, f = SGP4Constants.wgs84Flattening
        let e2 = f * (2 - f)
        let p = (r.x * r.x + r.y * r.y).squareRoot()
        longitudeDeg = atan2(r.y, r.x) * 180 / Double.pi
        var lat = atan2(r.z, p * (1 - e2))
        var n = a
        for _ in 0..<6 {
            let s = sin(lat)
            n = a / (1 - e2 * s * s).squareRoot()
            let next = atan2(r.z + n * e2 * s, p)
            if abs(next - lat) < 1e-13 { lat = next; break }
            lat = next
        }
        let s = sin(lat), c = cos(lat)
        n = a / (1 - e2 * s * s).squareRoot()
        // Height: along the normal; the polar form where cos φ is small.
        altitudeKm = abs(c) > 1e-3 ? p / c - n : abs(r.z) / abs(s) - n * (1 - e2)
        latitudeDeg = lat * 180 / Double.pi
    }
}

/// Where a satellite is in the Sun's light.
public enum Illumination: String, Sendable {
    /// The whole solar disc is visible.
    case sunlit
    /// The Earth hides part of the disc.
    case penumbra
    /// The Earth hides the whole disc.
    case umbra
}

/// A satellite at one instant in every frame the API serves, with its ground point and light.
public struct SatelliteFix: Sendable {
    public var teme: TEMEState
    /// Geocentric ICRF (J2000 mean equator and equinox; see ``TEMEFrame``).
    public var icrfPositionKm: Vector3
    public var icrfVelocityKmPerSecond: Vector3
    /// Earth-fixed (pseudo-ITRF: no polar motion, UT1 = UTC); velocity relative to the rotating Earth.
    public var earthFixedPositionKm: Vector3
    public var earthFixedVelocityKmPerSecond: Vector3
    /// The sub-satellite point and height on WGS-84.
    public var subpoint: Geodetic
    /// Sunlit, penumbra or umbra; nil when no Sun position was given.
    public var illumination: Illumination?
    /// Minutes from the element set's epoch.
    public var minutesSinceEpoch: Double
}

extension SGP4 {
    /// The satellite at `t`: SGP4 in TEME, then ICRF, Earth-fixed and geodetic; with
    /// `sunICRFKm` (the Sun's geocentric ICRF position, km) its illumination. Pure: the
    /// building block for passes over an observer.
    public func fix(at t: Instant, sunICRFKm: Vector3? = nil) throws(SGP4Error) -> SatelliteFix {
        let utcFraction = t.ttFraction - t.ttMinusUTCSeconds / Constants.secondsPerDay
        let minutes = minutesSinceEpoch(jdUTCWhole: t.ttWhole, jdUTCFraction: utcFraction)
        let teme = try propagate(minutesSinceEpoch: minutes)
        let toICRF = TEMEFrame.temeToICRF(jdTT: t.jdTT)
        let toFixed = TEMEFrame.temeToEarthFixed(jdUT1Whole: t.ttWhole, jdUT1Fraction: utcFraction)
        let rFixed = toFixed * teme.positionKm
        let omega = Vector3(0, 0, SGP4Constants.earthRotationRadPerSecond)
        let vFixed = toFixed * teme.velocityKmPerSecond - omega.cross(rFixed)
        let rICRF = toICRF * teme.positionKm
        return SatelliteFix(
            teme: teme, icrfPositionKm: rICRF, icrfVelocityKmPerSecond: toICRF * teme.velocityKmPerSecond,
            earthFixedPositionKm: rFixed, earthFixedVelocityKmPerSecond: vFixed,
            subpoint: Geodetic(earthFixedKm: rFixed),
            illumination: sunICRFKm.map { Self.illumination(satelliteKm: rICRF, sunKm: $0) },
            minutesSinceEpoch: minutes)
    }

    /// Umbra, penumbra or sunlight from the apparent radii of the Earth (WGS-84 equatorial
    /// radius: a sphere, so the terminator is right within ~20 km of height) and the Sun as seen
    /// from the satellite, and the angle between their centres.
    public static func illumination(satelliteKm r: Vector3, sunKm sun: Vector3) -> Illumination {
        let toEarth = -r, toSun = sun - r
        let earthRadius = asin(min(1, SGP4Constants.wgs84RadiusKm / toEarth.length))
        let sunRadius = asin(min(1, SGP4Constants.sunRadiusKm / toSun.length))
        let separation = toEarth.angle(to: toSun)
        if separation >= earthRadius + sunRadius { return .sunlit }
        if separation <= earthRadius - sunRadius { return .umbra }
        return .penumbra
    }
}

extension SGP4 {
    /// Only the ICRF state at `t` (no Earth-fixed frame, no ground point): what a body's position
    /// needs. `rotation`, when given, replaces ``TEMEFrame/temeToICRF(jdTT:)``: the same matrix
    /// computed for an instant close to `t` (it moves by under 1 mas in ten minutes), possibly
    /// composed with a further rotation (TEME → ecliptic), and the state is then in that frame.
    public func icrfState(at t: Instant, rotation: Matrix3? = nil) throws(SGP4Error) -> (positionKm: Vector3, velocityKmPerSecond: Vector3) {
        let utcFraction = t.ttFraction - t.ttMinusUTCSeconds / Constants.secondsPerDay
        let teme = try propagate(minutesSinceEpoch: minutesSinceEpoch(jdUTCWhole: t.ttWhole, jdUTCFraction: utcFraction))
        let m = rotation ?? TEMEFrame.temeToICRF(jdTT: t.jdTT)
        return (m * teme.positionKm, m * teme.velocityKmPerSecond)
    }
}

extension SGP4 {
    /// Minutes from the element set's epoch to `t` (UTC to UTC, as the sets are dated).
    public func minutesSinceEpoch(instant t: Instant) -> Double {
        minutesSinceEpoch(jdUTCWhole: t.ttWhole, jdUTCFraction: t.ttFraction - t.ttMinusUTCSeconds / Constants.secondsPerDay)
    }
}
