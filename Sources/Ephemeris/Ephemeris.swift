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

/// The ephemeris engine: every theory behind one value, configured by the catalogue and,
/// optionally, a JPL DE kernel that serves the Sun, the planets, Pluto, the Earth and the Moon
/// inside its span (the analytical theories serve outside it, and the moons always).
///
/// ```swift
/// let eph = Ephemeris(catalogue: try Catalogue(json: bytes), kernel: de440)
/// let t = try TimeScale.parse("2026-11-22T00:00:00Z")
/// eph.state(.mars, at: t).positionAU
/// eph.theory(.mars, at: t).name   // "DE440"
/// ```
public struct Ephemeris: Sendable {
    public let catalogue: Catalogue
    /// The DE kernel, nil when only the analytical theories serve.
    public let kernel: PlanetaryKernel?
    let iss: ISSOrbit
    /// SGP4 for the ISS when element sets are loaded (the catalogue's circular orbit, ``ISSOrbit``, where it gives nothing).
    let issSource: (any GeocentricStateSource)?
    let iauElements: [IAURotationElements?]
    /// Per `BodyID.index`: the theories serving the body, by priority and as time spans.
    let theoryLayers: [[TheoryLayer]]
    let theorySpans: [[TheorySpan]]
    /// Moons from loaded SPK kernels, which win over the theories where they cover (nil: none).
    public let satelliteKernels: SatelliteKernels?
    /// Moons moved near published close flybys where no kernel covers them.
    public let moonAnchors: [MoonAnchor]
    /// Whether kernels or anchors may move a moon off its theory (the fast paths skip the check).
    let adjustsMoons: Bool

    /// `satellites`: the loaded SPK kernels (mission kernels and `--kernel` files), whose
    /// segments for the moons win over the theories (``SatelliteKernels``). `moonAnchors`: moons
    /// moved near published flybys (``MoonAnchor``), ignored where a kernel covers the moon.
    public init(catalogue: Catalogue, kernel: PlanetaryKernel? = nil, issSource: (any GeocentricStateSource)? = nil,
                satellites: KernelBodies? = nil, moonAnchors: [MoonAnchor] = []) {
        self.catalogue = catalogue
        self.kernel = kernel
        self.issSource = issSource
        let kernels = satellites.flatMap(SatelliteKernels.init)
        satelliteKernels = kernels
        self.moonAnchors = moonAnchors.filter { !(kernels?.covers($0.body, seconds: $0.epochSeconds) ?? false) }
        adjustsMoons = kernels != nil || !self.moonAnchors.isEmpty
        guard let seed = catalogue[.iss].seedMeanOrbit else { preconditionFailure("catalogue validated: moons have seed orbits") }
        iss = ISSOrbit(seed: seed)
        iauElements = BodyID.allCases.map { id in
            if let e = catalogue[id].iauRotation { return e }
            return id == .pluto ? IAURotation.pluto : nil
        }
        let anchors = self.moonAnchors
        theoryLayers = BodyID.allCases.map {
            Self.layers($0, kernel: kernel, issFromElementSets: issSource != nil, satellites: kernels, anchors: anchors)
        }
        theorySpans = theoryLayers.map(Self.spans)
    }

    /// Whether the ISS comes from element sets (SGP4) rather than the catalogue's circular orbit alone.
    public var issFromElementSets: Bool { issSource != nil }

    /// The ISS relative to the Earth (km, km/day, ecliptic J2000): SGP4 when an element set
    /// serves `t`, the catalogue's circular orbit otherwise.
    @inline(__always) func issState(at t: Instant) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        issSource?.geocentricEclipticState(at: t) ?? iss.state(daysSinceJ2000: t.daysSinceJ2000TDB)
    }

    /// TDB seconds past J2000 when the kernel serves `t`, else nil.
    @inline(__always) func kernelSeconds(_ t: Instant) -> Double? {
        kernelSeconds(jdTDB: t.jdTDB, daysSinceJ2000TDB: t.daysSinceJ2000TDB)
    }

    /// The same from the instant's TDB already computed: the decision by the Julian date (as
    /// `theory` makes it), the argument from the days (resolution ~0.1 µs, where a Julian-date
    /// double holds ~40 µs).
    @inline(__always) func kernelSeconds(jdTDB: Double, daysSinceJ2000TDB days: Double) -> Double? {
        guard let k = kernel, k.spanJDTDB.contains(jdTDB) else { return nil }
        return days * Constants.secondsPerDay
    }

    static let emratFactor = 1 / (1 + Constants.earthMoonMassRatio)

    // MARK: - States

    /// Heliocentric state of `body`.
    public func state(_ body: BodyID, at t: Instant) -> StateVector {
        if let k = kernel, let seconds = kernelSeconds(t), !body.isSatellite {
            return k.heliocentricState(body, secondsPastJ2000: seconds)
        }
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
            // The theories give a moon from its planet's centre, which for Jupiter and Saturn is
            // up to 200 and 290 km from the system barycentre the engine places as the planet.
            let c = barycenterToCenter(parent, at: t)
            return StateVector(positionAU: p.positionAU + (r.positionKm + c.positionKm) / Constants.auKm,
                               velocityAUPerDay: p.velocityAUPerDay + (r.velocityKmPerDay + c.velocityKmS * Constants.secondsPerDay) / Constants.auKm)
        }
    }

    /// State of `body` relative to `center` (both any body), AU and AU/day, ecliptic J2000.
    public func state(_ body: BodyID, relativeTo center: BodyID, at t: Instant) -> StateVector {
        if center == body { return StateVector(positionAU: .zero, velocityAUPerDay: .zero) }
        if center == .sun { return state(body, at: t) }
        if body.parent == center, body.isSatellite, center != .jupiter, center != .saturn {
            let r = parentRelativeState(body, at: t)
            return StateVector(positionAU: r.positionKm / Constants.auKm, velocityAUPerDay: r.velocityKmPerDay / Constants.auKm)
        }
        return state(body, at: t) - state(center, at: t)
    }

    /// A satellite's state relative to its parent planet's centre, km and km/day, ecliptic
    /// J2000: a loaded kernel's where one covers the moon, else its theory's (moved by an anchor
    /// near a published flyby).
    public func parentRelativeState(_ body: BodyID, at t: Instant) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        let theory = theoryParentRelativeState(body, at: t)
        guard adjustsMoons, body != .moon, body != .iss else { return theory }
        return adjustedMoon(body, theory, seconds: t.daysSinceJ2000TDB * Constants.secondsPerDay)
    }

    /// What the theory alone gives for a satellite (the Moon from the DE kernel in its span).
    func theoryParentRelativeState(_ body: BodyID, at t: Instant) -> (positionKm: Vector3, velocityKmPerDay: Vector3) {
        let jd = t.jdTDB
        switch body {
        case .moon:
            if let k = kernel, let seconds = kernelSeconds(t) { return k.moonGeocentricState(secondsPastJ2000: seconds) }
            return (LunarTheory.geocentricPositionKm(jdTDB: jd), LunarTheory.geocentricVelocityKmPerDay(jdTDB: jd))
        case .iss:
            return issState(at: t)
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

    /// Without a kernel (or outside its span) VSOP87 serves 1000–3000 AD (|t| ≤ 1 Julian
    /// millennium from J2000): within 34″ of DE440 over 1950–2096 as measured, degrading away from
    /// J2000 to arcminutes towards 1000 and 3000 (the truncation; see `VSOP87`). Standish's tables
    /// serve the rest of −3000…3000, good to arcminutes.
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
        case .earth: .earthMoonBarycenter
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
    /// The orientation of a body with an IAU rotation model at TDB days since J2000 (no
    /// ``Instant`` to build: what a body-fixed kernel segment's rate asks at ±10 s); nil for the
    /// bodies whose orientation follows their orbit.
    func iauOrientation(_ body: BodyID, daysSinceJ2000TDB days: Double) -> Orientation? {
        iauElements[body.index].map { IAURotation.orientation(body, elements: $0, daysTDB: days) }
    }

    public func orientation(_ body: BodyID, at t: Instant) -> Orientation {
        if let e = iauElements[body.index] {
            return IAURotation.orientation(body, elements: e, daysTDB: t.daysSinceJ2000TDB)
        }
        let jd = t.jdTDB
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        if adjustsMoons, body != .iss, body != .moon, kernelPlaces(body, seconds: seconds) {
            let r = parentRelativeState(body, at: t)
            return IAURotation.facingParent(relativePosition: r.positionKm, relativeVelocity: r.velocityKmPerDay)
        }
        // A theory's moon faces its planet about the theory's orbit normal; an anchor moves the
        // moon (a translation near a flyby), not the plane of its orbit.
        func anchored(_ p: Vector3) -> Vector3 { adjustsMoons ? adjustedMoon(body, (p, .zero), seconds: seconds).positionKm : p }
        switch body {
        case .io, .europa, .ganymede, .callisto:
            let g = GalileanMoons.positionsAndOrbitNormals(jdTDB: jd)
            return IAURotation.facingParent(relativePosition: anchored(g.positionsKm[body]), orbitNormal: g.orbitNormals[body])
        case .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus:
            let s = SaturnianMoons.positionsAndOrbitNormals(jdTDB: jd)
            return IAURotation.facingParent(relativePosition: anchored(s.positionsKm[body]), orbitNormal: s.orbitNormals[body])
        default:
            let r = parentRelativeState(body, at: t)
            return IAURotation.facingParent(relativePosition: r.positionKm, relativeVelocity: r.velocityKmPerDay)
        }
    }

    // MARK: - Snapshot

    /// Every body in `BodyID.index` order, and each satellite's index with its parent's.
    static let bodies = BodyID.allCases
    static let satellites: [(index: Int, parent: Int)] = BodyID.allCases.compactMap { id in
        guard id.isSatellite, let parent = id.parent else { return nil }
        return (id.index, parent.index)
    }

    /// Every body's heliocentric position, parent-relative position and orientation at `t`, each
    /// theory evaluated once: a synchronous satellite's orbit normal comes from the same run of
    /// its theory as its position (its elements, or its analytic velocity), never from a second
    /// position.
    public func snapshot(at t: Instant) -> Snapshot {
        let jd = t.jdTDB
        let d = t.daysSinceJ2000TDB
        var helio = [Vector3](repeating: .zero, count: BodyID.count)
        var rel = [Vector3](repeating: .zero, count: BodyID.count)

        if let k = kernel, let seconds = kernelSeconds(jdTDB: jd, daysSinceJ2000TDB: d) {
            rel[BodyID.moon.index] = k.positions(secondsPastJ2000: seconds, heliocentricAU: &helio)
        } else {
            for body in BodyID.heliocentric where body != .earth {
                helio[body.index] = planetPosition(body, jdTDB: jd)
            }
            let moonKm = LunarTheory.geocentricPositionKm(jdTDB: jd)
            helio[BodyID.earth.index] = planetPosition(.earth, jdTDB: jd) - moonKm / Constants.auKm * Self.emratFactor
            rel[BodyID.moon.index] = moonKm
        }

        let issNow = issState(at: t)
        let phobos = MartianMoons.planetocentricState(.phobos, jdTDB: jd)
        let deimos = MartianMoons.planetocentricState(.deimos, jdTDB: jd)
        let galilean = GalileanMoons.positionsAndOrbitNormals(jdTDB: jd)
        let saturnian = SaturnianMoons.positionsAndOrbitNormals(jdTDB: jd)
        rel[BodyID.iss.index] = issNow.positionKm
        rel[BodyID.phobos.index] = phobos.positionKm
        rel[BodyID.deimos.index] = deimos.positionKm
        for body in GalileanPositions.bodies { rel[body.index] = galilean.positionsKm[body] }
        for body in SaturnianPositions.bodies { rel[body.index] = saturnian.positionsKm[body] }
        // Each giant planet's centre from its barycentre, from the theories' moons at hand.
        var center = [Vector3](repeating: .zero, count: BodyID.count)
        for body in GalileanPositions.bodies { center[BodyID.jupiter.index] -= rel[body.index] * Self.massShare[body.index] }
        for body in SaturnianPositions.bodies { center[BodyID.saturn.index] -= rel[body.index] * Self.massShare[body.index] }
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        if adjustsMoons { adjustMoons(&rel, center: &center, at: t) }
        for s in Self.satellites {
            helio[s.index] = helio[s.parent] + (rel[s.index] + center[s.parent]) / Constants.auKm
        }

        let orientations = Self.bodies.map { body -> Orientation in
            if let e = iauElements[body.index] {
                return IAURotation.orientation(body, elements: e, daysTDB: d)
            }
            // Only a moon a kernel places takes the long way (its state from the kernel); an
            // anchored one is already moved in `rel` and keeps its theory's orbit normal.
            if adjustsMoons, body.isSatellite, body != .moon, body != .iss, kernelPlaces(body, seconds: seconds) { return orientation(body, at: t) }
            let r = rel[body.index]
            switch body {
            case .iss: return IAURotation.facingParent(relativePosition: r, relativeVelocity: issNow.velocityKmPerDay)
            case .phobos, .deimos:
                let theory = body == .phobos ? phobos : deimos
                let v = adjustsMoons ? adjustedMoon(body, theory, seconds: seconds).velocityKmPerDay : theory.velocityKmPerDay
                return IAURotation.facingParent(relativePosition: r, relativeVelocity: v)
            case .io, .europa, .ganymede, .callisto:
                return IAURotation.facingParent(relativePosition: r, orbitNormal: galilean.orbitNormals[body])
            case .mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus:
                return IAURotation.facingParent(relativePosition: r, orbitNormal: saturnian.orbitNormals[body])
            default:
                return orientation(body, at: t)
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
        let moon: StateVector
        if let k = kernel, let seconds = kernelSeconds(t) {
            let m = k.states(secondsPastJ2000: seconds, into: &out)
            moon = StateVector(positionAU: m.positionKm / Constants.auKm, velocityAUPerDay: m.velocityKmPerDay / Constants.auKm)
        } else {
            for body in BodyID.heliocentric where body != .earth {
                out[body.index] = planetState(body, jdTDB: jd)
            }
            moon = moonGeocentricAU(jdTDB: jd)
            let emb = planetState(.earth, jdTDB: jd)
            out[BodyID.earth.index] = StateVector(positionAU: emb.positionAU - moon.positionAU * Self.emratFactor,
                                                  velocityAUPerDay: emb.velocityAUPerDay - moon.velocityAUPerDay * Self.emratFactor)
        }
        let earth = out[BodyID.earth.index]
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        // Moons hang from their planet's centre: the barycentre plus `centre` (km, km/day).
        var center: [BodyID: (Vector3, Vector3)] = [:]
        func place(_ body: BodyID, km p: Vector3, kmPerDay v: Vector3) {
            guard let parent = body.parent else { return }
            let ps = out[parent.index]
            let (p, v) = adjustsMoons && body != .iss ? adjustedMoon(body, (p, v), seconds: seconds) : (p, v)
            let (cp, cv) = center[parent] ?? (.zero, .zero)
            out[body.index] = StateVector(positionAU: ps.positionAU + (p + cp) / Constants.auKm, velocityAUPerDay: ps.velocityAUPerDay + (v + cv) / Constants.auKm)
        }
        out[BodyID.moon.index] = StateVector(positionAU: earth.positionAU + moon.positionAU, velocityAUPerDay: earth.velocityAUPerDay + moon.velocityAUPerDay)
        let issNow = issState(at: t)
        place(.iss, km: issNow.positionKm, kmPerDay: issNow.velocityKmPerDay)
        for body in [BodyID.phobos, .deimos] {
            place(body, km: MartianMoons.planetocentricPositionKm(body, jdTDB: jd), kmPerDay: MartianMoons.planetocentricVelocityKmPerDay(body, jdTDB: jd))
        }
        let gp = GalileanMoons.planetocentricPositionsKm(jdTDB: jd), gv = GalileanMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
        center[.jupiter] = centerOffset(.jupiter, GalileanPositions.bodies.map { ($0, gp[$0], gv[$0]) }, seconds: seconds)
        for body in [BodyID.io, .europa, .ganymede, .callisto] { place(body, km: gp[body], kmPerDay: gv[body]) }
        let sp = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd), sv = SaturnianMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
        center[.saturn] = centerOffset(.saturn, SaturnianPositions.bodies.map { ($0, sp[$0], sv[$0]) }, seconds: seconds)
        for body in [BodyID.mimas, .enceladus, .tethys, .dione, .rhea, .titan, .iapetus] { place(body, km: sp[body], kmPerDay: sv[body]) }
        return out
    }
}

extension Ephemeris {
    /// The IAU polynomial elements serving `body` (catalogue, or Pluto's from the report), nil for
    /// synchronous satellites.
    public func iauElements(_ body: BodyID) -> IAURotationElements? { iauElements[body.index] }
}
