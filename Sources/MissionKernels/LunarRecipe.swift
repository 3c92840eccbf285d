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

        // The lunar target: the approach hyperbola's closest approach (radius and time) and
        // the plane it should lie in.
        let arrival: Double
        let periluneRadius: Double
        var overSite: (site: SurfaceSite, seconds: Double)?
        var inclination = 0.0
        switch objective {
        case let .orbit(inclinationDeg):
            let loi = try c.phase(vehicle, "lunar orbit insertion")
            arrival = (loi.lowerBound + loi.upperBound) / 2
            periluneRadius = rMoon + (try c.fact("loi").altitudeKm ?? 110)
            inclination = inclinationDeg * .pi / 180
            if let lander {
                let descent = try c.phase(try c.vehicle(lander.vehicleID), "powered descent")
                overSite = (lander.site, (descent.lowerBound + descent.upperBound) / 2)
            }
        case .flyby:
            arrival = try c.event("lunar-ca")
            periluneRadius = rMoon + (try c.fact("lunar-ca").altitudeKm ?? 250)
        }
        /// The orbit normal wanted for an incoming asymptote `s` (Moon-relative): a plane holding
        /// `s`, retrograde about the Moon's pole as Apollo's were, through the landing site at
        /// the descent for a lander, else through the return's departure asymptote (a flyby: tilted
        /// by the inclination about the Earth–Moon line).
        func wantedNormal(_ s: Vector3) -> Vector3 {
            let pole = frames.moonPole(arrival)
            var n: Vector3
            if let overSite {
                n = s.cross(frames.siteDirection(overSite.site, overSite.seconds)).normalized
            } else if let departure, s.cross(departure.s).length > 0.05 {
                n = s.cross(departure.s).normalized
            } else {
                n = -pole
                if inclination != 0 {
                    let toEarth = (-frames.moon(arrival).positionKm).normalized
                    n = Self.rotate(n, about: (toEarth - pole * toEarth.dot(pole)).normalized, by: inclination)
                }
                n = (n - s * n.dot(s)).normalized
            }
            return n.dot(pole) > 0 ? -n : n
        }

        // The return's departure asymptote, as a patched conic sees it: the Earth's two-body arc
        // from the Moon's centre at trans-Earth injection to the entry interface above the
        // splashdown. The lunar orbit is laid out so the injection can leave along it.
        let splashAim = frames.geo(splashdown.state(at: splash, ephemeris: eph, terrestrial: c.terrestrial)).positionKm.normalized * (6_378.137 + 121.9)
        var departure: (seconds: Double, s: Vector3, vInf: Double)?
        if case .orbit = objective {
            let tei = try c.phase(vehicle, "trans-Earth injection")
            let t = (tei.lowerBound + tei.upperBound) / 2
            let m = frames.moon(t)
            guard let l = KeplerArc.lambert(mu: muE, from: m.positionKm, to: splashAim, seconds: ei - t, longWay: false) else {
                throw RecipeError(description: "\(missionID): no return arc from the Moon to the entry interface")
            }
            departure = (t, (l.v1 - m.velocityKmS).normalized, (l.v1 - m.velocityKmS).length)
        }

        // Parking orbit: the launch azimuth (72°–108°, Apollo's range) whose circular orbit puts
        // the trans-lunar injection point where a two-body transfer to the target costs least.
        let rPark = 6_378.137 + parkingAltitudeKm
        let insertion = ascent.upperBound
        let padAtInsertion = frames.geo(pad.state(at: insertion, ephemeris: eph, terrestrial: c.terrestrial)).positionKm.normalized
        let earthPole = eph.orientation(.earth, at: TimeScale.instant(tdbSecondsPastJ2000: insertion)).bodyToEcliptic * Vector3(0, 0, 1)
        let east = earthPole.cross(padAtInsertion).normalized
        let localNorth = padAtInsertion.cross(east)
        // Aimed, for the choice of azimuth, at the far side of the Moon.
        let targetGeo = frames.moon(arrival).positionKm * (1 + periluneRadius / frames.moon(arrival).positionKm.length)
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
        guard let twoBodyPark = bestPark else { throw RecipeError(description: "\(missionID): no parking orbit reaches the Moon") }

        // Trans-lunar injection aimed by B-plane targeting, as flight dynamics aims a flyby: the
        // injection velocity is corrected until the approach hyperbola (the Moon's two-body
        // conic through the state 8 hours before arrival) has the wanted B vector — the
        // closest-approach radius, in the wanted plane — and its closest approach at the
        // wanted time. These targets change almost linearly with the injection velocity, where
        // the closest approach's position does not. An outer loop moves the targets by what
        // the full force model then misses (the Earth's pull during the approach).
        let muM = GravityConstants.moonGM
        let patch = arrival - 8 * 3600
        func approach(_ arc: Arc) throws -> (s: Vector3, b: Vector3, vInf: Double, closest: Double) {
            let st = try arc.state(patch), m = frames.moon(patch)
            let r = st.positionKm - m.positionKm, v = st.velocityKmS - m.velocityKmS
            let h = r.cross(v), energy = v.lengthSquared / 2 - muM / r.length
            guard energy > 0 else { throw RecipeError(description: "\(missionID): the approach is bound to the Moon 8 hours out") }
            let vInf = (2 * energy).squareRoot(), a = muM / (2 * energy)
            let eVec = v.cross(h) / muM - r.normalized, e = eVec.length
            let hh = h.normalized, ee = eVec.normalized
            let s = ee * (1 / e) + hh.cross(ee) * (1 - 1 / (e * e)).squareRoot()
            let coshF = (1 + r.length / a) / e
            let f = acosh(max(coshF, 1)) * (r.dot(v) < 0 ? -1 : 1)
            let meanAnomaly = e * sinh(f) - f
            return (s, s.cross(hh) * (h.length / vInf), vInf, patch - meanAnomaly / (muM / (a * a * a)).squareRoot())
        }
        func outbound(_ park: OrbitalState, _ x: [Double], to t: Double) throws -> Arc {
            try propagateGeo(OrbitalState(seconds: tliMid, positionKm: park.positionKm, velocityKmS: Vector3(x[0], x[1], x[2])), to: t)
        }
        /// The closest approach of an arc to the Moon near `arrival`: where r·v changes sign.
        func closest(_ arc: Arc) throws -> (seconds: Double, radius: Double, state: OrbitalState) {
            func rv(_ t: Double) throws -> Double {
                let st = try arc.state(t), m = frames.moon(t)
                return (st.positionKm - m.positionKm).dot(st.velocityKmS - m.velocityKmS)
            }
            var lo = arrival - 3 * 3600, hi = arrival + 3 * 3600
            guard try rv(lo) < 0, try rv(hi) > 0 else { throw RecipeError(description: "\(missionID): no closest approach to the Moon within 3 hours of arrival") }
            for _ in 0..<60 { let mid = (lo + hi) / 2; if try rv(mid) < 0 { lo = mid } else { hi = mid } }
            let st = try arc.state(lo)
            return (lo, (st.positionKm - frames.moon(lo).positionKm).length, st)
        }
        // The unknowns are where and when the Earth's two-body arc from the injection point
        // aims past the Moon (a point in the B-plane, and a time): the actual approach differs
        // from the aim by the Moon's and the Sun's pull, smoothly, so Newton's method on the aim
        // converges where it does not on the injection velocity itself.
        let moonAtArrival = frames.moon(arrival)
        func injection(_ park: OrbitalState) throws -> (velocity: Vector3, coast: Arc, ca: (seconds: Double, radius: Double, state: OrbitalState)) {
        let toCenter = KeplerArc.lambert(mu: muE, from: park.positionKm, to: moonAtArrival.positionKm, seconds: arrival - tliMid, longWay: false)!
        let vInf0 = toCenter.v2 - moonAtArrival.velocityKmS
        let s0 = vInf0.normalized
        let t0 = s0.cross(Vector3(0, 0, 1)).normalized, r0 = s0.cross(t0)
        func velocity(_ aim: [Double]) throws -> Vector3 {
            let at = arrival + aim[2]
            let point = frames.moon(at).positionKm + t0 * aim[0] + r0 * aim[1]
            guard let l = KeplerArc.lambert(mu: muE, from: park.positionKm, to: point, seconds: at - tliMid, longWay: false) else {
                throw RecipeError(description: "\(missionID): no two-body arc to the aim point")
            }
            return l.v1
        }
        let b0 = periluneRadius * (1 + 2 * muM / (periluneRadius * vInf0.lengthSquared)).squareRoot()
        let wanted0 = s0.cross(wantedNormal(s0)) * b0
        var aim = [wanted0.dot(t0), wanted0.dot(r0), 0]
        var aimRadius = periluneRadius, aimTime = arrival
        var coastArc: Arc?
        var x = Vector3.zero
        for _ in 0..<6 {
            let radius = aimRadius, time = aimTime
            aim = try Shooting.solve(aim, steps: [1, 1, 1], tolerance: [0.05, 0.05, 0.05]) { aim in
                let v = try velocity(aim)
                let ap = try approach(try outbound(park, [v.x, v.y, v.z], to: patch))
                let b = radius * (1 + 2 * muM / (radius * ap.vInf * ap.vInf)).squareRoot()
                let d = ap.b - ap.s.cross(wantedNormal(ap.s)) * b
                return [d.dot(t0), d.dot(r0), (ap.closest - time) * ap.vInf]
            }.x
            x = try velocity(aim)
            let arc = try outbound(park, [x.x, x.y, x.z], to: arrival + 3 * 3600)
            let ca = try closest(arc)
            coastArc = arc
            if abs(ca.radius - periluneRadius) < 0.1, abs(ca.seconds - arrival) < 0.5 { break }
            aimRadius += periluneRadius - ca.radius
            aimTime += arrival - ca.seconds
        }
        guard let coast = coastArc else { throw RecipeError(description: "\(missionID): trans-lunar injection not found") }
        return (x, coast, try closest(coast))
        }
        // The launch azimuth (within Apollo's 72°–108°) whose parking orbit needs the least
        // injection: a golden-section search about the two-body estimate.
        var lo = max(72, twoBodyPark.azimuth - 12), hi = min(108, twoBodyPark.azimuth + 12)
        func cost(_ az: Double) -> Double {
            guard let p = parking(az), let i = try? injection(p.state) else { return .infinity }
            return (i.velocity - p.state.velocityKmS).length
        }
        let golden = (5.0.squareRoot() - 1) / 2
        var c1 = hi - golden * (hi - lo), c2 = lo + golden * (hi - lo)
        var f1 = cost(c1), f2 = cost(c2)
        while hi - lo > 0.05 {
            if f1 < f2 { hi = c2; c2 = c1; f2 = f1; c1 = hi - golden * (hi - lo); f1 = cost(c1) } else { lo = c1; c1 = c2; f1 = f2; c2 = lo + golden * (hi - lo); f2 = cost(c2) }
        }
        let azimuth = (lo + hi) / 2
        guard let park = parking(azimuth) else { throw RecipeError(description: "\(missionID): no parking orbit at azimuth \(azimuth)°") }
        let solved = try injection(park.state)
        let x = solved.velocity, coast = solved.coast, ca = solved.ca
        // The parking orbit as flown: back from the injection point under J2.
        let parkingArc = try propagateGeo(park.state, to: launch)
        notes.append("Parking orbit: circular at \(Int(parkingAltitudeKm)) km, launch azimuth \((azimuth * 10).rounded() / 10)°.")
        let tliDV = (x - park.state.velocityKmS).length
        notes.append("Trans-lunar injection: \(Self.kms(tliDV)), aimed by B-plane targeting at a closest approach \(Int((ca.radius - rMoon).rounded())) km above the Moon at \(TimeScale.instant(tdbSecondsPastJ2000: ca.seconds).iso8601).")

        // The lunar orbit, as Apollo flew it: the insertion burn at the closest approach, along
        // the motion, to an ellipse with its perilune there; two revolutions later a second burn
        // (the phase named `lunar orbit circularization`) to a near-circular orbit. The two
        // free radii — the first ellipse's apolune, the second orbit's other apsis — are the ones
        // that put the orbiter where trans-Earth injection can leave along the return's
        // asymptote, and (with a lander) over the landing site at the descent.
        var lunarOrbit: (first: Arc, second: Arc, burn: ClosedRange<Double>, burnMid: Double)?
        if case .orbit = objective, let departure {
            let circularization = try c.phase(vehicle, "lunar orbit circularization")
            let secondMid = (circularization.lowerBound + circularization.upperBound) / 2
            let tei = try c.phase(vehicle, "trans-Earth injection")
            let m = frames.moon(ca.seconds)
            let r = ca.state.positionKm - m.positionKm, v = ca.state.velocityKmS - m.velocityKmS
            let normal = r.cross(v).normalized
            let along = normal.cross(r.normalized)
            func firstOrbit(_ apolune: Double) throws -> Arc {
                let a = (r.length + apolune) / 2
                let start = OrbitalState(seconds: ca.seconds, positionKm: ca.state.positionKm,
                                         velocityKmS: m.velocityKmS + along * (muM * (2 / r.length - 1 / a)).squareRoot())
                return try propagateMoon(start, to: circularization.upperBound)
            }
            func secondOrbit(_ first: Arc, _ otherApsis: Double) throws -> Arc {
                let st = try first.state(secondMid), mm = frames.moon(secondMid)
                let rr = st.positionKm - mm.positionKm, vv = st.velocityKmS - mm.velocityKmS
                let dir = rr.cross(vv).cross(rr).normalized
                let a = (rr.length + otherApsis) / 2
                let start = OrbitalState(seconds: secondMid, positionKm: st.positionKm, velocityKmS: mm.velocityKmS + dir * (muM * (2 / rr.length - 1 / a)).squareRoot())
                return try propagateMoon(start, to: tei.upperBound)
            }
            /// The angle by which `arc` misses its mark at `t`: the signed angle (about the orbit
            /// normal, in the direction of motion) from the mark to the orbiter, less `lead`.
            func miss(_ arc: Arc, at t: Double, mark: Vector3, lead: Double) throws -> Double {
                let st = try arc.state(t), mm = frames.moon(t)
                let rr = (st.positionKm - mm.positionKm), n = rr.cross(st.velocityKmS - mm.velocityKmS).normalized
                let mp = (mark - n * mark.dot(n)).normalized, p = rr.normalized
                var x = atan2(mp.cross(p).dot(n), mp.dot(p)) + lead
                while x > .pi { x -= 2 * .pi }
                while x <= -.pi { x += 2 * .pi }
                return x
            }
            // Leaving along the asymptote means the injection point lies ν∞ behind it.
            let eDep = 1 + r.length * departure.vInf * departure.vInf / muM
            let nuInf = acos(-1 / eDep)
            func teiMiss(_ first: Arc, _ other: Double) throws -> Double {
                try miss(try secondOrbit(first, other), at: departure.seconds, mark: departure.s, lead: nuInf)
            }
            /// The first value in `range` (scanned by `step`) where `f` crosses zero from above
            /// without wrapping, refined by bisection.
            func root(_ range: ClosedRange<Double>, step: Double, _ f: (Double) throws -> Double) throws -> Double? {
                var lo = range.lowerBound, fLo = try f(lo)
                while lo < range.upperBound {
                    let hi = min(lo + step, range.upperBound), fHi = try f(hi)
                    if fLo > 0, fHi <= 0, fLo - fHi < .pi {
                        var a = lo, b = hi
                        for _ in 0..<40 { let mid = (a + b) / 2; if let y = Optional(try f(mid)), !y.isNaN, y > 0 { a = mid } else { b = mid } }
                        return (a + b) / 2
                    }
                    lo = hi
                    fLo = fHi
                }
                return nil
            }
            let rP = r.length
            // The second orbit's other apsis that phases the injection, for a first apolune.
            func phasedSecond(_ apolune: Double) throws -> (first: Arc, other: Double)? {
                let first = try firstOrbit(apolune)
                let stAt = try first.state(secondMid)
                let here = (stAt.positionKm - frames.moon(secondMid).positionKm).length
                guard let other = try root((rMoon + 30)...(here + 250), step: 4, { try teiMiss(first, $0) }) else { return nil }
                return (first, other)
            }
            var chosen: (apolune: Double, first: Arc, other: Double)?
            if let overSite {
                let site = { frames.siteDirection(overSite.site, overSite.seconds) }()
                func siteMiss(_ apolune: Double) throws -> Double {
                    guard let p = try phasedSecond(apolune) else { return .nan }
                    return try miss(try secondOrbit(p.first, p.other), at: overSite.seconds, mark: site, lead: 0)
                }
                if let apolune = try root(rP...(rP + 300), step: 5, siteMiss),
                   let p = try phasedSecond(apolune) {
                    chosen = (apolune, p.first, p.other)
                }
            } else {
                let apolune = rP + 200
                if let p = try phasedSecond(apolune) { chosen = (apolune, p.first, p.other) }
            }
            guard let chosen else {
                throw RecipeError(description: "\(missionID): no lunar orbit phases trans-Earth injection\(overSite == nil ? "" : " and the descent")")
            }
            let second = try secondOrbit(chosen.first, chosen.other)
            lunarOrbit = (chosen.first, second, circularization, secondMid)
            let st2 = try chosen.first.state(secondMid)
            let here = (st2.positionKm - frames.moon(secondMid).positionKm).length
            notes.append("Lunar orbit: \(Int((rP - rMoon).rounded())) × \(Int((chosen.apolune - rMoon).rounded())) km after insertion, then \(Int((min(here, chosen.other) - rMoon).rounded())) × \(Int((max(here, chosen.other) - rMoon).rounded())) km after the second burn — radii chosen so trans-Earth injection leaves along the return asymptote\(overSite == nil ? "" : " and the orbit passes over the landing site at the descent"); normal \(Self.describe(normal)) (retrograde).")
        }

        var pieces: [PathPiece] = []
        func add(_ name: String, _ notes: [String] = [], _ a: Double, _ b: Double, step: Double, center: Int = 399, frame: Int = 1,
                 _ f: @escaping (Double) throws -> OrbitalState) {
            pieces.append(PathPiece(name: name, notes: notes, startSeconds: a, endSeconds: b, center: center, frame: frame, maxStepSeconds: step,
                                    state: { t in frames.helio(try f(t)) }))
        }
        add("Ascent (modelled)", ["From the pad to the parking orbit: a powered blend."], launch, insertion, step: 30) { t in
            frames.geo(try PoweredBlend(center: .earth, start: launch, end: insertion, ephemeris: eph,
                                        from: { pad.state(at: $0, ephemeris: eph, terrestrial: c.terrestrial) }, to: { frames.helio(try parkingArc.state($0)) }).state(at: t))
        }
        add("Parking orbit (modelled)", [], insertion, tli.lowerBound, step: 300) { try parkingArc.state($0) }
        // The post-burn coast extended back over the burn, to blend from.
        let coastBack = try propagateGeo(try coast.state(tli.upperBound), to: tli.lowerBound)
        let parkingOn = try propagateGeo(park.state, to: tli.upperBound)
        add("Trans-lunar injection (modelled)", [], tli.lowerBound, tli.upperBound, step: 20) { t in
            frames.geo(try PoweredBlend(center: .earth, start: tli.lowerBound, end: tli.upperBound, ephemeris: eph,
                                        from: { frames.helio($0 <= tliMid ? try parkingArc.state($0) : try parkingOn.state($0)) },
                                        to: { frames.helio($0 >= tliMid ? try coast.state($0) : try coastBack.state($0)) }).state(at: t))
        }

        // The return: a burn aimed at the entry interface, placed so the entry lands at the
        // splashdown site.
        func returnLeg(from state: OrbitalState, burnMid: Double) throws -> (arc: Arc, flight: EntryModel.Flight, deltaV: Double, interface: OrbitalState) {
            // The return is aimed as Apollo's were: at the entry interface's altitude at the
            // published time, inside the entry corridor, in the plane through the splashdown
            // site; the flight-path angle within the corridor sets how far the entry flies, so
            // it comes down at the site.
            let site = frames.geo(splashdown.state(at: splash, ephemeris: eph, terrestrial: c.terrestrial)).positionKm
            let interfaceRadius = 6_378.137 + 121.9
            let corridor = -6.5 * .pi / 180
            // Near the Moon the burn is solved for through the departure asymptote (the
            // velocity leaving the Moon's sphere): the return follows it almost linearly, where
            // it hangs steeply on the burn itself. Farther out, the burn directly.
            let m0 = frames.moon(burnMid)
            let rel = state.positionKm - m0.positionKm
            let nearMoon = rel.length < 40_000
            func departure(_ x: [Double]) throws -> Vector3 {
                guard nearMoon else { return state.velocityKmS + Vector3(x[0], x[1], x[2]) }
                guard let v = Self.hyperbolaVelocity(at: rel, asymptote: Vector3(x[0], x[1], x[2]), mu: GravityConstants.moonGM) else {
                    throw RecipeError(description: "\(missionID): no departure hyperbola for that asymptote")
                }
                return m0.velocityKmS + v
            }
            // First guess: the Earth's two-body arc to a point on the interface sphere 175° on
            // from the Moon, in the plane of the Moon and the site — a return that grazes the
            // Earth, as the real ones did, not one that falls straight at it.
            let from = nearMoon ? m0.positionKm : state.positionKm
            let planeNormal = from.cross(site).normalized
            let guessPoint = Self.rotate(from.normalized, about: planeNormal, by: 175 * .pi / 180) * interfaceRadius
            guard let l = KeplerArc.lambert(mu: muE, from: from, to: guessPoint, seconds: ei - burnMid, longWay: false) else {
                throw RecipeError(description: "\(missionID): no two-body return arc to the entry interface")
            }
            let guess = nearMoon ? l.v1 - m0.velocityKmS : l.v1 - state.velocityKmS
            var x = [guess.x, guess.y, guess.z]
            // The plane aimed through: the site, moved against the entry's drift across it.
            var planeTarget = site
            /// The return aimed at the interface at flight-path angle `fpa`, and where the entry
            /// (at the model's bank angle) lands: the along-track overshoot of the site, km.
            func aimed(_ fpa: Double) throws -> (arc: Arc, interface: OrbitalState, flight: EntryModel.Flight?, overshootKm: Double, velocity: Vector3) {
                x = try Shooting.solve(x, steps: [1e-6, 1e-6, 1e-6], tolerance: [0.5, 2e-5, 0.5]) { x in
                    let s = try propagateGeo(OrbitalState(seconds: burnMid, positionKm: state.positionKm, velocityKmS: try departure(x)), to: ei).state(ei)
                    let r = s.positionKm, v = s.velocityKmS
                    return [r.length - interfaceRadius, asin(r.normalized.dot(v.normalized)) - fpa, r.cross(v).normalized.dot(planeTarget)]
                }.x
                let after = try departure(x)
                let arc = try propagateGeo(OrbitalState(seconds: burnMid, positionKm: state.positionKm, velocityKmS: after), to: ei)
                let interface = try arc.state(ei)
                // Too shallow an entry skips out: it overshoots without end.
                guard let f = try? entry.fly(from: interface, landingSeconds: splash, ephemeris: eph) else { return (arc, interface, nil, .infinity, after) }
                let landed = f.states[f.states.count - 1].positionKm
                let track = interface.positionKm.cross(interface.velocityKmS).normalized
                let angle = atan2(site.normalized.cross(landed.normalized).dot(track), site.normalized.dot(landed.normalized))
                return (arc, interface, f, angle * 6_378.137, after)
            }
            var result: (arc: Arc, flight: EntryModel.Flight, velocity: Vector3, interface: OrbitalState)?
            for _ in 0..<4 {
                let attempt: (best: (arc: Arc, interface: OrbitalState, flight: EntryModel.Flight?, overshootKm: Double, velocity: Vector3), flight: EntryModel.Flight)
                do {
                    attempt = try { () throws -> (best: (arc: Arc, interface: OrbitalState, flight: EntryModel.Flight?, overshootKm: Double, velocity: Vector3), flight: EntryModel.Flight) in
                        // The flight-path angle in Apollo's corridor (−7.5° … −5.5°) that lands at the site:
                        // a shallower entry flies farther.
                        var lo = -7.5 * .pi / 180, hi = -5.5 * .pi / 180
                        var best = try aimed(corridor)
                        let steep = try aimed(lo), shallow = try aimed(hi)
                        if steep.overshootKm < 0, shallow.overshootKm > 0 {
                            var short = steep
                            for _ in 0..<30 {
                                let mid = (lo + hi) / 2
                                let m = try aimed(mid)
                                if m.flight != nil, m.overshootKm < 0 { short = m }
                                best = m
                                if abs(m.overshootKm) < 1 { break }
                                if m.overshootKm < 0 { lo = mid } else { hi = mid }
                            }
                            // Landing short at the edge of skipping out: the bank angle closes the rest.
                            if best.flight == nil || abs(best.overshootKm) >= 1 { best = short }
                        } else {
                            best = abs(steep.overshootKm) < abs(shallow.overshootKm) ? steep : shallow
                        }
                        guard var flight = best.flight else { throw RecipeError(description: "\(missionID): no entry in the corridor comes down before the splashdown time") }
                        // Beyond the corridor's reach, the bank angle (lift up flies farther; skipping out
                        // counts as flying too far) closes the rest.
                        if abs(best.overshootKm) > 1 {
                            func overshoot(_ bankDeg: Double) -> (km: Double, flight: EntryModel.Flight?) {
                                var model = entry
                                model.bankDeg = bankDeg
                                guard let f = try? model.fly(from: best.interface, landingSeconds: splash, ephemeris: eph) else { return (.infinity, nil) }
                                let landed = f.states[f.states.count - 1].positionKm
                                let track = best.interface.positionKm.cross(best.interface.velocityKmS).normalized
                                return (atan2(site.normalized.cross(landed.normalized).dot(track), site.normalized.dot(landed.normalized)) * 6_378.137, f)
                            }
                            var a = 0.0, b = 150.0
                            if overshoot(a).km > 0, overshoot(b).km < 0 {
                                for _ in 0..<40 {
                                    let mid = (a + b) / 2
                                    let m = overshoot(mid)
                                    if let f = m.flight, m.km < 0 || abs(m.km) < 1 { flight = f }
                                    if abs(m.km) < 1 { break }
                                    if m.km > 0 { a = mid } else { b = mid }
                                }
                            }
                        }
                        return (best, flight)
                    }()
                } catch {
                    // A later correction of the plane that does not solve keeps the last that did.
                    if result != nil { break }
                    throw error
                }
                let best = attempt.best, flight = attempt.flight
                result = (best.arc, flight, best.velocity, best.interface)
                let landed = flight.states[flight.states.count - 1].positionKm.normalized
                let n = best.interface.positionKm.cross(best.interface.velocityKmS).normalized
                let across = landed.dot(n) - site.normalized.dot(n)
                if abs(across) * 6_378.137 < 2 { break }
                planeTarget = (planeTarget.normalized - n * (across * 0.7)).normalized * site.length
            }
            guard let result else { throw RecipeError(description: "\(missionID): the return could not be aimed") }
            return (result.arc, result.flight, (result.velocity - state.velocityKmS).length, result.interface)
        }

        switch objective {
        case .orbit:
            let loi = try c.phase(vehicle, "lunar orbit insertion")
            let tei = try c.phase(vehicle, "trans-Earth injection")
            let teiMid = (tei.lowerBound + tei.upperBound) / 2
            guard let lunarOrbit else { throw RecipeError(description: "no lunar orbit") }
            let orbitStart = try lunarOrbit.first.state(ca.seconds)
            let orbitBack = try propagateMoon(orbitStart, to: loi.lowerBound)
            let coastOn = try propagateGeo(try coast.state(arrival), to: loi.upperBound)
            let loiDV = (orbitStart.velocityKmS - (try coast.state(ca.seconds)).velocityKmS).length
            notes.append("Lunar orbit insertion: \(Self.kms(loiDV)).")
            add("Translunar coast (modelled)", [], tli.upperBound, loi.lowerBound, step: 3600) { try coast.state($0) }
            add("Lunar orbit insertion (modelled)", [], loi.lowerBound, loi.upperBound, step: 20) { t in
                frames.geo(try PoweredBlend(center: .moon, start: loi.lowerBound, end: loi.upperBound, ephemeris: eph,
                                            from: { frames.helio($0 <= ca.seconds ? try coast.state($0) : try coastOn.state($0)) },
                                            to: { frames.helio($0 >= ca.seconds ? try lunarOrbit.first.state($0) : try orbitBack.state($0)) }).state(at: t))
            }
            let burn = lunarOrbit.burn
            add("Lunar orbit (modelled)", ["Integrated about the Moon (J2) with the Earth and the Sun pulling."], loi.upperBound, burn.lowerBound, step: 300, center: 301) { try lunarOrbit.first.state($0) }
            let secondBack = try propagateMoon(try lunarOrbit.second.state(lunarOrbit.burnMid), to: burn.lowerBound)
            let circularizationDV = (try lunarOrbit.second.state(lunarOrbit.burnMid).velocityKmS - (try lunarOrbit.first.state(lunarOrbit.burnMid)).velocityKmS).length
            notes.append("Lunar orbit circularization: \(Self.kms(circularizationDV)).")
            add("Lunar orbit circularization (modelled)", [], burn.lowerBound, burn.upperBound, step: 5) { t in
                frames.geo(try PoweredBlend(center: .moon, start: burn.lowerBound, end: burn.upperBound, ephemeris: eph,
                                            from: { frames.helio(try lunarOrbit.first.state($0)) },
                                            to: { frames.helio($0 >= lunarOrbit.burnMid ? try lunarOrbit.second.state($0) : try secondBack.state($0)) }).state(at: t))
            }
            let orbitArc = lunarOrbit.second
            add("Lunar orbit (modelled)", ["Integrated about the Moon (J2) with the Earth and the Sun pulling."], burn.upperBound, tei.lowerBound, step: 300, center: 301) { try orbitArc.state($0) }
            let teiState = try orbitArc.state(teiMid)
            let back = try returnLeg(from: teiState, burnMid: teiMid)
            notes.append("Trans-Earth injection: \(Self.kms(back.deltaV)), aimed at the entry corridor in the plane of the splashdown site; the entry \(landing(back.flight)).")
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
            notes.append("\(returnBurn): \(Self.kms(back.deltaV)), aimed at the entry corridor in the plane of the splashdown site; the entry \(landing(back.flight)).")
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
        // The ascent ends 17 km up, downrange of the site along the CSM's orbit (as Apollo's
        // LM inserted into a 17 km perilune): how far downrange, and which transfer (up to three
        // revolutions), is what keeps the transfer above the ground and costs least — the
        // speed the ascent must reach beyond a circular orbit there plus the mismatch with the
        // CSM at docking.
        let normal = (try orbitArc.state(ascent.upperBound).positionKm - mAscent.positionKm).cross(try orbitArc.state(ascent.upperBound).velocityKmS - mAscent.velocityKmS).normalized
        let siteDir = (site.state(at: ascent.lowerBound, ephemeris: eph).positionKm - frames.helio(OrbitalState(seconds: ascent.lowerBound, positionKm: frames.moon(ascent.lowerBound).positionKm, velocityKmS: .zero)).positionKm).normalized
        let mDock = frames.moon(dock)
        let csmRelative = csmAtDock.velocityKmS - mDock.velocityKmS
        var chosen: (insertion: Vector3, solution: LambertSolution, cost: Double, downrangeDeg: Double)?
        for downrange in stride(from: 5.0, through: 60.0, by: 1.0) {
            let insertion = Self.rotate(siteDir, about: normal, by: downrange * .pi / 180) * (rMoon + 17)
            let circular = normal.cross(insertion.normalized) * (muM / insertion.length).squareRoot()
            guard let solutions = try? Lambert.solutions(mu: muM, from: insertion, to: csmAtDock.positionKm - mDock.positionKm, seconds: dock - ascent.upperBound,
                                                         direction: .retrograde, maxRevolutions: 3, referenceNormal: -normal) else { continue }
            for sol in solutions where insertion.cross(sol.v1).dot(normal) > 0 && Self.periapsisRadius(r: insertion, v: sol.v1, mu: muM) > rMoon + 10 {
                let cost = (sol.v1 - circular).length + (sol.v2 - csmRelative).length
                if cost < chosen?.cost ?? .infinity { chosen = (insertion, sol, cost, downrange) }
            }
        }
        guard let chosen else { throw RecipeError(description: "\(missionID): no rendezvous transfer stays above the Moon") }
        let insertion = chosen.insertion, best = chosen.solution
        let rendezvous = KeplerArc(mu: muM, position: insertion, velocity: best.v1, epochHours: ascent.upperBound / 3600)
        func rendezvousState(_ t: Double) -> OrbitalState {
            let s = rendezvous.state(atHours: t / 3600)
            let m = frames.moon(t)
            return OrbitalState(seconds: t, positionKm: m.positionKm + s.position, velocityKmS: m.velocityKmS + s.velocity)
        }
        notes.append("Rendezvous: inserted 17 km up, \(Int(chosen.downrangeDeg))° downrange of the site; a \(best.revolutions)-revolution two-body transfer about the Moon to the CSM at docking, its lowest point \(Int((Self.periapsisRadius(r: insertion, v: best.v1, mu: muM) - rMoon).rounded())) km up (\(Self.kms((best.v2 - csmRelative).length)) to match the CSM there, taken out over the braking phase).")
        add("Ascent (modelled)", ascent.lowerBound, ascent.upperBound, step: 10) { t in
            frames.geo(try PoweredBlend(center: .moon, start: ascent.lowerBound, end: ascent.upperBound, ephemeris: eph,
                                        from: { site.state(at: $0, ephemeris: eph) }, to: { frames.helio(rendezvousState($0)) }).state(at: t))
        }
        // The last minutes: braking onto the command module (the phase after `rendezvous`),
        // a powered blend from the transfer to the CSM's own orbit.
        let braking = v.phases.last { $0.kind == .powered && c.seconds(hours: $0.endHours) >= dock - 1 }
            .map { c.seconds(hours: $0.startHours)...c.seconds(hours: $0.endHours) } ?? dock...dock
        add("Rendezvous (modelled)", ascent.upperBound, braking.lowerBound, step: 300) { rendezvousState($0) }
        if braking.upperBound > braking.lowerBound {
            add("Braking and docking (modelled)", braking.lowerBound, braking.upperBound, step: 10) { t in
                frames.geo(try PoweredBlend(center: .moon, start: braking.lowerBound, end: braking.upperBound, ephemeris: eph,
                                            from: { frames.helio(rendezvousState($0)) }, to: { frames.helio(try orbitArc.state($0)) }).state(at: t))
            }
        }
        return VehiclePath(vehicle: v, pieces: pieces, notes: notes)
    }

    /// What a rendezvous transfer costs: the speed change at insertion plus at arrival, with a
    /// penalty for going the wrong way round.
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
        var lo = 1 + 1e-12, hi = 2.0
        while (radius(hi) ?? .infinity) < rn { hi *= 2; if hi > 1e9 { return nil } }
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if let rm = radius(mid), rm < rn { lo = mid } else { hi = mid }
        }
        let e = (lo + hi) / 2, nu = acos(-1 / e) - theta
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

    /// Where the modelled entry came down, against the published splashdown.
    func landing(_ f: EntryModel.Flight) -> String {
        let rad = Double.pi / 180
        let (la1, lo1, la2, lo2) = (f.landingLatitudeDeg * rad, f.landingLongitudeDeg * rad, splashdown.latitudeDeg * rad, splashdown.longitudeDeg * rad)
        let d = acos(min(1, sin(la1) * sin(la2) + cos(la1) * cos(la2) * cos(lo1 - lo2))) * 6_371
        return "comes down at \((f.landingLatitudeDeg * 100).rounded() / 100)°, \((f.landingLongitudeDeg * 100).rounded() / 100)°, \(Int(d.rounded())) km from the published \(splashdown.latitudeDeg)°, \(splashdown.longitudeDeg)°"
    }
}
