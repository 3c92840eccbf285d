import Glibc
import Ephemeris

/// Where the scene draws a body the catalogue does not hold — a spacecraft — from where it
/// really is, so that it sits where the scene draws its surroundings: on the drawn Moon when it
/// has landed there, between the drawn Jupiter and the drawn Io when it passes between them.
///
/// The scene is not one scale. The Sun's system is log-scaled (`15·ln(1 + r/0.5 AU)`), bodies
/// get √-scaled radii and moons sit at `s·(a/R)^0.6·1.5` from their drawn planet. A spacecraft
/// is placed by the same hierarchy:
/// - near a body B (inside its *zone*: the Hill sphere of a planet, or of a moon about its
///   planet), at `scene(B) + f_B(d)` along its true direction from B, where d is its true
///   distance and `f_B(d) = s_B·(1.5·(d/R_B)^0.6 − 0.5)`: the scene's moon formula, shifted so a
///   vehicle on the surface (d = R_B) is drawn on the drawn surface (s_B, B's scene radius).
///   Beyond the body's own moons (1.25 × the outermost one's semi-major axis, or 10 radii for
///   a body without moons in the catalogue) `f_B` grows logarithmically, continuing its slope,
///   so Juno's 8-million-km apojoves are not drawn further out than the planets beside Jupiter.
/// - far from every body, at its heliocentric log-scaled position, as a planet would be.
/// - between the two the two places are blended with a smoothstep weight, so the drawn path
///   is continuous: about a planet in ln d from 0.2 to two zone radii (a flyby then bends
///   gently out to the magnified frame and back, not in a spike), about a moon in d from one
///   to two; only the scaling exaggerates where it is.
///
/// ```swift
/// let placement = ScenePlacement(layout: layout)
/// placement.scenePosition(heliocentricKm: voyager, at: t, ephemeris: eph)   // near the drawn Neptune
/// ```
public struct ScenePlacement: Sendable {
    /// A body that has a zone, with what its mapping needs.
    struct Zone: Sendable {
        let body: BodyID
        let radiusKm: Double
        let sceneRadius: Double
        /// Where `f` stops following the moon formula and turns logarithmic, km.
        let formulaLimitKm: Double
        /// The zone radius (Hill sphere), km; the blend runs to twice it.
        let zoneKm: Double
        /// Heliocentric distances (AU) a point must be within to be near this planet: its
        /// perihelion and aphelion widened by two zone radii (planets only).
        let heliocentricRangeAU: ClosedRange<Double>
        /// Indices into `zones` of its moons.
        var moons: [Int]
    }

    let layout: SceneLayout
    let zones: [Zone]
    /// Indices into `zones` of the planets (the Sun's children).
    let planets: [Int]

    public init(layout: SceneLayout) {
        self.layout = layout
        let catalogue = layout.catalogue
        var zones: [Zone] = []
        var planets: [Int] = []
        for planet in BodyID.heliocentric {
            let entry = catalogue[planet]
            let r = entry.radiusKm
            let moonIDs = BodyID.allCases.filter { $0.parent == planet && $0 != .iss }
            let outermost = moonIDs.compactMap { catalogue[$0].seedMeanOrbit?.semiMajorAxisKm }.max()
            let elements = entry.standishElements
            let a = elements?.semiMajorAxisAU.value ?? 1
            let e = elements?.eccentricity.value ?? 0
            let hill = a * Constants.auKm * cbrt(GravityConstants.gm(planet) / (3 * GravityConstants.sunGM))
            let limit = min(outermost.map { 1.25 * $0 } ?? 10 * r, hill / 2)
            let margin = 2 * hill / Constants.auKm
            planets.append(zones.count)
            zones.append(Zone(body: planet, radiusKm: r, sceneRadius: layout.radii[planet.index], formulaLimitKm: limit, zoneKm: hill,
                              heliocentricRangeAU: max(0, a * (1 - e) - margin)...(a * (1 + e) + margin), moons: []))
            let planetIndex = zones.count - 1
            for m in moonIDs {
                let mr = catalogue[m].radiusKm
                let sma = catalogue[m].seedMeanOrbit?.semiMajorAxisKm ?? 0
                let hillMoon = sma * cbrt(GravityConstants.gm(m) / (3 * GravityConstants.gm(planet)))
                guard hillMoon > mr else { continue }
                zones[planetIndex].moons.append(zones.count)
                zones.append(Zone(body: m, radiusKm: mr, sceneRadius: layout.radii[m.index], formulaLimitKm: min(10 * mr, hillMoon / 2),
                                  zoneKm: hillMoon, heliocentricRangeAU: 0...0, moons: []))
            }
        }
        self.zones = zones
        self.planets = planets
    }

    /// The scene distance of a point `d` km from a zone's body (see the type's description).
    static func mappedDistance(_ d: Double, _ z: Zone) -> Double {
        let s = z.sceneRadius, r = z.radiusKm
        guard d > r else { return s * max(d, 0) / r }
        let limit = max(z.formulaLimitKm, r)
        if d <= limit { return s * (1.5 * pow(d / r, 0.6) - 0.5) }
        let atLimit = s * (1.5 * pow(limit / r, 0.6) - 0.5)
        let slope = s * 0.9 * pow(limit / r, 0.6) // d·f′(d) at the limit
        return atLimit + slope * log(d / limit)
    }

    /// Where the blend about a planet starts, in zone radii: beyond the orbits flown about a
    /// planet (Juno's apojoves, 0.15; Cassini's, 0.1; the Mars orbiters', 0.001), which are
    /// drawn in the planet's frame as its moons are.
    static let blendStart = 0.2

    /// About a planet the blend runs in ln d, from ``blendStart`` zone radii to two: the
    /// magnified local frame reaches far beyond where the log-scaled heliocentric frame puts
    /// the zone's edge, and a blend over [zone, 2·zone] drew each flyby as a spike out to it and
    /// back (Voyager 2's four encounters).
    static func planetWeight(_ d: Double, zone z: Zone) -> Double {
        let a = log(Self.blendStart * z.zoneKm), b = log(2 * z.zoneKm)
        let x = max(0, min(1, (log(max(d, 1)) - a) / (b - a)))
        return x * x * (3 - 2 * x)
    }

    static func weight(_ d: Double, zone: Double) -> Double {
        let x = max(0, min(1, (d - zone) / zone))
        return x * x * (3 - 2 * x)
    }

    /// The planet whose zone (or blend) holds the point, with its heliocentric position (km).
    func nearPlanet(_ p: Vector3, at t: Instant, ephemeris: Ephemeris, planetsAU: [Vector3]?) -> (zone: Zone, positionKm: Vector3)? {
        let rAU = p.length / Constants.auKm
        var best: (zone: Zone, positionKm: Vector3, ratio: Double)?
        for i in planets where zones[i].heliocentricRangeAU.contains(rAU) {
            let z = zones[i]
            let q = (planetsAU?[z.body.index] ?? ephemeris.heliocentricPositionAU(z.body, at: t)) * Constants.auKm
            let ratio = (p - q).length / z.zoneKm
            if ratio < 2, ratio < (best?.ratio ?? .infinity) { best = (z, q, ratio) }
        }
        return best.map { ($0.zone, $0.positionKm) }
    }

    /// Where the scene draws a point at heliocentric ecliptic J2000 position `p` (km) at `t`.
    /// `planetsAU` (``Ephemeris/planetPositionsAU(at:)`` at `t`) saves looking the planets up
    /// again when the caller has them.
    public func scenePosition(heliocentricKm p: Vector3, at t: Instant, ephemeris: Ephemeris, planetsAU: [Vector3]? = nil) -> Vector3 {
        let helio = SceneLayout.scenePosition(heliocentricAU: p / Constants.auKm)
        guard let (zone, q) = nearPlanet(p, at: t, ephemeris: ephemeris, planetsAU: planetsAU) else { return helio }
        let w = Self.planetWeight((p - q).length, zone: zone)
        let planetScene = SceneLayout.scenePosition(heliocentricAU: q / Constants.auKm)
        let local = planetScene + localOffset(p - q, zone: zone, at: t, ephemeris: ephemeris)
        return w == 0 ? local : local * (1 - w) + helio * w
    }

    /// Scene offset from a planet's drawn position of a point `v` km from the planet (its
    /// moons' zones included): what geocentric missions draw around the Earth.
    public func sceneOffset(from planet: BodyID, relativeKm v: Vector3, at t: Instant, ephemeris: Ephemeris) -> Vector3 {
        guard let zone = zones.first(where: { $0.body == planet }) else { return .zero }
        return localOffset(v, zone: zone, at: t, ephemeris: ephemeris)
    }

    func localOffset(_ v: Vector3, zone: Zone, at t: Instant, ephemeris: Ephemeris) -> Vector3 {
        let d = v.length
        let own = d > 0 ? SceneAxes.scene(fromEcliptic: v * (Self.mappedDistance(d, zone) / d)) : .zero
        // Only moons whose orbit's band (mean distance ± e·a, 5 % of a for the theories, and twice
        // the moon's zone) holds the point can be near it: the moons' theory runs only then.
        let near = zone.moons.filter { i in
            guard let o = ephemeris.catalogue[zones[i].body].seedMeanOrbit else { return true }
            return abs(d - o.semiMajorAxisKm) <= o.semiMajorAxisKm * (o.eccentricity + 0.05) + 2 * zones[i].zoneKm
        }
        guard !near.isEmpty else { return own }
        let moons = ephemeris.satellitePositionsKm(of: zone.body, at: t)
        for i in near {
            let m = zones[i]
            guard let r = moons.first(where: { $0.body == m.body })?.km else { continue }
            let dm = (v - r).length
            guard dm < 2 * m.zoneKm else { continue }
            let w = Self.weight(dm, zone: m.zoneKm)
            let moonScene = layout.moonOffset(m.body, relativeKm: r)
            let near = moonScene + (dm > 0 ? SceneAxes.scene(fromEcliptic: (v - r) * (Self.mappedDistance(dm, m) / dm)) : .zero)
            return w == 0 ? near : near * (1 - w) + own * w
        }
        return own
    }
}
