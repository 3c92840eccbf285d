#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ephemeris
import Missions

/// An Apollo mission built from its published events, as flight dynamics would fly it with
/// today's tools: every coast an integration under the Earth's gravity (J2–J4) with the Moon and
/// the Sun pulling (the Moon's with J2 and the Earth pulling in lunar orbit), every burn aimed
/// by differential correction at the next published event — trans-lunar injection at the lunar
/// orbit insertion point (or the flyby's closest approach), trans-Earth injection at an entry
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

    // MARK: - Building

    public func paths(_ c: BuildContext) throws -> [VehiclePath] {
        let eph = c.ephemeris
        let frames = Frames(ephemeris: eph)
        let earthModel = try GravityModel(ephemeris: eph, center: .earth, perturbers: [.sun, .moon], zonalDegree: 4)
        let moonModel = try GravityModel(ephemeris: eph, center: .moon, perturbers: [.earth, .sun], zonalDegree: 2)
        let dop = DormandPrince853()
        let muE = GravityConstants.earthGM
        let rMoon = eph.catalogue[.moon].radiusKm
        let vehicle = try c.vehicle(vehicleID)
        var notes: [String] = []

        func propagateGeo(_ s: OrbitalState, to t: Double) throws -> Arc {
            Arc(arc: try dop.propagate(s, to: t, model: earthModel), aboutMoon: false, frames: frames)
        }
        func propagateMoon(_ geo: OrbitalState, to t: Double) throws -> Arc {
            let m = frames.moon(geo.seconds)
            let local = OrbitalState(seconds: geo.seconds, positionKm: geo.positionKm - m.positionKm, velocityKmS: geo.velocityKmS - m.velocityKmS)
            return Arc(arc: try dop.propagate(local, to: t, model: moonModel), aboutMoon: true, frames: frames)
        }

        // Times.
        let launch = c.seconds(hours: 0)
        let ascent = try c.phase(vehicle, "ascent")
        let tli = try c.phase(vehicle, "trans-lunar injection")
        let tliMid = (tli.lowerBound + tli.upperBound) / 2
        let entryPhase = try c.phase(vehicle, "entry and descent")
        let ei = entryPhase.lowerBound, splash = entryPhase.upperBound

        // The lunar target: where the translunar coast must arrive, and when.
        let arrival: Double
        var lunarOrbit: (normal: Vector3, radius: Double, state: (Double) -> OrbitalState)?
        var targetMoonRelative: (Double) -> Vector3  // the aim point (Moon-relative) given a free angle
        var needsPeriapsis = false
        switch objective {
        case let .orbit(inclination):
            let loi = try c.phase(vehicle, "lunar orbit insertion")
            arrival = (loi.lowerBound + loi.upperBound) / 2
            let radius = rMoon + (try c.fact("loi").altitudeKm ?? 110)
            let pole = frames.moonPole(arrival)
            var normal = -pole
            var overSite: (direction: Vector3, seconds: Double)?
            if let lander {
                let eagle = try c.vehicle(lander.vehicleID)
                let descent = try c.phase(eagle, "powered descent")
                let t = (descent.lowerBound + descent.upperBound) / 2
                let site = frames.siteDirection(lander.site, t)
                normal = (normal - site * normal.dot(site)).normalized
                overSite = (site, t)
            } else {
                // The node is not published: the tilt is taken about the Earth–Moon line.
                let toEarth = (-frames.moon(arrival).positionKm).normalized
                let axis = (toEarth - pole * toEarth.dot(pole)).normalized
                normal = Self.rotate(normal, about: axis, by: inclination * .pi / 180)
            }
            let e1seed = normal.cross(pole).length > 1e-6 ? normal.cross(pole).normalized : Vector3(1, 0, 0)
            let e2seed = normal.cross(e1seed)
            let n = (GravityConstants.moonGM / (radius * radius * radius)).squareRoot()
            // Phase at arrival: over the site at the descent's midpoint (the orbit's n-body drift
            // is corrected below), else 20° past the point opposite the Earth (behind the Moon).
            var phase0: Double
            if let overSite {
                let angle = atan2(overSite.direction.dot(e2seed), overSite.direction.dot(e1seed))
                phase0 = angle - n * (overSite.seconds - arrival)
            } else {
                let away = (-(-frames.moon(arrival).positionKm)).normalized
                phase0 = atan2(away.dot(e2seed), away.dot(e1seed)) + 20 * .pi / 180
            }
            func circular(_ phase: Double) -> OrbitalState {
                // Moving with angular momentum along `normal`.
                let d = e1seed * cos(phase) + e2seed * sin(phase)
                let v = normal.cross(d) * (GravityConstants.moonGM / radius).squareRoot()
                let m = frames.moon(arrival)
                return OrbitalState(seconds: arrival, positionKm: m.positionKm + d * radius, velocityKmS: m.velocityKmS + v)
            }
            if let overSite {
                // Correct the phase so the propagated orbit passes over the site.
                for _ in 0..<4 {
                    let arc = try propagateMoon(circular(phase0), to: overSite.seconds)
                    let at = try arc.arc.state(at: overSite.seconds).positionKm.normalized
                    let error = atan2(at.cross(overSite.direction).dot(normal), at.dot(overSite.direction))
                    phase0 += error
                    if abs(error) < 1e-7 { break }
                }
            }
            let start = circular(phase0)
            lunarOrbit = (normal, radius, { _ in start })
            targetMoonRelative = { _ in start.positionKm - frames.moon(arrival).positionKm }
            notes.append("Lunar orbit: circular at \(Int(radius - rMoon)) km, normal \(Self.describe(normal)) (retrograde), entered at the insertion burn's middle.")
        case .flyby:
            arrival = try c.event("lunar-ca")
            let altitude = try c.fact("lunar-ca").altitudeKm ?? 250
            // Behind the Moon, turned about the Earth–Moon line by a free angle.
            let m = frames.moon(arrival).positionKm
            let away = m.normalized
            let pole = frames.moonPole(arrival)
            let side = away.cross(pole).normalized
            let up = side.cross(away)
            targetMoonRelative = { psi in (away * cos(0.35) + (up * cos(psi) + side * sin(psi)) * sin(0.35)).normalized * (rMoon + altitude) }
            needsPeriapsis = true
        }

        // Parking orbit: the launch azimuth (72°–108°, Apollo's range) whose circular orbit puts
        // the trans-lunar injection point where a two-body transfer to the target costs least.
        let rPark = 6_378.137 + parkingAltitudeKm
        let insertion = ascent.upperBound
        let padAtInsertion = frames.geo(pad.state(at: insertion, ephemeris: eph)).positionKm.normalized
        let earthPole = eph.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: insertion)).bodyToEcliptic * Vector3(0, 0, 1)
        let east = earthPole.cross(padAtInsertion).normalized
        let localNorth = padAtInsertion.cross(east)
        let targetGeo = frames.moon(arrival).positionKm + targetMoonRelative(0)
        func parking(_ azimuthDeg: Double) -> (state: OrbitalState, deltaV: Double)? {
            let a = azimuthDeg * .pi / 180
            let heading = localNorth * cos(a) + east * sin(a)
            let normal = padAtInsertion.cross(heading).normalized
            // Inserted 20° downrange of the pad.
            let insertPoint = Self.rotate(padAtInsertion, about: normal, by: 20 * .pi / 180)
            let n = (muE / (rPark * rPark * rPark)).squareRoot()
            let angle = n * (tliMid - insertion)
            let p = Self.rotate(insertPoint, about: normal, by: angle) * rPark
            let v = normal.cross(p.normalized) * (muE / rPark).squareRoot()
            guard let sol = KeplerArc.lambert(mu: muE, from: p, to: targetGeo, seconds: arrival - tliMid, longWay: false) else { return nil }
            return (OrbitalState(seconds: tliMid, positionKm: p, velocityKmS: v), (sol.v1 - v).length)
        }
        var bestPark: (azimuth: Double, state: OrbitalState, deltaV: Double)?
        for az in stride(from: 72.0, through: 108.0, by: 0.5) {
            if let p = parking(az), p.deltaV < (bestPark?.deltaV ?? .infinity) { bestPark = (az, p.state, p.deltaV) }
        }
        guard let park = bestPark else { throw RecipeError(description: "\(missionID): no parking orbit reaches the Moon") }
        // The parking orbit as flown: back from the injection point under J2.
        let parkingArc = try propagateGeo(park.state, to: launch)
        notes.append("Parking orbit: circular at \(Int(parkingAltitudeKm)) km, launch azimuth \(park.azimuth)°.")

        // Trans-lunar injection aimed at the target (and, for a flyby, at a periapsis there).
        let guess = KeplerArc.lambert(mu: muE, from: park.state.positionKm, to: targetGeo, seconds: arrival - tliMid, longWay: false)!.v1 - park.state.velocityKmS
        func translunar(_ x: [Double]) throws -> Arc {
            let s = OrbitalState(seconds: tliMid, positionKm: park.state.positionKm, velocityKmS: park.state.velocityKmS + Vector3(x[0], x[1], x[2]))
            return try propagateGeo(s, to: arrival)
        }
        var unknowns = [guess.x, guess.y, guess.z]
        var steps = [1e-5, 1e-5, 1e-5]
        var tolerance = [0.05, 0.05, 0.05]
        if needsPeriapsis { unknowns.append(0); steps.append(1e-4); tolerance.append(1e-6) }
        let tliSolution = try Shooting.solve(unknowns, steps: steps, tolerance: tolerance) { x in
            let end = try translunar(x).state(arrival)
            let rel = end.positionKm - frames.moon(arrival).positionKm
            let miss = rel - targetMoonRelative(needsPeriapsis ? x[3] : 0)
            var r = [miss.x, miss.y, miss.z]
            if needsPeriapsis {
                let relV = end.velocityKmS - frames.moon(arrival).velocityKmS
                r.append(rel.normalized.dot(relV.normalized))
            }
            return r
        }.x
        let coast = try translunar(tliSolution)
        let tliDV = Vector3(tliSolution[0], tliSolution[1], tliSolution[2]).length
        notes.append("Trans-lunar injection: \(Self.kms(tliDV)) aimed by differential correction at the \(needsPeriapsis ? "closest approach" : "lunar orbit insertion point").")

        var pieces: [PathPiece] = []
        func add(_ name: String, _ notes: [String] = [], _ a: Double, _ b: Double, step: Double, center: Int = 399, frame: Int = 1,
                 _ f: @escaping (Double) throws -> OrbitalState) {
            pieces.append(PathPiece(name: name, notes: notes, startSeconds: a, endSeconds: b, center: center, frame: frame, maxStepSeconds: step,
                                    state: { t in frames.helio(try f(t)) }))
        }
        add("Ascent (modelled)", ["From the pad to the parking orbit: a powered blend."], launch, insertion, step: 30) { t in
            frames.geo(try PoweredBlend(center: .earth, start: launch, end: insertion, ephemeris: eph,
                                        from: { pad.state(at: $0, ephemeris: eph) }, to: { frames.helio(try parkingArc.state($0)) }).state(at: t))
        }
        add("Parking orbit (modelled)", [], insertion, tli.lowerBound, step: 300) { try parkingArc.state($0) }
        // The post-burn coast extended back over the burn, to blend from.
        let coastBack = try propagateGeo(try coast.state(tli.upperBound), to: tli.lowerBound)
        let parkingOn = try propagateGeo(park.state, to: tli.upperBound)
        add("Trans-lunar injection (modelled)", [], tli.lowerBound, tli.upperBound, step: 20) { t in
            frames.geo(try PoweredBlend(center: .earth, start: tli.lowerBound, end: tli.upperBound, ephemeris: eph,
                                        from: { frames.helio(t <= tliMid ? try parkingArc.state($0) : try parkingOn.state($0)) },
                                        to: { frames.helio($0 >= tliMid ? try coast.state($0) : try coastBack.state($0)) }).state(at: t))
        }

        // The return: a burn aimed at the entry interface, placed so the entry lands at the
        // splashdown site.
        func returnLeg(from state: OrbitalState, burnMid: Double) throws -> (arc: Arc, flight: EntryModel.Flight, deltaV: Double, interface: OrbitalState) {
            let siteAtSplash = frames.geo(splashdown.state(at: splash, ephemeris: eph)).positionKm
            var aim = siteAtSplash.normalized * (6_378.137 + 121.9)
            var result: (Arc, EntryModel.Flight, Double, OrbitalState)?
            var dv = Vector3.zero
            // Initial guess: the Lambert (two-body, Earth) velocity to the aim point, from the
            // Moon's vicinity, plus what escaping the Moon costs along the orbit's motion.
            if let l = KeplerArc.lambert(mu: muE, from: state.positionKm, to: aim, seconds: ei - burnMid, longWay: false) {
                dv = l.v1 - state.velocityKmS
            }
            for _ in 0..<4 {
                let aimNow = aim
                let sol = try Shooting.solve([dv.x, dv.y, dv.z], steps: [1e-5, 1e-5, 1e-5], tolerance: [0.05, 0.05, 0.05]) { x in
                    let s = OrbitalState(seconds: burnMid, positionKm: state.positionKm, velocityKmS: state.velocityKmS + Vector3(x[0], x[1], x[2]))
                    let p = try propagateGeo(s, to: ei).state(ei).positionKm - aimNow
                    return [p.x, p.y, p.z]
                }.x
                dv = Vector3(sol[0], sol[1], sol[2])
                let arc = try propagateGeo(OrbitalState(seconds: burnMid, positionKm: state.positionKm, velocityKmS: state.velocityKmS + dv), to: ei)
                let interface = try arc.state(ei)
                let flight = try entry.fly(from: interface, landingSeconds: splash, ephemeris: eph)
                result = (arc, flight, dv.length, interface)
                // Move the aim point by the miss, along the surface.
                let landed = flight.states[flight.states.count - 1].positionKm
                let miss = siteAtSplash - landed
                let up = aim.normalized
                let horizontal = miss - up * miss.dot(up)
                if horizontal.length < 5 { break }
                aim = (aim + horizontal).normalized * (6_378.137 + 121.9)
            }
            guard let (arc, flight, deltaV, interface) = result else { throw RecipeError(description: "\(missionID): the return could not be aimed") }
            return (arc, flight, deltaV, interface)
        }

        switch objective {
        case .orbit:
            let loi = try c.phase(vehicle, "lunar orbit insertion")
            let tei = try c.phase(vehicle, "trans-Earth injection")
            let teiMid = (tei.lowerBound + tei.upperBound) / 2
            guard let lunarOrbit else { throw RecipeError(description: "no lunar orbit") }
            let orbitStart = lunarOrbit.state(arrival)
            let orbitArc = try propagateMoon(orbitStart, to: tei.upperBound)
            let orbitBack = try propagateMoon(orbitStart, to: loi.lowerBound)
            let coastOn = try propagateGeo(try coast.state(arrival), to: loi.upperBound)
            let loiDV = (orbitStart.velocityKmS - (try coast.state(arrival)).velocityKmS).length
            notes.append("Lunar orbit insertion: \(Self.kms(loiDV)).")
            add("Translunar coast (modelled)", [], tli.upperBound, loi.lowerBound, step: 3600) { try coast.state($0) }
            add("Lunar orbit insertion (modelled)", [], loi.lowerBound, loi.upperBound, step: 20) { t in
                frames.geo(try PoweredBlend(center: .moon, start: loi.lowerBound, end: loi.upperBound, ephemeris: eph,
                                            from: { frames.helio($0 <= arrival ? try coast.state($0) : try coastOn.state($0)) },
                                            to: { frames.helio($0 >= arrival ? try orbitArc.state($0) : try orbitBack.state($0)) }).state(at: t))
            }
            add("Lunar orbit (modelled)", ["Integrated about the Moon (J2) with the Earth and the Sun pulling."], loi.upperBound, tei.lowerBound, step: 300, center: 301) { try orbitArc.state($0) }
            let teiState = try orbitArc.state(teiMid)
            let back = try returnLeg(from: teiState, burnMid: teiMid)
            notes.append("Trans-Earth injection: \(Self.kms(back.deltaV)), aimed at an entry interface from which the entry lands at the published splashdown (\(Self.landing(back.flight))).")
            let returnBack = try propagateGeo(try back.arc.state(tei.upperBound), to: tei.lowerBound)
            add("Trans-Earth injection (modelled)", [], tei.lowerBound, tei.upperBound, step: 20) { t in
                frames.geo(try PoweredBlend(center: .moon, start: tei.lowerBound, end: tei.upperBound, ephemeris: eph,
                                            from: { frames.helio(try orbitArc.state($0)) },
                                            to: { frames.helio($0 >= teiMid ? try back.arc.state($0) : try returnBack.state($0)) }).state(at: t))
            }
            add("Transearth coast (modelled)", [], tei.upperBound, ei, step: 3600) { try back.arc.state($0) }
            let table = try StateTable(back.flight.states)
            add("Entry and parachute descent (modelled)", ["Three-degree-of-freedom entry (drag and lift in an exponential atmosphere), then parachutes."], ei, splash, step: 20) { table.state(at: $0) }

            var paths = [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes)]
            if let lander {
                paths.append(try landerPath(lander, c: c, frames: frames, orbitArc: orbitArc, propagateMoon: propagateMoon))
            }
            return paths

        case let .flyby(returnBurn):
            let burn = try c.phase(vehicle, returnBurn)
            let burnMid = (burn.lowerBound + burn.upperBound) / 2
            let free = try propagateGeo(try coast.state(arrival), to: burn.upperBound)
            add("Translunar coast and flyby (modelled)", ["One ballistic arc from trans-lunar injection to the published closest approach (the mid-course corrections before it are not modelled separately)."],
                tli.upperBound, arrival, step: 3600) { try coast.state($0) }
            add("Free return (modelled)", [], arrival, burn.lowerBound, step: 600) { try free.state($0) }
            let back = try returnLeg(from: try free.state(burnMid), burnMid: burnMid)
            notes.append("\(returnBurn): \(Self.kms(back.deltaV)), aimed at an entry interface from which the entry lands at the published splashdown (\(Self.landing(back.flight))).")
            let returnBack = try propagateGeo(try back.arc.state(burn.upperBound), to: burn.lowerBound)
            add("\(returnBurn) (modelled)", [], burn.lowerBound, burn.upperBound, step: 20) { t in
                frames.geo(try PoweredBlend(center: .earth, start: burn.lowerBound, end: burn.upperBound, ephemeris: eph,
                                            from: { frames.helio(try free.state($0)) },
                                            to: { frames.helio($0 >= burnMid ? try back.arc.state($0) : try returnBack.state($0)) }).state(at: t))
            }
            add("Transearth coast (modelled)", [], burn.upperBound, ei, step: 3600) { try back.arc.state($0) }
            let table = try StateTable(back.flight.states)
            add("Entry and parachute descent (modelled)", ["Three-degree-of-freedom entry (drag and lift in an exponential atmosphere), then parachutes."], ei, splash, step: 20) { table.state(at: $0) }
            return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes)]
        }
    }

    /// The lander: the command module's orbit until the descent-orbit burn, an ellipse down to the
    /// descent's perilune, the powered descent to the site, the stay (fixed in IAU_MOON), the
    /// ascent, and a transfer (Lambert's problem about the Moon, with as many revolutions as fit)
    /// that meets the command module at the docking time.
    func landerPath(_ lander: Lander, c: BuildContext, frames: Frames, orbitArc: Arc,
                    propagateMoon: (OrbitalState, Double) throws -> Arc) throws -> VehiclePath {
        let eph = c.ephemeris
        let v = try c.vehicle(lander.vehicleID)
        let rMoon = eph.catalogue[.moon].radiusKm
        let muM = GravityConstants.moonGM
        let undock = c.seconds(hours: v.startHours), dock = c.seconds(hours: v.endHours ?? v.startHours)
        let doi = try c.phase(v, lander.doiPhase)
        let doiMid = (doi.lowerBound + doi.upperBound) / 2
        let descent = try c.phase(v, "powered descent")
        let landed = try c.phase(v, "on the Moon")
        let ascent = try c.phase(v, "ascent")
        var pieces: [PathPiece] = []
        var notes: [String] = []
        func add(_ name: String, _ a: Double, _ b: Double, step: Double, center: Int = 301, frame: Int = 1, _ f: @escaping (Double) throws -> OrbitalState) {
            pieces.append(PathPiece(name: name, startSeconds: a, endSeconds: b, center: center, frame: frame, maxStepSeconds: step,
                                    state: { t in frames.helio(try f(t)) }))
        }
        // The descent orbit: apolune at the burn, perilune lowered to the descent altitude.
        let before = try orbitArc.state(doiMid)
        let m0 = frames.moon(doiMid)
        let r0 = before.positionKm - m0.positionKm, v0 = before.velocityKmS - m0.velocityKmS
        let ra = r0.length, rp = rMoon + lander.descentPeriluneKm
        let a = (ra + rp) / 2
        let speed = (muM * (2 / ra - 1 / a)).squareRoot()
        let afterDOI = OrbitalState(seconds: doiMid, positionKm: before.positionKm, velocityKmS: m0.velocityKmS + v0.normalized * speed)
        let descentOrbit = try propagateMoon(afterDOI, descent.lowerBound)
        let doiBack = try propagateMoon(afterDOI, doi.lowerBound)
        notes.append("Descent orbit insertion: \(Self.kms(abs(v0.length - speed))) to a perilune of \(Int(lander.descentPeriluneKm)) km.")
        add("Lunar orbit with the CSM (modelled)", undock, doi.lowerBound, step: 300) { try orbitArc.state($0) }
        add("Descent orbit insertion (modelled)", doi.lowerBound, doi.upperBound, step: 5) { t in
            frames.geo(try PoweredBlend(center: .moon, start: doi.lowerBound, end: doi.upperBound, ephemeris: eph,
                                        from: { frames.helio(try orbitArc.state($0)) },
                                        to: { frames.helio($0 >= doiMid ? try descentOrbit.state($0) : try doiBack.state($0)) }).state(at: t))
        }
        add("Descent orbit (modelled)", doi.upperBound, descent.lowerBound, step: 120) { try descentOrbit.state($0) }
        let site = lander.site
        // The descent orbit carried on through the descent, to blend from.
        let descentOn = try propagateMoon(try descentOrbit.state(descent.lowerBound), descent.upperBound)
        add("Powered descent (modelled)", descent.lowerBound, descent.upperBound, step: 10) { t in
            frames.geo(try PoweredBlend(center: .moon, start: descent.lowerBound, end: descent.upperBound, ephemeris: eph,
                                        from: { frames.helio(try descentOn.state($0)) },
                                        to: { site.state(at: $0, ephemeris: eph) }).state(at: t))
        }
        // On the surface: fixed in the Moon's IAU frame (the engine turns it).
        pieces.append(PathPiece(name: "Tranquility Base (IAU_MOON)", notes: ["The landing site, fixed in the Moon's body frame."],
                                startSeconds: landed.lowerBound, endSeconds: landed.upperBound, center: 301, frame: 10020, maxStepSeconds: 86_400,
                                state: { site.state(at: $0, ephemeris: eph) }))
        // Rendezvous: Lambert about the Moon from the ascent's end to the CSM at docking.
        let csmAtDock = try orbitArc.state(dock)
        let mAscent = frames.moon(ascent.upperBound)
        // The ascent ends 17 km up, downrange of the site along the CSM's orbit.
        let normal = (try orbitArc.state(ascent.upperBound).positionKm - mAscent.positionKm).cross(try orbitArc.state(ascent.upperBound).velocityKmS - mAscent.velocityKmS).normalized
        let siteDir = (site.state(at: ascent.lowerBound, ephemeris: eph).positionKm - frames.helio(OrbitalState(seconds: ascent.lowerBound, positionKm: frames.moon(ascent.lowerBound).positionKm, velocityKmS: .zero)).positionKm).normalized
        let insertion = Self.rotate(siteDir, about: normal, by: 10 * .pi / 180) * (rMoon + 17)
        let mDock = frames.moon(dock)
        let solutions = try Lambert.solutions(mu: muM, from: insertion, to: csmAtDock.positionKm - mDock.positionKm, seconds: dock - ascent.upperBound,
                                              direction: .retrograde, maxRevolutions: 3, referenceNormal: -normal)
        guard let best = solutions.min(by: { Self.cost($0, normal: normal, r: insertion) < Self.cost($1, normal: normal, r: insertion) }) else {
            throw RecipeError(description: "\(missionID): no rendezvous transfer")
        }
        let rendezvous = KeplerArc(mu: muM, position: insertion, velocity: best.v1, epochHours: ascent.upperBound / 3600)
        func rendezvousState(_ t: Double) -> OrbitalState {
            let s = rendezvous.state(atHours: t / 3600)
            let m = frames.moon(t)
            return OrbitalState(seconds: t, positionKm: m.positionKm + s.position, velocityKmS: m.velocityKmS + s.velocity)
        }
        notes.append("Rendezvous: a \(best.revolutions)-revolution two-body transfer about the Moon from the ascent's end to the CSM at docking (\(Self.kms((best.v2 - (csmAtDock.velocityKmS - mDock.velocityKmS)).length)) to match it there).")
        add("Ascent (modelled)", ascent.lowerBound, ascent.upperBound, step: 10) { t in
            frames.geo(try PoweredBlend(center: .moon, start: ascent.lowerBound, end: ascent.upperBound, ephemeris: eph,
                                        from: { site.state(at: $0, ephemeris: eph) }, to: { frames.helio(rendezvousState($0)) }).state(at: t))
        }
        add("Rendezvous (modelled)", ascent.upperBound, dock, step: 300) { rendezvousState($0) }
        return VehiclePath(vehicle: v, pieces: pieces, notes: notes)
    }

    /// What a rendezvous transfer costs: the speed change at insertion plus at arrival, with a
    /// penalty for going the wrong way round.
    static func cost(_ s: LambertSolution, normal: Vector3, r: Vector3) -> Double {
        let h = r.cross(s.v1)
        return h.dot(normal) > 0 ? s.v1.length + s.v2.length : .infinity
    }

    static func rotate(_ v: Vector3, about axis: Vector3, by angle: Double) -> Vector3 {
        let k = axis.normalized
        return v * cos(angle) + k.cross(v) * sin(angle) + k * (k.dot(v) * (1 - cos(angle)))
    }

    static func kms(_ v: Double) -> String { "\((v * 1000).rounded() / 1000) km/s" }

    static func describe(_ v: Vector3) -> String {
        "(\((v.x * 1000).rounded() / 1000), \((v.y * 1000).rounded() / 1000), \((v.z * 1000).rounded() / 1000))"
    }

    static func landing(_ f: EntryModel.Flight) -> String {
        "landed at \((f.landingLatitudeDeg * 100).rounded() / 100)°, \((f.landingLongitudeDeg * 100).rounded() / 100)°"
    }
}
