import Glibc
import Ephemeris

/// A transit of Mercury or Venus across the Sun, seen from the Earth's centre (as Espenak's
/// catalogue) or from a place: the four contacts (I, II external and internal ingress, III, IV
/// egress), greatest transit and the least separation of the centres.
public struct Transit: Sendable {
    public let body: BodyID
    /// `2032-11-13-mercury`: the UTC date of greatest transit.
    public let id: String
    /// I, II, III, IV in order; II and III nil for a grazing transit whose disc never enters whole.
    public let contacts: [(name: String, instant: Instant?)]
    public let greatest: Instant
    public let minimumSeparationArcsec: Double
    public let sunSemidiameterArcsec: Double
    public let planetSemidiameterArcsec: Double
    /// From a place: the Sun's airless altitude at I, II, greatest, III, IV (nil geocentric).
    public let sunAltitudesDeg: [Double?]?
    public static let contactNames = ["I", "II", "III", "IV"]
}

extension SkyEngine {
    /// The bodies that can cross the Sun's disc as seen from the Earth.
    public static let transitBodies: [BodyID] = [.mercury, .venus]

    /// Transits of `body` whose greatest transit is between `start` and `stop`, geocentric or
    /// (with `observer`) topocentric. Inferior conjunctions in heliocentric longitude are found by
    /// a scan (10 days for Mercury, 30 for Venus), then the centres' apparent separation (light
    /// time for the planet) is minimised and its contacts with the discs' radii solved to 0.05 s.
    public func transits(_ body: BodyID, start: Instant, stop: Instant, observer: Observer? = nil) -> [Transit] {
        guard Self.transitBodies.contains(body) else { return [] }
        let a = Self.tdbSeconds(start), b = Self.tdbSeconds(stop)
        let step = (body == .mercury ? 10.0 : 30.0) * Constants.secondsPerDay
        let toEcliptic = Self.eclipticToICRF.transposed
        func elongation(_ s: Double) -> Double {
            let p = toEcliptic * heliocentricICRF(body, tdbSeconds: s), e = toEcliptic * heliocentricICRF(.earth, tdbSeconds: s)
            return Angle.normalizedSignedRadians(atan2(p.y, p.x) - atan2(e.y, e.x))
        }
        var out: [Transit] = []
        var s0 = a - Constants.secondsPerDay, f0 = elongation(s0)
        while s0 < b + Constants.secondsPerDay {
            let s1 = s0 + step, f1 = elongation(s1)
            if f0 < 0, f1 >= 0, f1 - f0 < Double.pi {
                let conjunction = SkyTrack.solve(s0, s1, elongation)
                if let t = transit(body, near: conjunction, observer: observer), (a...b).contains(Self.tdbSeconds(t.greatest)) { out.append(t) }
            }
            s0 = s1; f0 = f1
        }
        return out
    }

    /// The transit around an inferior conjunction, or nil where the planet misses the Sun.
    func transit(_ body: BodyID, near conjunction: Double, observer: Observer?) -> Transit? {
        let sunRadiusKm = EclipseConstants.sunRadiusEarthRadii * SkyConstants.wgs84EquatorialRadiusKm
        let planetRadiusKm = Self.radiusKm(body, ephemeris.catalogue)
        // Separation and the two semidiameters, radians, from the Earth's centre or the place.
        func geometry(_ s: Double) -> (separation: Double, sun: Double, planet: Double) {
            let earth = heliocentricICRF(.earth, tdbSeconds: s)
            var from = earth
            if let observer { from = station(observer, at: time(Self.instant(tdbSeconds: s))).positionAU }
            let sun = -from, planet = astrometricICRF(body, from: from, tdbSeconds: s)
            return (sun.angle(to: planet), asin(sunRadiusKm / (sun.length * Constants.auKm)), asin(planetRadiusKm / (planet.length * Constants.auKm)))
        }
        let window = 0.75 * Constants.secondsPerDay
        guard geometry(conjunction).separation < 0.02 else { return nil }
        // The least separation around the conjunction.
        let greatest = SkyTrack.minimum(conjunction - window, conjunction + window, tolerance: 0.5) { geometry($0).separation }
        let m = geometry(greatest)
        guard m.separation < m.sun + m.planet else { return nil }
        func contact(_ sign: Double, before: Bool) -> Double? {
            let f: (Double) -> Double = { s in let q = geometry(s); return q.separation - (q.sun + sign * q.planet) }
            guard f(greatest) < 0 else { return nil }
            return before ? SkyTrack.roots(from: greatest - window, to: greatest, step: 1_800, f).last
                          : SkyTrack.roots(from: greatest, to: greatest + window, step: 1_800, f).first
        }
        let times = [contact(1, before: true), contact(-1, before: true), contact(-1, before: false), contact(1, before: false)]
        let instant = Self.instant(tdbSeconds: greatest)
        var altitudes: [Double?]?
        if let observer {
            altitudes = (Array(times.prefix(2)) + [greatest] + Array(times.suffix(2))).map { s in
                s.map { view([.sun], from: observer, at: time(Self.instant(tdbSeconds: $0)), atmosphere: nil)[0].altitudeDeg }
            }
        }
        let id = Self.eclipseID(instant, kind: body.rawValue)
        let arcsec = Angle.degreesPerRadian * 3600
        return Transit(body: body, id: id, contacts: zip(Transit.contactNames, times).map { ($0, $1.map { Self.instant(tdbSeconds: $0) }) },
                       greatest: instant, minimumSeparationArcsec: m.separation * arcsec,
                       sunSemidiameterArcsec: m.sun * arcsec, planetSemidiameterArcsec: m.planet * arcsec, sunAltitudesDeg: altitudes)
    }
}
