import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// An Apollo mission built from its published events, as flight dynamics would fly it with
/// today's tools: every coast an integration under the Earth's gravity (J2–J4) with the Moon and
/// the Sun pulling (the Moon's with J2 and the Earth pulling in lunar orbit), every burn aimed
/// by differential correction at the next published event — trans-lunar injection by B-plane
/// targeting at the published closest approach (radius, time, plane), trans-Earth injection at an entry
/// interface placed so the entry flown through the atmosphere comes down at the published
/// splashdown. Burns are finite: the path eases from the coast before to the coast after over
/// the published burn times (a powered phase).
///
/// Geocentric ecliptic J2000 internally; the pieces are heliocentric.
public struct LunarRecipe: MissionRecipe {
    public enum Objective: Sendable {
        /// Lunar orbit between the phases named `lunar orbit insertion` and `trans-Earth
        /// injection`, circular at the event `loi`'s altitude; a lander may descend from it.
        case orbit(inclinationDeg: Double)
        /// A free-return flyby with its closest approach at event `lunar-ca` (altitude from its
        /// fact), then a burn phase named `returnBurn` aimed at the entry interface.
        case flyby(returnBurn: String)
    }

    /// A lander that separates in lunar orbit, lands, lifts off and docks again.
    public struct Lander: Sendable {
        public let vehicleID: String
        public let site: SurfaceSite
        /// Perilune altitude of the descent orbit, km.
        public let descentPeriluneKm: Double
        /// Phase names of the lander's descent-orbit burn.
        public let doiPhase: String
    }

    public let missionID: String
    public let vehicleID: String
    public let pad: SurfaceSite
    public let objective: Objective
    public let lander: Lander?
    public let splashdown: SurfaceSite
    public var parkingAltitudeKm = 185.0
    public var entry = EntryModel.apolloCommandModule

    public init(missionID: String, vehicleID: String, pad: SurfaceSite, objective: Objective, lander: Lander?, splashdown: SurfaceSite) {
        self.missionID = missionID
        self.vehicleID = vehicleID
        self.pad = pad
        self.objective = objective
        self.lander = lander
        self.splashdown = splashdown
    }

    public var sources: [String] { ["Resources/missions.json (event times, altitudes, splashdown)"] }

    // MARK: - Geometry helpers

    struct Frames {
        let ephemeris: Ephemeris
        func earth(_ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
            ephemeris.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
        }
        /// The Moon from the Earth.
        func moon(_ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
            let s = ephemeris.parentRelativeState(.moon, at: TimeScale.instant(tdbSecondsPastJ2000: t))
            return (s.positionKm, s.velocityKmPerDay / Constants.secondsPerDay)
        }
        func helio(_ geo: OrbitalState) -> OrbitalState {
            let e = earth(geo.seconds)
            return OrbitalState(seconds: geo.seconds, positionKm: geo.positionKm + e.positionKm, velocityKmS: geo.velocityKmS + e.velocityKmS)
        }
        func geo(_ helio: OrbitalState) -> OrbitalState {
            let e = earth(helio.seconds)
            return OrbitalState(seconds: helio.seconds, positionKm: helio.positionKm - e.positionKm, velocityKmS: helio.velocityKmS - e.velocityKmS)
        }
        func moonPole(_ t: Double) -> Vector3 {
            ephemeris.orientation(.moon, at: TimeScale.instant(tdbSecondsPastJ2000: t)).bodyToEcliptic * Vector3(0, 0, 1)
        }
        func siteDirection(_ site: SurfaceSite, _ t: Double) -> Vector3 {
            let r = ephemeris.catalogue[site.body].radiusKm
            return (ephemeris.orientation(site.body, at: TimeScale.instant(tdbSecondsPastJ2000: t)).bodyToEcliptic * site.bodyFixedKm(radiusKm: r)).normalized
        }
    }

    /// An arc about the Earth or the Moon, geocentric states out.
    struct Arc {
        let arc: PropagatedArc
        let aboutMoon: Bool
        let frames: Frames
        func state(_ t: Double) throws -> OrbitalState {
            let s = try arc.state(at: t)
            guard aboutMoon else { return s }
            let m = frames.moon(t)
            return OrbitalState(seconds: t, positionKm: s.positionKm + m.positionKm, velocityKmS: s.velocityKmS + m.velocityKmS)
        }
    }

    // MARK: - Constants

    /// Apollo's entry interface, 400,000 ft above the equatorial radius.
    static let entryInterfaceAltitudeKm = 121.9
    static let entryInterfaceRadiusKm = Constants.earthEquatorialRadiusKm + entryInterfaceAltitudeKm
    /// The sphere the landing notes measure the splashdown miss on (a mean Earth radius).
    static let earthMeanRadiusKm = 6_371.0

    // MARK: - Building

    /// The stages in the order flight dynamics would fly them: parking orbit and trans-lunar
    /// injection (``Solver/outbound()``), the lunar orbit's phasing (``Solver/lunarOrbit(after:departure:)``),
    /// the return aimed at the entry corridor (``ReturnAiming``), the entry, and the lander.
    public func paths(_ c: BuildContext) throws -> [VehiclePath] {
        let solver = try Solver(self, c)
        let outbound = try solver.outbound()
        var notes = outbound.notes
        var lunarOrbit: LunarOrbit?
        if case .orbit = objective, let departure = solver.departure {
            let phased = try solver.lunarOrbit(after: outbound.injection.ca, departure: departure)
            lunarOrbit = phased.orbit
            notes.append(phased.note)
        }
        var pieces = PieceList(frames: solver.frames, center: 399)
        try solver.addLaunch(to: &pieces, outbound)
        switch objective {
        case .orbit:
            guard let lunarOrbit else { throw RecipeError(description: "no lunar orbit") }
            return try solver.orbitPaths(pieces: pieces, notes: notes, outbound: outbound, lunarOrbit: lunarOrbit)
        case let .flyby(returnBurn):
            return [try solver.flybyPath(pieces: pieces, notes: notes, outbound: outbound, returnBurn: returnBurn)]
        }
    }

    /// The lowest point of the two-body orbit through `r` with velocity `v` (its periapsis
    /// radius; for an open orbit, too).
    static func periapsisRadius(r: Vector3, v: Vector3, mu: Double) -> Double {
        let h = r.cross(v)
        let e = (v.cross(h) / mu - r.normalized).length
        return h.lengthSquared / mu / (1 + e)
    }

    /// The velocity at `r` (relative to a body of `mu`) of the two-body hyperbola that leaves
    /// along `asymptote` (its v∞ vector): in the plane of `r` and the asymptote, with the
    /// eccentricity that puts `r` at the true anomaly the asymptote's direction leaves for it.
    /// Nil when the asymptote points along `r`.
    static func hyperbolaVelocity(at r: Vector3, asymptote: Vector3, mu: Double) -> Vector3? {
        let vInf = asymptote.length, s = asymptote.normalized, rn = r.length
        let hDir = r.cross(s)
        guard hDir.length > 1e-9, vInf > 0 else { return nil }
        let h = hDir.normalized, rHat = r / rn
        let theta = atan2(rHat.cross(s).length, rHat.dot(s)) // from r to the asymptote, about h
        let a = mu / (vInf * vInf)
        func radius(_ e: Double) -> Double? {
            let nu = acos(-1 / e) - theta
            let d = 1 + e * cos(nu)
            return d > 0 ? a * (e * e - 1) / d : nil
        }
        // r(e) rises from 0 (e → 1) without bound: bisect for |r|.
        var hi = 2.0
        while (radius(hi) ?? .infinity) < rn { hi *= 2; if hi > 1e9 { return nil } }
        let bracket = Search.bisect(1 + 1e-12, hi, iterations: 200) { mid in
            if let rm = radius(mid), rm < rn { .above } else { .below }
        }
        let e = (bracket.lo + bracket.hi) / 2, nu = acos(-1 / e) - theta
        let p = a * (e * e - 1), hMag = (mu * p).squareRoot()
        let vr = mu / hMag * e * sin(nu), vt = mu / hMag * (1 + e * cos(nu))
        return rHat * vr + h.cross(rHat) * vt
    }

    static func rotate(_ v: Vector3, about axis: Vector3, by angle: Double) -> Vector3 {
        let k = axis.normalized
        return v * cos(angle) + k.cross(v) * sin(angle) + k * (k.dot(v) * (1 - cos(angle)))
    }

    static func kms(_ v: Double) -> String { "\((v * 1000).rounded() / 1000) km/s" }

    static func describe(_ v: Vector3) -> String {
        "(\((v.x * 1000).rounded() / 1000), \((v.y * 1000).rounded() / 1000), \((v.z * 1000).rounded() / 1000))"
    }

    /// Where the modelled entry came down against the published splashdown, both on the Earth
    /// as it really turned (`terrestrial`: UT1 and the IERS pole, as the site is placed):
    /// geodetic latitude and longitude on WGS 84, and the distance between the two points.
    func landing(_ f: EntryModel.Flight, terrestrial: TerrestrialFrame) -> String {
        guard let last = f.states.last else { return "did not come down" }
        let fixed = terrestrial.itrsToEcliptic(atSeconds: last.seconds).transposed * last.positionKm
        let site = splashdown.bodyFixedKm(radiusKm: Constants.earthEquatorialRadiusKm)
        let d = acos(min(1, fixed.normalized.dot(site.normalized))) * Self.earthMeanRadiusKm
        // On the ellipsoid the geodetic latitude is the geocentric one's tangent over (1 − f)².
        let q = 1 - Constants.earthFlattening
        let lat = atan2(fixed.z, q * q * (fixed.x * fixed.x + fixed.y * fixed.y).squareRoot()) * 180 / .pi
        let lon = atan2(fixed.y, fixed.x) * 180 / .pi
        return "comes down at \((lat * 1000).rounded() / 1000)°, \((lon * 1000).rounded() / 1000)°, \((d * 10).rounded() / 10) km from the published \(splashdown.latitudeDeg)°, \(splashdown.longitudeDeg)°"
    }
}
