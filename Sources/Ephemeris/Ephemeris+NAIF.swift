extension Ephemeris {
    /// Heliocentric ecliptic J2000 state (km, km/s) of a NAIF id the engine places itself
    /// (``NAIFBody/known(_:)``), nil for any other. The moons of Jupiter and Saturn are placed
    /// from their planet's centre (599, 699), as their theories give them, where the engine's
    /// `io` … `iapetus` hang from the system barycentre it places as the planet.
    public func naifState(_ id: Int, at t: Instant) -> (positionKm: Vector3, velocityKmS: Vector3)? {
        guard let known = NAIFBody.known(id) else { return nil }
        switch known {
        case .solarSystemBarycenter:
            return solarSystemBarycenter(at: t)
        case let .body(b):
            // A moon of Jupiter or Saturn hangs from its planet's centre already (`state`).
            return Self.kilometres(state(b, at: t))
        case .earthMoonBarycenter:
            let earth = Self.kilometres(state(.earth, at: t))
            let moon = parentRelativeState(.moon, at: t)
            return (earth.positionKm + moon.positionKm * Self.emratFactor,
                    earth.velocityKmS + moon.velocityKmPerDay * (Self.emratFactor / Constants.secondsPerDay))
        case let .planetCenter(p):
            let s = Self.kilometres(state(p, at: t))
            let offset = barycenterToCenter(p, at: t)
            return (s.positionKm + offset.positionKm, s.velocityKmS + offset.velocityKmS)
        }
    }

    static func kilometres(_ s: StateVector) -> (positionKm: Vector3, velocityKmS: Vector3) {
        (s.positionAU * Constants.auKm, s.velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay))
    }

    /// The solar-system barycentre from the Sun, ecliptic J2000 km and km/s: from the DE kernel
    /// inside its span; outside it (or without one), Σ GM·r / Σ GM over the Sun and the planetary
    /// systems from the analytical theories (good to the theories' own errors times the mass
    /// ratios: kilometres).
    public func solarSystemBarycenter(at t: Instant) -> (positionKm: Vector3, velocityKmS: Vector3) {
        if let k = kernel, let seconds = kernelSeconds(t) {
            let sun = k.sunBarycentricState(secondsPastJ2000: seconds)
            return (-sun.positionKm, -sun.velocityKmPerSecond)
        }
        var p = Vector3.zero, v = Vector3.zero, total = GravityConstants.sunGM
        let states = allStates(at: t)
        for body in BodyID.heliocentric {
            let gm = body == .earth ? GravityConstants.earthGM + GravityConstants.moonGM : GravityConstants.gm(body)
            // The Earth–Moon barycentre carries both masses.
            let s = body == .earth ? naifState(3, at: t).map { ($0.positionKm, $0.velocityKmS) } : nil
            let (pk, vk) = s ?? Self.kilometres(states[body.index])
            p += pk * gm
            v += vk * gm
            total += gm
        }
        return (p / total, v / total)
    }

    /// The vector from a planet's system barycentre (where the engine places the planet) to the
    /// planet's centre, km and km/s, ecliptic J2000: −Σ (GM_moon / GM_system) · r_moon over the
    /// moons the engine has — up to about 200 km for Jupiter (Ganymede and Callisto) and 290 km
    /// for Saturn (Titan). Zero for the other planets (Phobos and Deimos move Mars by 20 cm; the
    /// engine has no moons of Uranus, Neptune or Pluto).
    public func barycenterToCenter(_ planet: BodyID, at t: Instant) -> (positionKm: Vector3, velocityKmS: Vector3) {
        if let k = satelliteKernels, let c = k.centerFromBarycenter(planet, seconds: t.daysSinceJ2000TDB * Constants.secondsPerDay, ephemeris: self) {
            return c
        }
        let system = GravityConstants.gm(planet)
        var p = Vector3.zero, v = Vector3.zero
        func add(_ m: BodyID, _ r: Vector3, _ rate: Vector3) {
            let w = GravityConstants.gm(m) / system
            p -= r * w
            v -= rate * (w / Constants.secondsPerDay)
        }
        let jd = t.jdTDB
        switch planet {
        case .jupiter:
            let r = GalileanMoons.planetocentricPositionsKm(jdTDB: jd), rate = GalileanMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
            for m in GalileanPositions.bodies { add(m, r[m], rate[m]) }
        case .saturn:
            let r = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd), rate = SaturnianMoons.planetocentricVelocitiesKmPerDay(jdTDB: jd)
            for m in SaturnianPositions.bodies { add(m, r[m], rate[m]) }
        default:
            return (.zero, .zero)
        }
        return (p, v)
    }

    /// The moon of `planet` (Mars, Jupiter, Saturn) whose centre is nearest `positionKm`
    /// (heliocentric, ecliptic J2000), and how far, from the moons' positions at hand
    /// (``satellitePositionsKm(of:at:)``), with the planet's centre found from
    /// `planetBarycentreKm` (its system's barycentre, where the kernel puts it) as
    /// ``barycenterToCenter(_:at:)`` finds it. What a telemetry tick asks near a giant planet, for
    /// a fraction of what a ``naifState(_:at:)`` call per moon costs.
    public func nearestMoon(of planet: BodyID, to positionKm: Vector3, planetBarycenterKm: Vector3,
                            moonsKm moons: [(body: BodyID, km: Vector3)]) -> (body: BodyID, distanceKm: Double)? {
        guard planet == .mars || planet == .jupiter || planet == .saturn, !moons.isEmpty else { return nil }
        let center = planet == .mars ? planetBarycenterKm : planetBarycenterKm + Self.centerOffsetKm(planet, moonsKm: moons)
        let relative = positionKm - center
        return moons.map { ($0.body, (relative - $0.km).length) }.min { $0.1 < $1.1 }
    }

    /// The positions of `planet`'s moons relative to it (km, ecliptic J2000; what
    /// ``parentRelativeState(_:at:)`` gives), in the catalogue's order: one run of the Galilean or
    /// Saturnian theory for all of them, positions only.
    public func satellitePositionsKm(of planet: BodyID, at t: Instant) -> [(body: BodyID, km: Vector3)] {
        let theory = theorySatellitePositionsKm(of: planet, at: t)
        guard adjustsMoons, planet != .earth else { return theory }
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        return theory.map { ($0.body, adjustedMoon($0.body, ($0.km, .zero), seconds: seconds).positionKm) }
    }

    /// ``satellitePositionsKm(of:at:)`` from the theories alone.
    func theorySatellitePositionsKm(of planet: BodyID, at t: Instant) -> [(body: BodyID, km: Vector3)] {
        let jd = t.jdTDB
        switch planet {
        case .mars:
            return [BodyID.phobos, .deimos].map { ($0, MartianMoons.planetocentricPositionKm($0, jdTDB: jd)) }
        case .jupiter:
            let r = GalileanMoons.planetocentricPositionsKm(jdTDB: jd)
            return GalileanPositions.bodies.map { ($0, r[$0]) }
        case .saturn:
            let r = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd)
            return SaturnianPositions.bodies.map { ($0, r[$0]) }
        default:
            return catalogue[planet].moons.map { ($0, parentRelativeState($0, at: t).positionKm) }
        }
    }

    /// The centre of Jupiter or Saturn, or one of its moons (heliocentric km and km/s; what
    /// ``naifState(_:at:)`` gives for 599, 699, 501 …), from the moons' positions at `t` already
    /// at hand (``satellitePositionsKm(of:at:)``) and one more run of their theory, h = 1/20,000
    /// of the fastest moon's period later (Io's: 8 s), instead of the three to six runs
    /// ``naifState(_:at:)`` takes. Rates are forward differences; a moon's loses half a step of
    /// its planet's pull, `−½·h·a` with `a = −GM·r/r³`, which is put back: within 2 cm/s of a
    /// central difference over ±20 s (the theories' positions are Doubles good to a centimetre
    /// today — Mimas's mean longitude is 2·10⁷° — about a cm/s over the step), closer than the
    /// ±P/1000 differences of ``barycenterToCenter(_:at:)`` and ``parentRelativeState(_:at:)``
    /// (Mimas: 0.1 m/s).
    /// Nil for other planets and for bodies not among `moonsKm`.
    public func systemMemberState(_ body: BodyID, of planet: BodyID, moonsKm: [(body: BodyID, km: Vector3)],
                                  at t: Instant) -> (positionKm: Vector3, velocityKmS: Vector3)? {
        // Kernels and anchors move moons off the theory this differences: ask `naifState`.
        guard !adjustsMoons else { return nil }
        let jd = t.jdTDB
        let later: [(body: BodyID, km: Vector3)], step: Double
        switch planet {
        case .jupiter:
            step = GalileanMoons.shortestPeriodDays / 20_000
            let r = GalileanMoons.planetocentricPositionsKm(jdTDB: jd + step)
            later = GalileanPositions.bodies.map { ($0, r[$0]) }
        case .saturn:
            step = SaturnianMoons.shortestPeriodDays / 20_000
            let r = SaturnianMoons.planetocentricPositionsKm(jdTDB: jd + step)
            later = SaturnianPositions.bodies.map { ($0, r[$0]) }
        default:
            return nil
        }
        let member = body == planet ? nil : moonsKm.firstIndex { $0.body == body }
        guard body == planet || member != nil, later.count == moonsKm.count else { return nil }
        // The step as the Julian dates hold it: jd + step rounds by up to 20 µs, 3·10⁻⁶ of 8 s.
        let h = ((jd + step) - jd) * Constants.secondsPerDay
        let offset = Self.centerOffsetKm(planet, moonsKm: moonsKm), ahead = Self.centerOffsetKm(planet, moonsKm: later)
        let barycenter = Self.kilometres(state(planet, at: t))
        var position = barycenter.positionKm + offset, velocity = barycenter.velocityKmS + (ahead - offset) / h
        if let i = member {
            let r = moonsKm[i].km, distance = r.length
            let pull = r * (-GravityConstants.gm(planet) / (distance * distance * distance))
            position += r
            velocity += (later[i].km - r) / h - pull * (h / 2)
        }
        return (position, velocity)
    }

    /// The planet's centre from its system's barycentre, km, given its moons' planet-relative
    /// positions: −Σ (GM_moon / GM_system) r_moon, the position part of
    /// ``barycenterToCenter(_:at:)``.
    static func centerOffsetKm(_ planet: BodyID, moonsKm: [(body: BodyID, km: Vector3)]) -> Vector3 {
        let system = GravityConstants.gm(planet)
        return moonsKm.reduce(Vector3.zero) { $0 - $1.km * (GravityConstants.gm($1.body) / system) }
    }
}
