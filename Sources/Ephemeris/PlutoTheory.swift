import Glibc

/// Heliocentric Pluto from Meeus, *Astronomical Algorithms* (2nd ed., 1998), chapter 37: a
/// 43-term periodic series in the mean longitudes of Jupiter (J), Saturn (S) and Pluto (P), which
/// Meeus took from J. Chapront and G. Francou's fit to JPL's DE200-based integration. It gives the
/// heliocentric longitude l, latitude b and radius vector r referred to the mean ecliptic and
/// equinox of J2000, geometric, which is the engine's frame as it stands.
///
/// ```swift
/// let (p, v) = PlutoTheory.state(jdTDB: 2_460_000.5)   // au, au/day
/// ```
///
/// Valid 1885–2099 (`validRange`); outside it the series is still finite but is not a fit to
/// anything, so callers should fall back to another theory. Against DE440 at the reference cases
/// 1950–2096 the direction is within 3″ (PlutoTheoryTests).
///
/// The velocity is analytic: each argument α is linear in T, so d/dT (A sin α + B cos α) =
/// (A cos α − B sin α) dα/dT, then l̇, ḃ, ṙ go through the derivative of the spherical-to-
/// rectangular conversion.
public enum PlutoTheory {
    /// JD (TDB) of 1885-01-01 0h to 2100-01-01 0h, the span of Chapront & Francou's fit
    /// ("valid 1885–2099", Meeus ch. 37).
    public static let validRange: ClosedRange<Double> = 2_409_542.5...2_488_069.5

    /// Mean longitudes at J2000 (degrees) and their rates (degrees per Julian century), Meeus (37.1).
    static let jupiterDeg = (at2000: 34.35, perCentury: 3034.9057)
    static let saturnDeg = (at2000: 50.08, perCentury: 1222.1138)
    static let plutoDeg = (at2000: 238.96, perCentury: 144.96)
    /// The non-periodic parts of l, b and r (Meeus ch. 37).
    static let longitudeDeg = (at2000: 238.958116, perCentury: 144.96)
    static let latitudeOffsetDeg = -3.908239
    static let radiusOffsetAU = 40.7241346

    /// Heliocentric position (au) and velocity (au/day), ecliptic and equinox J2000.
    public static func state(jdTDB: Double) -> (positionAU: Vector3, velocityAUPerDay: Vector3) {
        let s = sphericalState(jdTDB: jdTDB)
        let (sl, cl) = (sin(s.longitude), cos(s.longitude))
        let (sb, cb) = (sin(s.latitude), cos(s.latitude))
        let r = s.radiusAU
        let position = Vector3(r * cb * cl, r * cb * sl, r * sb)
        let (dl, db, dr) = (s.longitudeRate, s.latitudeRate, s.radiusRate)
        let velocity = Vector3(
            dr * cb * cl - r * sb * cl * db - r * cb * sl * dl,
            dr * cb * sl - r * sb * sl * db + r * cb * cl * dl,
            dr * sb + r * cb * db
        )
        return (position, velocity)
    }

    /// Heliocentric position (au) alone (no rates: what a snapshot needs).
    public static func position(jdTDB: Double) -> Vector3 {
        let T = (jdTDB - Constants.jdJ2000) / Constants.daysPerJulianCentury
        let rad = Angle.radiansPerDegree
        let j = (jupiterDeg.at2000 + jupiterDeg.perCentury * T) * rad
        let s = (saturnDeg.at2000 + saturnDeg.perCentury * T) * rad
        let p = (plutoDeg.at2000 + plutoDeg.perCentury * T) * rad
        var l = 0.0, b = 0.0, r = 0.0
        for n in stride(from: 0, to: terms.count, by: 9) {
            let alpha = terms[n] * j + terms[n + 1] * s + terms[n + 2] * p
            let (sa, ca) = (sin(alpha), cos(alpha))
            l += terms[n + 3] * sa + terms[n + 4] * ca
            b += terms[n + 5] * sa + terms[n + 6] * ca
            r += terms[n + 7] * sa + terms[n + 8] * ca
        }
        l = (l + longitudeDeg.at2000 + longitudeDeg.perCentury * T) * rad
        b = (b + latitudeOffsetDeg) * rad
        r += radiusOffsetAU
        return Vector3(r * cos(b) * cos(l), r * cos(b) * sin(l), r * sin(b))
    }

    /// l, b (radians) and r (au) with their rates per day, as the series gives them.
    static func sphericalState(jdTDB: Double) -> (
        longitude: Double, latitude: Double, radiusAU: Double,
        longitudeRate: Double, latitudeRate: Double, radiusRate: Double
    ) {
        let T = (jdTDB - Constants.jdJ2000) / Constants.daysPerJulianCentury
        let rad = Angle.radiansPerDegree
        let j = (jupiterDeg.at2000 + jupiterDeg.perCentury * T) * rad
        let s = (saturnDeg.at2000 + saturnDeg.perCentury * T) * rad
        let p = (plutoDeg.at2000 + plutoDeg.perCentury * T) * rad
        var l = 0.0, b = 0.0, r = 0.0 // degrees, degrees, au
        var dl = 0.0, db = 0.0, dr = 0.0 // the same per century
        for n in stride(from: 0, to: terms.count, by: 9) {
            let i = terms[n], jj = terms[n + 1], k = terms[n + 2]
            let alpha = i * j + jj * s + k * p
            let alphaRate = (i * jupiterDeg.perCentury + jj * saturnDeg.perCentury + k * plutoDeg.perCentury) * rad
            let (sa, ca) = (sin(alpha), cos(alpha))
            l += terms[n + 3] * sa + terms[n + 4] * ca
            b += terms[n + 5] * sa + terms[n + 6] * ca
            r += terms[n + 7] * sa + terms[n + 8] * ca
            dl += (terms[n + 3] * ca - terms[n + 4] * sa) * alphaRate
            db += (terms[n + 5] * ca - terms[n + 6] * sa) * alphaRate
            dr += (terms[n + 7] * ca - terms[n + 8] * sa) * alphaRate
        }
        l += longitudeDeg.at2000 + longitudeDeg.perCentury * T
        dl += longitudeDeg.perCentury
        b += latitudeOffsetDeg
        r += radiusOffsetAU
        let perDay = 1 / Constants.daysPerJulianCentury
        return (l * rad, b * rad, r, dl * rad * perDay, db * rad * perDay, dr * perDay)
    }
}
