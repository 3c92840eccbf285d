/// Heliocentric position and velocity in the mean ecliptic and equinox of J2000.
public struct StateVector: Sendable, Hashable {
    public var positionAU: Vector3
    public var velocityAUPerDay: Vector3

    public init(positionAU: Vector3, velocityAUPerDay: Vector3) {
        self.positionAU = positionAU
        self.velocityAUPerDay = velocityAUPerDay
    }

    public static func - (a: StateVector, b: StateVector) -> StateVector {
        StateVector(positionAU: a.positionAU - b.positionAU, velocityAUPerDay: a.velocityAUPerDay - b.velocityAUPerDay)
    }
}

/// Where every body is and how it is turned at one instant, computed in one pass.
public struct Snapshot: Sendable {
    public let instant: Instant
    /// Heliocentric positions, AU, ecliptic J2000, indexed by `BodyID.index`.
    public let heliocentricAU: [Vector3]
    /// Position relative to the parent, km, ecliptic J2000 (zero for the Sun and the planets,
    /// whose parent is the Sun: use `heliocentricAU`), indexed by `BodyID.index`.
    public let parentRelativeKm: [Vector3]
    /// Body-fixed → ecliptic J2000 orientation, indexed by `BodyID.index`.
    public let orientations: [Orientation]

    public func heliocentric(_ id: BodyID) -> Vector3 { heliocentricAU[id.index] }
    public func relativeToParentKm(_ id: BodyID) -> Vector3 { parentRelativeKm[id.index] }
    public func orientation(_ id: BodyID) -> Orientation { orientations[id.index] }
}

/// The ephemeris engine: every theory behind one value, configured by the catalogue.
///
/// ```swift
/// let eph = Ephemeris(catalogue: try Catalogue(json: bytes))
/// let t = try TimeScale.parse("2026-11-22T00:00:00Z")
/// eph.state(.mars, at: t).positionAU
/// ```
public struct Ephemeris: Sendable {
    public let catalogue: Catalogue
    let iss: ISSOrbit
    let iauElements: [IAURotationElements?]

    public init(catalogue: Catalogue) {
        self.catalogue = catalogue
        guard let seed = catalogue[.iss].seedMeanOrbit else { preconditionFailure("catalogue validated: moons have seed orbits") }
        iss = ISSOrbit(seed: seed)
        iauElements = BodyID.allCases.map { id in
            if let e = catalogue[id].iauRotation { return e }
            return id == .pluto ? IAURotation.pluto : nil
        }
    }

    static let emratFactor = 1 / (1 + Constants.earthMoonMassRatio)

    // MARK: - States

    /// Heliocentric state of `body`.
    public func state(_ body: BodyID, at t: Instant) -> StateVector {
        let jd = t.jdTDB
        switch body {
        case .sun:
            return StateVector(positionAU: .zero, velocityAUPerDay: .zero)
        case .earth:
            let emb = planetState(.earth, jdTDB: jd)
            let moon = moonGeocentricAU(jdTDB: jd)
            return StateVector(positionAU: emb.positionAU - moon.positionAU * Self.emratFactor,
                               velocityAUPerDay: emb.velocityAUPerDay - moon.velocityAUPerDay * Self.emratFactor)
        case .mercury, .venus, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto:
            return planetState(body, jdTDB: jd)
        default:
            guard let parent = body.parent else { preconditionFailure("satellites have parents") }
            let p = state(parent, at: t)
            let r = parentRelativeState(body, at: t)
            return StateVector(positionAU: p.positionAU + r.positionKm / Constants.auKm,
                               velocityAUPerDay: p.velocityAUPerDay + r.velocityKmPerDay / Constants.auKm)
        }
    }

    /// State of `body` relative to `center` (both any body), AU and AU/day, ecliptic J2000.
    public func state(_ body: BodyID, relativeTo center: BodyID, at t: Instant) -> StateVector {
        if center == body { return StateVector(positionAU: .zero, velocityAUPerDay: .zero) }
        if center == .sun { return state(body, at: t) }
        if body.parent == center, body.isSatellite {
            let r = parentRelativeState(body, at: t)
            return StateVector(positionAU: r.positionKm / Constants.auKm, velocityAUPerDay: r.velocityKmPerDay / Constants.auKm)
        }
        return state(body, at: t) - state(center, at: t)
    }

    /// A satellite's state relative to its parent planet, km and km/day, ecliptic J2000.
    public func parentRelativeState(_ body: BodyID, at t: Instant) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        let jd = t.jdTDB
        switch body {
        case .moon:
            return (LunarTheory.geocentricPositionKm(jdTDB: jd), LunarTheory.geocentricVelocityKmPerDay(jdTDB: jd))
        case .iss:
            return iss.state(daysSinceJ2000: t.daysSinceJ2000TDB)
        case .phobos, .deimos:
            return (MartianMoons.planetocentricPositionKm(body, jdTDB: jd), MartianMoons.planetocentricVelocityKmPerDay(body, jdTDB: jd))
        case .io, .europa, .ganymede, .callisto:
            let p = GalileanMoons.planetocentricPositionsKm(jdTDB: jd)
            let v = GalileanMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
            return (p[body], v[body])
        case .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus:
            let p = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd)
            let v = SaturnianMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
            return (p[body], v[body])
        case .sun, .mercury, .venus, .earth, .mars, .jupiter, .saturn, .uranus, .neptune, .pluto:
            preconditionFailure("\(body) is not a satellite")
        }
    }

    /// Which theory serves the planets at a TDB Julian date.
    public enum PlanetTheory: String, Sendable {
        case vsop87 = "VSOP87A (truncated)"
        case standish = "Standish (1992) Keplerian elements"
    }

    /// VSOP87 serves 1000–3000 AD (|t| ≤ 1 Julian millennium from J2000), where the truncated
    /// series keep their arcsecond-level accuracy; Standish's tables serve the rest of −3000…3000.
    public static let vsop87Range = 2_086_302.5...2_816_787.5

    public static func planetTheory(jdTDB: Double) -> PlanetTheory {
        vsop87Range.contains(jdTDB) ? .vsop87 : .standish
    }

    /// Meeus's Pluto serves 1885–2099; Standish outside.
    public static func plutoUsesMeeus(jdTDB: Double) -> Bool { PlutoTheory.validRange.contains(jdTDB) }

    /// Heliocentric state of a planet (for `.earth`: the Earth–Moon barycentre) or Pluto.
    func planetState(_ body: BodyID, jdTDB: Double) -> StateVector {
        if body == .pluto, Self.plutoUsesMeeus(jdTDB: jdTDB) {
            let s = PlutoTheory.state(jdTDB: jdTDB)
            return StateVector(positionAU: s.positionAU, velocityAUPerDay: s.velocityAUPerDay)
        }
        if body != .pluto, Self.vsop87Range.contains(jdTDB), let planet = Self.vsopPlanet[body.index] {
            let s = VSOP87.state(planet, jdTDB: jdTDB)
            return StateVector(positionAU: s.positionAU, velocityAUPerDay: s.velocityAUPerDay)
        }
        guard let table1 = catalogue[body].standishElements else { preconditionFailure("catalogue validated: planets have elements") }
        let s = StandishPlanets.state(body, jdTDB: jdTDB, table1: table1)
        return StateVector(positionAU: s.positionAU, velocityAUPerDay: s.velocityAUPerDay)
    }

    /// Heliocentric position alone (for snapshots): the same theories as `planetState`.
    func planetPosition(_ body: BodyID, jdTDB: Double) -> Vector3 {
        if body == .pluto, Self.plutoUsesMeeus(jdTDB: jdTDB) { return PlutoTheory.position(jdTDB: jdTDB) }
        if body != .pluto, Self.vsop87Range.contains(jdTDB), let planet = Self.vsopPlanet[body.index] {
            return VSOP87.position(planet, jdTDB: jdTDB)
        }
        return planetState(body, jdTDB: jdTDB).positionAU
    }

    static let vsopPlanet: [VSOP87.Planet?] = BodyID.allCases.map { id in
        switch id {
        case .mercury: .mercury
        case .venus: .venus
        case .earth: .earthMoonBarycentre
        case .mars: .mars
        case .jupiter: .jupiter
        case .saturn: .saturn
        case .uranus: .uranus
        case .neptune: .neptune
        default: nil
        }
    }

    func moonGeocentricAU(jdTDB: Double) -> StateVector {
        StateVector(positionAU: LunarTheory.geocentricPositionKm(jdTDB: jdTDB) / Constants.auKm,
                    velocityAUPerDay: LunarTheory.geocentricVelocityKmPerDay(jdTDB: jdTDB) / Constants.auKm)
    }

    // MARK: - Orientation

    /// Which rotation model serves `body`.
    public func rotationModel(_ body: BodyID) -> RotationModelKind {
        iauElements[body.index] == nil ? .facesParent : .iau
    }

    /// How `body` is turned at `t`.
    public func orientation(_ body: BodyID, at t: Instant) -> Orientation {
        if let e = iauElements[body.index] {
            return IAURotation.orientation(body, elements: e, daysTDB: t.daysSinceJ2000TDB)
        }
        let r = parentRelativeState(body, at: t)
        return IAURotation.facingParent(relativePosition: r.positionKm, relativeVelocity: r.velocityKmPerDay)
    }

    // MARK: - Snapshot

    /// Seconds between the two satellite evaluations whose positions give the orbit normal for
    /// synchronous rotation (short against Phobos's 7.7 h period, long against rounding).
    static let orbitNormalStepDays = 60.0 / Constants.secondsPerDay

    /// Every body's heliocentric position, parent-relative position and orientation at `t`, each
    /// theory evaluated once (twice for synchronous satellites, whose orbit normal needs a second
    /// position).
    public func snapshot(at t: Instant) -> Snapshot {
        let jd = t.jdTDB
        let d = t.daysSinceJ2000TDB
        let h = Self.orbitNormalStepDays
        var helio = [Vector3](repeating: .zero, count: BodyID.count)
        var rel = [Vector3](repeating: .zero, count: BodyID.count)
        var earlier = [Vector3](repeating: .zero, count: BodyID.count)

        for body in BodyID.heliocentric where body != .earth {
            helio[body.index] = planetPosition(body, jdTDB: jd)
        }
        let moonKm = LunarTheory.geocentricPositionKm(jdTDB: jd)
        helio[BodyID.earth.index] = planetPosition(.earth, jdTDB: jd) - moonKm / Constants.auKm * Self.emratFactor
        rel[BodyID.moon.index] = moonKm

        let issNow = iss.state(daysSinceJ2000: d)
        rel[BodyID.iss.index] = issNow.positionKm

        for body in [BodyID.phobos, .deimos] {
            rel[body.index] = MartianMoons.planetocentricPositionKm(body, jdTDB: jd)
            earlier[body.index] = MartianMoons.planetocentricPositionKm(body, jdTDB: jd - h)
        }
        let galileanNow = GalileanMoons.planetocentricPositionsKm(jdTDB: jd)
        let galileanBefore = GalileanMoons.planetocentricPositionsKm(jdTDB: jd - h)
        for body in [BodyID.io, .europa, .ganymede, .callisto] {
            rel[body.index] = galileanNow[body]
            earlier[body.index] = galileanBefore[body]
        }
        let saturnianNow = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd)
        let saturnianBefore = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd - h)
        for body in [BodyID.mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus] {
            rel[body.index] = saturnianNow[body]
            earlier[body.index] = saturnianBefore[body]
        }
        for body in BodyID.allCases where body.isSatellite {
            guard let parent = body.parent else { continue }
            helio[body.index] = helio[parent.index] + rel[body.index] / Constants.auKm
        }

        var orientations = [Orientation]()
        orientations.reserveCapacity(BodyID.count)
        for body in BodyID.allCases {
            if let e = iauElements[body.index] {
                orientations.append(IAURotation.orientation(body, elements: e, daysTDB: d))
            } else if body == .iss {
                orientations.append(IAURotation.facingParent(relativePosition: issNow.positionKm, relativeVelocity: issNow.velocityKmPerDay))
            } else {
                // Backward difference: only the orbit plane matters, so its O(h) error is harmless.
                let r = rel[body.index]
                orientations.append(IAURotation.facingParent(relativePosition: r, relativeVelocity: r - earlier[body.index]))
            }
        }
        return Snapshot(instant: t, heliocentricAU: helio, parentRelativeKm: rel, orientations: orientations)
    }
}

extension Ephemeris {
    /// Heliocentric states of every body at `t` (AU, AU/day, ecliptic J2000), indexed by
    /// `BodyID.index`, each theory evaluated once for its whole group.
    public func allStates(at t: Instant) -> [StateVector] {
        let jd = t.jdTDB
        var out = [StateVector](repeating: StateVector(positionAU: .zero, velocityAUPerDay: .zero), count: BodyID.count)
        for body in BodyID.heliocentric where body != .earth {
            out[body.index] = planetState(body, jdTDB: jd)
        }
        let moon = moonGeocentricAU(jdTDB: jd)
        let emb = planetState(.earth, jdTDB: jd)
        let earth = StateVector(positionAU: emb.positionAU - moon.positionAU * Self.emratFactor,
                                velocityAUPerDay: emb.velocityAUPerDay - moon.velocityAUPerDay * Self.emratFactor)
        out[BodyID.earth.index] = earth
        func place(_ body: BodyID, km p: Vector3, kmPerDay v: Vector3) {
            guard let parent = body.parent else { return }
            let ps = out[parent.index]
            out[body.index] = StateVector(positionAU: ps.positionAU + p / Constants.auKm, velocityAUPerDay: ps.velocityAUPerDay + v / Constants.auKm)
        }
        out[BodyID.moon.index] = StateVector(positionAU: earth.positionAU + moon.positionAU, velocityAUPerDay: earth.velocityAUPerDay + moon.velocityAUPerDay)
        let issState = iss.state(daysSinceJ2000: t.daysSinceJ2000TDB)
        place(.iss, km: issState.positionKm, kmPerDay: issState.velocityKmPerDay)
        for body in [BodyID.phobos, .deimos] {
            place(body, km: MartianMoons.planetocentricPositionKm(body, jdTDB: jd), kmPerDay: MartianMoons.planetocentricVelocityKmPerDay(body, jdTDB: jd))
        }
        let gp = GalileanMoons.planetocentricPositionsKm(jdTDB: jd), gv = GalileanMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
        for body in [BodyID.io, .europa, .ganymede, .callisto] { place(body, km: gp[body], kmPerDay: gv[body]) }
        let sp = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd), sv = SaturnianMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
        for body in [BodyID.mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus] { place(body, km: sp[body], kmPerDay: sv[body]) }
        return out
    }

    /// The theory behind `body`, its tested accuracy and its range.
    public func modelInfo(_ body: BodyID) -> EphemerisModelInfo {
        let rotation = rotationModel(body)
        let vsop = "VSOP87A (Bretagnon & Francou 1988), truncated, in 1000-3000 AD; Standish (1992) Keplerian elements outside"
        let planetRange = "years -3000..3000 (VSOP87A in 1000-3000, Standish tables 2a/2b outside)"
        func planet(_ measured: String, bound: Int) -> EphemerisModelInfo {
            EphemerisModelInfo(theory: vsop, accuracy: "direction within \(bound) arcsec of JPL DE440 (measured \(measured) max over 48 cases 1950-2096)", validity: planetRange, rotation: rotation)
        }
        switch body {
        case .sun:
            return EphemerisModelInfo(theory: "origin of the heliocentric frame", accuracy: "exact (by definition)", validity: "years -3000..3000", rotation: rotation)
        case .mercury: return planet("9.4 arcsec", bound: 30)
        case .venus: return planet("6.5 arcsec", bound: 30)
        case .earth:
            return EphemerisModelInfo(theory: vsop + "; the Earth-Moon barycentre minus Moon/(1 + 81.30056907)", accuracy: "direction within 30 arcsec of JPL DE440 (measured 5 arcsec max over 48 cases 1950-2096)", validity: planetRange, rotation: rotation)
        case .mars: return planet("10.4 arcsec", bound: 100)
        case .jupiter: return planet("16 arcsec", bound: 800)
        case .saturn: return planet("34 arcsec", bound: 800)
        case .uranus: return planet("27 arcsec", bound: 150)
        case .neptune: return planet("13 arcsec", bound: 80)
        case .pluto:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 37 (43-term fit to DE) in 1885-2099; Standish (1992) outside", accuracy: "direction within 80 arcsec of JPL DE440 (measured 2.9 arcsec max over 48 cases 1950-2096)", validity: "years -3000..3000 (Meeus 1885-2099, Standish outside)", rotation: rotation)
        case .moon:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 47 (truncated ELP-2000/82), precessed to J2000", accuracy: "geocentric direction within 30 arcsec and distance within 50 km of JPL DE440 (tested 1950-2096)", validity: "years -3000..3000 (best within a few centuries of 2000)", rotation: rotation)
        case .iss:
            return EphemerisModelInfo(theory: "the seed app's circular orbit: 408 km altitude, 51.6 deg inclination, 92.7 min period, node fixed at RA 0", accuracy: "illustrative only: not a real-time ISS ephemeris (no TLE)", validity: "any date", rotation: rotation)
        case .phobos, .deimos:
            return EphemerisModelInfo(theory: "JPL planetary satellite mean elements (Laplace plane, precessing node and periapsis)", accuracy: "within 5% of the orbit radius of PyEphem (tested 1995-2040)", validity: "best within a few decades of 2000", rotation: rotation)
        case .io, .europa, .ganymede, .callisto:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 44 (Lieske E5 series), geometric", accuracy: "within 3% of the orbit radius of PyEphem (tested 1950-2096)", validity: "years -3000..3000 (best within a few centuries of 2000)", rotation: rotation)
        case .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus:
            return EphemerisModelInfo(theory: "Meeus, Astronomical Algorithms ch. 46 (Harper & Taylor 1993), geometric", accuracy: "within 3% of the orbit radius of PyEphem (tested 1999-2040)", validity: "years -3000..3000 (best within a few centuries of 2000)", rotation: rotation)
        }
    }

    /// The theories serving every instant in `[first, last]` (TDB Julian dates): one summary when
    /// the same theories serve the whole span, else each distinct one in time order, " / "-joined.
    public static func modelSummary(fromJDTDB first: Double, toJDTDB last: Double) -> String {
        let lo = min(first, last), hi = max(first, last)
        let edges = [vsop87Range.lowerBound, vsop87Range.upperBound, PlutoTheory.validRange.lowerBound, PlutoTheory.validRange.upperBound]
        let probes = ([lo] + edges.filter { $0 > lo && $0 <= hi } + [hi]).sorted()
        var seen: [String] = []
        for jd in probes {
            let s = modelSummary(jdTDB: jd)
            if seen.last != s { seen.append(s) }
        }
        return seen.joined(separator: " / ")
    }

    /// One line naming every theory serving an answer at `jdTDB`.
    public static func modelSummary(jdTDB: Double) -> String {
        let planets = planetTheory(jdTDB: jdTDB) == .vsop87 ? "VSOP87A planets (truncated)" : "Standish (1992) planets"
        let pluto = plutoUsesMeeus(jdTDB: jdTDB) ? "Meeus ch. 37 Pluto" : "Standish (1992) Pluto"
        return "\(planets); \(pluto); Meeus ch. 47 Moon (ELP-2000/82); Meeus ch. 44 Galilean moons (Lieske E5); Meeus ch. 46 Saturnian moons (Harper & Taylor); JPL mean elements for Phobos and Deimos; IAU WGCCRE 2015 rotation"
    }
}

extension Ephemeris {
    /// The IAU polynomial elements serving `body` (catalogue, or Pluto's from the report), nil for
    /// synchronous satellites.
    public func iauElements(_ body: BodyID) -> IAURotationElements? { iauElements[body.index] }
}
