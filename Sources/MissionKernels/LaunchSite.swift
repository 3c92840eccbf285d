import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A place on a body's surface (launch pads, landing sites, splashdowns): geodetic latitude and
/// east longitude on the body's reference ellipsoid, turned with the body (the Earth by
/// ``TerrestrialFrame``, other bodies by the engine's IAU rotation).
public struct SurfaceSite: Sendable, Hashable {
    public let body: BodyID
    public let latitudeDeg: Double
    public let longitudeDeg: Double
    /// Above the reference surface, km.
    public let heightKm: Double

    public init(body: BodyID, latitudeDeg: Double, longitudeDeg: Double, heightKm: Double = 0) {
        self.body = body
        self.latitudeDeg = latitudeDeg
        self.longitudeDeg = longitudeDeg
        self.heightKm = heightKm
    }

    /// WGS 84 for the Earth (a = 6378.137 km, 1/f = 298.257223563); a sphere of the catalogue
    /// radius for other bodies.
    public func bodyFixedKm(radiusKm: Double) -> Vector3 {
        let phi = latitudeDeg * .pi / 180, lambda = longitudeDeg * .pi / 180
        if body == .earth {
            let a = Constants.earthEquatorialRadiusKm, f = Constants.earthFlattening
            let e2 = f * (2 - f)
            let n = a / (1 - e2 * sin(phi) * sin(phi)).squareRoot()
            return Vector3((n + heightKm) * cos(phi) * cos(lambda), (n + heightKm) * cos(phi) * sin(lambda), (n * (1 - e2) + heightKm) * sin(phi))
        }
        let r = radiusKm + heightKm
        return Vector3(r * cos(phi) * cos(lambda), r * cos(phi) * sin(lambda), r * sin(phi))
    }

    /// Heliocentric ecliptic J2000 state (km, km/s) at `seconds` TDB: fixed to the turning body —
    /// the Earth turned as it really was (``TerrestrialFrame``: UT1 and the IERS pole from
    /// `terrestrial`, else from the engine's ΔT), any other body by its IAU rotation.
    public func state(at seconds: Double, ephemeris: Ephemeris, terrestrial: TerrestrialFrame? = nil) -> OrbitalState {
        let fixed = bodyFixedKm(radiusKm: ephemeris.catalogue[body].radiusKm)
        let t = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        let earth = body == .earth ? (terrestrial ?? TerrestrialFrame(ephemeris: ephemeris)) : nil
        func turn(_ s: Double) -> Matrix3 {
            earth?.itrsToEcliptic(atSeconds: s) ?? ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: s)).bodyToEcliptic
        }
        let m = turn(seconds)
        let h = 10.0
        let before = turn(seconds - h) * fixed
        let after = turn(seconds + h) * fixed
        let center = ephemeris.naifState(NAIFBody.id(body), at: t) ?? (.zero, .zero)
        return OrbitalState(seconds: seconds, positionKm: center.positionKm + m * fixed, velocityKmS: center.velocityKmS + (after - before) / (2 * h))
    }

    // Launch pads (geodetic WGS 84 coordinates as the ranges publish them; Wikipedia's pad
    // articles list the same to the arcsecond).
    /// Kennedy Space Center LC-39A: Apollo 8, 11, 13.
    public static let lc39A = SurfaceSite(body: .earth, latitudeDeg: 28.608_389, longitudeDeg: -80.604_333)
    /// Kennedy Space Center LC-39B: Artemis II.
    public static let lc39B = SurfaceSite(body: .earth, latitudeDeg: 28.627_222, longitudeDeg: -80.620_833)
    /// Cape Canaveral LC-41 (SLC-41): Voyager 1 and 2, Juno, New Horizons, OSIRIS-REx, Perseverance, MRO, MAVEN.
    public static let slc41 = SurfaceSite(body: .earth, latitudeDeg: 28.583_333, longitudeDeg: -80.583_056)
    /// Cape Canaveral SLC-40: Cassini.
    public static let slc40 = SurfaceSite(body: .earth, latitudeDeg: 28.562_106, longitudeDeg: -80.577_180)
    /// Cape Canaveral SLC-37B: Parker Solar Probe.
    public static let slc37B = SurfaceSite(body: .earth, latitudeDeg: 28.531_358, longitudeDeg: -80.566_200)
    /// Cape Canaveral SLC-17A: 2001 Mars Odyssey (Delta II).
    public static let slc17A = SurfaceSite(body: .earth, latitudeDeg: 28.446_667, longitudeDeg: -80.565_278)
    /// Guiana Space Centre ELA-3, Kourou: BepiColombo.
    public static let ela3 = SurfaceSite(body: .earth, latitudeDeg: 5.239_000, longitudeDeg: -52.768_500)
}

/// Ascent and other powered stretches that join two known motions: from `from` (the pad, or
/// a state before a burn) to `to` (the orbit, or the state after), over `[start, end]`. The
/// direction from the body's centre turns along a great circle and the distance changes
/// smoothly (smoothstep in time), so the path never cuts through the body; the velocity is the
/// path's own derivative.
public struct PoweredBlend {
    public let center: BodyID
    public let start: Double
    public let end: Double
    public let from: (Double) throws -> OrbitalState
    public let to: (Double) throws -> OrbitalState
    public let ephemeris: Ephemeris

    public init(center: BodyID, start: Double, end: Double, ephemeris: Ephemeris,
                from: @escaping (Double) throws -> OrbitalState, to: @escaping (Double) throws -> OrbitalState) {
        self.center = center
        self.start = start
        self.end = end
        self.ephemeris = ephemeris
        self.from = from
        self.to = to
    }

    /// Heliocentric state at `t` in [start, end]. At the ends it is the joined motion's own state:
    /// the blend's weight has no slope there, so its velocity tends to that motion's.
    public func state(at t: Double) throws -> OrbitalState {
        if t <= start { return try from(t) }
        if t >= end { return try to(t) }
        // Differences that stay inside the span: the paths joined may kink at its ends (a burn
        // is where one motion stops and the other starts).
        // Second order everywhere, one-sided at the ends (a first-order one-sided difference
        // is off by a·h/2 there: metres per second at an injection).
        let h = min(0.5, (end - start) / 1000)
        let p = try position(t)
        let v: Vector3
        if t - h < start {
            v = (try position(t + h) * 4 - p * 3 - position(t + 2 * h)) / (2 * h)
        } else if t + h > end {
            v = (p * 3 - (try position(t - h)) * 4 + (try position(t - 2 * h))) / (2 * h)
        } else {
            v = (try position(t + h) - position(t - h)) / (2 * h)
        }
        return OrbitalState(seconds: t, positionKm: p, velocityKmS: v)
    }

    func position(_ t: Double) throws -> Vector3 {
        let c = ephemeris.naifState(NAIFBody.id(center), at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        let sa = try from(t), sb = try to(t)
        let a = sa.positionKm - c.positionKm, b = sb.positionKm - c.positionKm
        let x = max(0, min(1, (t - start) / (end - start)))
        let w = x * x * (3 - 2 * x)
        let ra = a.length, rb = b.length
        // The turn runs in the plane of the faster-turning motion (the orbit rather than the pad
        // or the site), the way the vehicle flies: from behind the target, up to three-quarters
        // of a turn, so a launch from a pad half a world behind its parking orbit goes the long
        // way downrange instead of through a degenerate half-turn.
        let ha = a.cross(sa.velocityKmS - c.velocityKmS), hb = b.cross(sb.velocityKmS - c.velocityKmS)
        var n = (hb.length >= ha.length ? hb : ha).normalized
        if !n.isFinite || n.length < 0.5 { n = a.cross(b).normalized }
        guard n.isFinite, n.length > 0.5 else { return c.positionKm + a * (1 - w) + b * w }
        let e1 = (b - n * b.dot(n)).normalized, e2 = n.cross(e1)
        func angles(_ u: Vector3) -> (lon: Double, lat: Double) {
            let v = u.normalized
            return (atan2(v.dot(e2), v.dot(e1)), asin(max(-1, min(1, v.dot(n)))))
        }
        var (lonA, latA) = angles(a)
        let (lonB, latB) = angles(b)
        if lonA - lonB > .pi / 2 { lonA -= 2 * .pi }
        let lon = lonA + (lonB - lonA) * w, lat = latA + (latB - latA) * w
        let dir = (e1 * cos(lon) + e2 * sin(lon)) * cos(lat) + n * sin(lat)
        return c.positionKm + dir * (ra + (rb - ra) * w)
    }
}
