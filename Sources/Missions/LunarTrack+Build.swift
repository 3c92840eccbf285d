#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ephemeris

/// What building tracks needs from the engine, as values and closures (mission hours in).
struct LunarTrackContext {
    /// km³/s².
    let mu: Double
    let moonRadiusKm: Double
    /// Where the Moon's gravity takes over from the Earth's (patched conics): inside it a
    /// vehicle moves on a Moon-centred conic.
    let sphereOfInfluenceKm: Double
    /// Geocentric ecliptic J2000 km, and km/s.
    let moonPosition: (Double) -> Vector3
    let moonVelocity: (Double) -> Vector3
    let moonBodyToEcliptic: (Double) -> Matrix3
    /// A vehicle's authored curve (geocentric km), carried onto the true Moon near it
    /// (``MissionEngine/authoredPath(_:atHours:moonKm:)``).
    let curve: (ResolvedVehicle, Double) -> Vector3

    /// Half-width of the blend where the authored path hands over to a conic, at most.
    static let joinHalfWidthHours = 0.5
    /// How far from the orbit insertion, injection or periapsis the hand-over may lie, and the
    /// step of the search.
    static let junctionHours = 1.0...24.0
    static let junctionStepHours = 0.25
    /// How long a flyby's path takes to ease back onto the authored one after leaving the
    /// sphere of influence.
    static let rejoinHours = 24.0
    /// Scan steps over a full turn for a free angle (an orbit's phase, a flyby's periapsis
    /// direction), and the refinement steps over one coarse step either side.
    static let coarseSteps = 180
    static let fineSteps = 50
}

/// A candidate hand-over point on the authored path, relative to the Moon.
struct Junction {
    let hours: Double
    /// The vehicle's span ends here: nothing to blend with.
    let atSpanEnd: Bool
    /// km and km/s, Moon-relative.
    let position: Vector3
    let velocity: Vector3
}

/// A conic joining the authored path to a state near the Moon (or leaving it): where it meets
/// the curve, and the velocity changes it needs — the burn at the Moon end (insertion or
/// injection) and the mismatch with the curve's velocity at the hand-over.
struct Hop {
    let arc: KeplerArc
    let junction: Junction
    let burnKmS: Double
    let mismatchKmS: Double
    /// Velocity on the arc at its Moon end.
    let moonEndVelocity: Vector3

    var cost: Double { burnKmS + mismatchKmS }
    var junctionHours: Double { junction.hours }
    /// The vehicle's span ends before the hand-over: it starts (or ends) on the arc.
    var atSpanEnd: Bool { junction.atSpanEnd }

    func withBurn(_ kmS: Double) -> Hop {
        Hop(arc: arc, junction: junction, burnKmS: kmS, mismatchKmS: mismatchKmS, moonEndVelocity: moonEndVelocity)
    }
}

extension LunarTrack {
    /// One track per vehicle of the mission (nil where the physics does not touch the vehicle,
    /// or could not be built: telemetry then falls back to the marker).
    static func build(_ physics: LunarPhysics, vehicles: [ResolvedVehicle], context c: LunarTrackContext) -> [LunarTrack?] {
        if let orbit = physics.orbit {
            return buildOrbit(orbit, landing: physics.landing, vehicles: vehicles, context: c)
        }
        if let flyby = physics.flyby {
            return vehicles.map { buildFlyby(flyby, vehicle: $0, context: c) }
        }
        return vehicles.map { _ in nil }
    }

    // MARK: - Lunar orbit missions

    static func buildOrbit(_ o: LunarPhysics.Orbit, landing: LunarPhysics.Landing?, vehicles: [ResolvedVehicle], context c: LunarTrackContext) -> [LunarTrack?] {
        // Apollo's lunar orbits were near-equatorial and ran east to west (the landings were flown
        // westward, the low morning Sun behind the LM): the Moon's equator, retrograde.
        let pole = c.moonBodyToEcliptic(landing?.startHours ?? o.startHours) * Vector3(0, 0, 1)
        let (e1, e2) = planeBasis(normal: -pole.normalized)
        var orbit = LunarCircularOrbit(radiusKm: c.moonRadiusKm + o.altitudeKm, mu: c.mu, e1: e1, e2: e2, epochHours: o.startHours, phaseAtEpoch: 0)
        let floor = c.moonRadiusKm

        if let landing {
            // The orbit passes over the site halfway through the powered descent, so the lander
            // descends from it (see `TrackPiece.descent`).
            let over = landing.startHours - landing.descentHours / 2
            orbit = orbit.passing(over: siteDirection(landing, atHours: over, context: c), atHours: over)
        } else if let through = vehicles.first(where: { $0.vehicle.primary && $0.spanHours.lowerBound < o.startHours && $0.spanHours.upperBound > o.endHours })
                    ?? vehicles.first(where: { $0.spanHours.lowerBound < o.startHours && $0.spanHours.upperBound > o.endHours }) {
            // No landing to pin it: the phase at insertion that needs the least velocity change
            // at insertion, injection and the two hand-overs. The hand-over times and the phase
            // are chosen in turn (each search with the other fixed), twice.
            var phase = 0.0
            for _ in 0..<2 {
                let candidate = orbit.withPhase(phase, atHours: o.startHours)
                guard let a = arrive(through, to: candidate.position(atHours: o.startHours), velocity: candidate.velocity(atHours: o.startHours), atHours: o.startHours, floorKm: floor, context: c),
                      let d = depart(through, from: candidate.position(atHours: o.endHours), velocity: candidate.velocity(atHours: o.endHours), atHours: o.endHours, floorKm: floor, context: c)
                else { break }
                phase = minimise { phi in
                    let trial = orbit.withPhase(phi, atHours: o.startHours)
                    guard let a = arrive(through, to: trial.position(atHours: o.startHours), velocity: trial.velocity(atHours: o.startHours), atHours: o.startHours,
                                         floorKm: floor, context: c, junctions: [a.junction]),
                          let d = depart(through, from: trial.position(atHours: o.endHours), velocity: trial.velocity(atHours: o.endHours), atHours: o.endHours,
                                         floorKm: floor, context: c, junctions: [d.junction])
                    else { return .infinity }
                    return a.cost + d.cost
                }
            }
            orbit = orbit.withPhase(phase, atHours: o.startHours)
        }

        return vehicles.map { v in
            let span = v.spanHours
            guard span.upperBound > o.startHours, span.lowerBound < o.endHours else { return nil }
            var segments: [TrackSegment] = []
            // Arrival: the curve, then a conic to insertion.
            if span.lowerBound < o.startHours {
                guard let a = arrive(v, to: orbit.position(atHours: o.startHours), velocity: orbit.velocity(atHours: o.startHours), atHours: o.startHours, floorKm: floor, context: c)
                else { return nil }
                segments += lead(into: a, span: span, until: o.startHours)
            }
            // In orbit; the lander's descent, stay and ascent.
            let first = max(span.lowerBound, o.startHours), last = min(span.upperBound, o.endHours)
            let inserted = span.lowerBound < o.startHours
            var after = orbit
            if let landing, landing.vehicleID == v.vehicle.id {
                let site = siteBodyFixed(landing)
                let pdi = landing.startHours - landing.descentHours, insertion = landing.endHours + landing.ascentHours
                let over = landing.endHours + landing.ascentHours / 2
                after = orbit.passing(over: siteDirection(landing, atHours: over, context: c), atHours: over)
                segments += [
                    TrackSegment(startHours: first, endHours: pdi, piece: .orbit(orbit), afterBurn: inserted),
                    TrackSegment(startHours: pdi, endHours: landing.startHours, piece: .descent(orbit, site: site)),
                    TrackSegment(startHours: landing.startHours, endHours: landing.endHours, piece: .surface(site: site)),
                    TrackSegment(startHours: landing.endHours, endHours: insertion, piece: .ascent(after, site: site)),
                    TrackSegment(startHours: insertion, endHours: last, piece: .orbit(after)),
                ].filter { $0.endHours > $0.startHours }
            } else {
                segments.append(TrackSegment(startHours: first, endHours: last, piece: .orbit(orbit), afterBurn: inserted))
            }
            // Departure: a conic from injection, then the curve.
            if span.upperBound > o.endHours {
                guard let d = depart(v, from: after.position(atHours: o.endHours), velocity: after.velocity(atHours: o.endHours), atHours: o.endHours, floorKm: floor, context: c)
                else { return nil }
                var departure = trail(from: d, startHours: o.endHours, span: span)
                departure[0].afterBurn = true
                segments += departure
            }
            return LunarTrack(segments: segments, moonRadiusKm: c.moonRadiusKm)
        }
    }

    // MARK: - Flybys

    static func buildFlyby(_ f: LunarPhysics.Flyby, vehicle v: ResolvedVehicle, context c: LunarTrackContext) -> LunarTrack? {
        let span = v.spanHours
        let tf = f.timeHours
        guard span.lowerBound < tf, span.upperBound > tf else { return nil }
        let rp = c.moonRadiusKm + f.altitudeKm, floor = rp - 1
        // Inbound: one conic from the authored path that reaches the flyby altitude at the flyby
        // time moving horizontally — a true periapsis, so the closest approach is the data's.
        // The sense in which the authored path goes round the Moon (its Moon-relative angular
        // momentum over the six hours either side) fixes the plane of the conic, tilted to
        // contain the hand-over point. Free returns swing round the far side: periapses facing
        // away from the Earth come first, then the least mismatch at the hand-over.
        var sense = Vector3.zero
        for k in -6...6 {
            let t = tf + Double(k), dt = 1.0 / 60
            guard span.contains(t - dt), span.contains(t + dt) else { continue }
            let d = c.curve(v, t) - c.moonPosition(t)
            let rate = (c.curve(v, t + dt) - c.moonPosition(t + dt)) - (c.curve(v, t - dt) - c.moonPosition(t - dt))
            sense += d.normalized.cross(rate.normalized)
        }
        let awayFromEarth = c.moonPosition(tf).normalized
        var inbound: (hop: Hop, farSide: Bool)?
        for j in junctionCandidates(v, from: tf, direction: -1, context: c) {
            let e1 = j.position.normalized
            var normal = sense - e1 * sense.dot(e1)
            if normal.length < 1e-9 { normal = Vector3(0, 0, 1) - e1 * e1.z }
            let e2 = normal.normalized.cross(e1)
            for hop in periapsisArcs(from: j, to: tf, radiusKm: rp, floorKm: floor, e1: e1, e2: e2, context: c) {
                let farSide = hop.arc.state(atHours: tf).position.dot(awayFromEarth) > 0
                if let best = inbound, best.farSide && !farSide || best.farSide == farSide && best.hop.cost <= hop.cost { continue }
                inbound = (hop, farSide)
            }
        }
        guard let inbound = inbound?.hop else { return nil }
        // Outbound: the same conic leaves the Moon (no burn at a free-return periapsis).
        return LunarTrack(segments: lead(into: inbound, span: span, until: tf) + departing(on: inbound.arc, from: tf, span: span, context: c),
                          moonRadiusKm: c.moonRadiusKm)
    }

    /// The conics from the hand-over `j` that arrive at `radiusKm` at `t` moving horizontally
    /// (periapsis there), the periapsis direction searched in the plane (e1, e2); each with
    /// its mismatch against the curve at the hand-over as cost.
    static func periapsisArcs(from j: Junction, to t: Double, radiusKm rp: Double, floorKm: Double, e1: Vector3, e2: Vector3, context c: LunarTrackContext) -> [Hop] {
        let seconds = (t - j.hours) * 3600
        func arc(_ psi: Double, longWay: Bool) -> (v1: Vector3, radialVelocity: Double, valid: Bool)? {
            let peri = (e1 * cos(psi) + e2 * sin(psi)) * rp
            guard let s = KeplerArc.lambert(mu: c.mu, from: j.position, to: peri, seconds: seconds, longWay: longWay) else { return nil }
            let valid = KeplerArc.minimumDistance(mu: c.mu, from: (j.position, s.v1), to: (peri, s.v2)) >= floorKm
                && s.v1.lengthSquared / 2 > c.mu / j.position.length
            return (s.v1, s.v2.dot(peri) / rp, valid)
        }
        // Arriving tangentially is the edge between arcs that are still falling (valid) and arcs
        // that passed a lower periapsis already: look for the sign change of the radial
        // velocity, then bisect it.
        var out: [Hop] = []
        let steps = LunarTrackContext.coarseSteps
        for longWay in [false, true] {
            var previous: (psi: Double, radial: Double)?
            for k in 0...steps {
                let psi = 2 * Double.pi * Double(k) / Double(steps)
                guard let a = arc(psi, longWay: longWay) else { previous = nil; continue }
                defer { previous = (psi, a.radialVelocity) }
                guard let p = previous, (p.radial < 0) != (a.radialVelocity < 0) else { continue }
                var lo = p.psi, hi = psi
                let loSign = p.radial < 0
                for _ in 0..<50 {
                    let mid = (lo + hi) / 2
                    guard let m = arc(mid, longWay: longWay) else { break }
                    if (m.radialVelocity < 0) == loSign { lo = mid } else { hi = mid }
                }
                // The falling side of the root: still valid, radial speed a few mm/s at most.
                let root = loSign ? lo : hi
                guard let r = arc(root, longWay: longWay), r.valid, abs(r.radialVelocity) < 1e-3 else { continue }
                let arcState = KeplerArc(mu: c.mu, position: j.position, velocity: r.v1, epochHours: j.hours)
                out.append(Hop(arc: arcState, junction: j, burnKmS: 0, mismatchKmS: j.atSpanEnd ? 0 : (r.v1 - j.velocity).length,
                               moonEndVelocity: arcState.state(atHours: t).velocity))
            }
        }
        return out
    }

    // MARK: - Hand-overs

    /// The hand-over points to try before (or after) `t`: 1 to 24 h away in quarter hours where
    /// the authored path is inside the Moon's sphere of influence (patched conics: outside it
    /// the Earth's pull dominates and a Moon-centred conic means little) but at least a quarter
    /// of its radius out (closer in, the authored path only heads for the Moon's centre, where
    /// the seeds anchor it); the one nearest half the radius if none is; the end of the
    /// vehicle's span if that comes first.
    static func junctionCandidates(_ v: ResolvedVehicle, from t: Double, direction: Double, context c: LunarTrackContext) -> [Junction] {
        let limit = direction < 0 ? v.spanHours.lowerBound : v.spanHours.upperBound
        let window = LunarTrackContext.junctionHours
        let band = c.sphereOfInfluenceKm / 4...c.sphereOfInfluenceKm
        var inside: [Double] = []
        var nearest: (hours: Double, miss: Double)?
        var h = window.lowerBound
        while h <= window.upperBound {
            let tj = t + direction * h
            if (tj - limit) * direction >= 0 { break }
            let d = (c.curve(v, tj) - c.moonPosition(tj)).length
            if band.contains(d) { inside.append(tj) }
            let miss = abs(d - c.sphereOfInfluenceKm / 2)
            if miss < nearest?.miss ?? .infinity { nearest = (tj, miss) }
            h += LunarTrackContext.junctionStepHours
        }
        if inside.isEmpty, let nearest { inside.append(nearest.hours) }
        var out = inside.map { junction(v, atHours: $0, context: c) }
        if out.isEmpty || abs(limit - t) <= window.upperBound { out.append(junction(v, atHours: limit, context: c)) }
        return out
    }

    /// The curve at `t` relative to the Moon; its velocity by central difference over two
    /// minutes inside the span (zero at a span end, where nothing is blended).
    static func junction(_ v: ResolvedVehicle, atHours t: Double, context c: LunarTrackContext) -> Junction {
        let span = v.spanHours
        let atEnd = t <= span.lowerBound || t >= span.upperBound
        let p = c.curve(v, t) - c.moonPosition(t)
        guard !atEnd else { return Junction(hours: t, atSpanEnd: true, position: p, velocity: .zero) }
        let h = 1.0 / 60
        let a = max(t - h, span.lowerBound), b = min(t + h, span.upperBound)
        let curveV = (c.curve(v, b) - c.curve(v, a)) / ((b - a) * 3600)
        return Junction(hours: t, atSpanEnd: false, position: p, velocity: curveV - c.moonVelocity(t))
    }

    /// Every valid conic from the curve (at each of `junctions`, default the candidates) to
    /// `target` at `t1`, both ways round, staying at least `floorKm` from the Moon's centre and,
    /// if `escaping`, unbound (a vehicle from beyond the sphere of influence arrives on a
    /// hyperbola).
    static func hops(arriving v: ResolvedVehicle, at target: Vector3, atHours t1: Double, floorKm: Double, context c: LunarTrackContext,
                     junctions: [Junction]? = nil, escaping: Bool = true) -> [Hop] {
        var out: [Hop] = []
        for j in junctions ?? junctionCandidates(v, from: t1, direction: -1, context: c) where j.hours < t1 {
            for longWay in [false, true] {
                guard let s = KeplerArc.lambert(mu: c.mu, from: j.position, to: target, seconds: (t1 - j.hours) * 3600, longWay: longWay),
                      KeplerArc.minimumDistance(mu: c.mu, from: (j.position, s.v1), to: (target, s.v2)) >= floorKm,
                      !escaping || s.v1.lengthSquared / 2 > c.mu / j.position.length
                else { continue }
                out.append(Hop(arc: KeplerArc(mu: c.mu, position: j.position, velocity: s.v1, epochHours: j.hours), junction: j,
                               burnKmS: 0, mismatchKmS: j.atSpanEnd ? 0 : (s.v1 - j.velocity).length, moonEndVelocity: s.v2))
            }
        }
        return out
    }

    /// Every valid conic from `start` at `t0` to the curve at each of `junctions` (default the
    /// candidates), both ways round; if `escaping`, unbound (it leaves the Moon for good).
    static func hops(leaving v: ResolvedVehicle, from start: Vector3, atHours t0: Double, floorKm: Double, context c: LunarTrackContext,
                     junctions: [Junction]? = nil, escaping: Bool = true) -> [Hop] {
        var out: [Hop] = []
        for j in junctions ?? junctionCandidates(v, from: t0, direction: 1, context: c) where j.hours > t0 {
            for longWay in [false, true] {
                guard let s = KeplerArc.lambert(mu: c.mu, from: start, to: j.position, seconds: (j.hours - t0) * 3600, longWay: longWay),
                      KeplerArc.minimumDistance(mu: c.mu, from: (start, s.v1), to: (j.position, s.v2)) >= floorKm,
                      !escaping || s.v2.lengthSquared / 2 > c.mu / j.position.length
                else { continue }
                out.append(Hop(arc: KeplerArc(mu: c.mu, position: start, velocity: s.v1, epochHours: t0), junction: j,
                               burnKmS: 0, mismatchKmS: j.atSpanEnd ? 0 : (s.v2 - j.velocity).length, moonEndVelocity: s.v1))
            }
        }
        return out
    }

    /// The cheapest arrival at `target` moving with `velocity` at `t1`: burn plus hand-over mismatch.
    /// (Hyperbolic arcs if there are any, bound ones otherwise.)
    static func arrive(_ v: ResolvedVehicle, to target: Vector3, velocity: Vector3, atHours t1: Double, floorKm: Double, context c: LunarTrackContext, junctions: [Junction]? = nil) -> Hop? {
        let unbound = hops(arriving: v, at: target, atHours: t1, floorKm: floorKm, context: c, junctions: junctions)
        return (unbound.isEmpty ? hops(arriving: v, at: target, atHours: t1, floorKm: floorKm, context: c, junctions: junctions, escaping: false) : unbound)
            .map { $0.withBurn(($0.moonEndVelocity - velocity).length) }
            .min { $0.cost < $1.cost }
    }

    /// The cheapest departure from `start` moving with `velocity` at `t0`, handing over where the
    /// authored path leaves the sphere of influence (the last candidate), as patched conics do.
    static func depart(_ v: ResolvedVehicle, from start: Vector3, velocity: Vector3, atHours t0: Double, floorKm: Double, context c: LunarTrackContext, junctions: [Junction]? = nil) -> Hop? {
        let junctions = junctions ?? junctionCandidates(v, from: t0, direction: 1, context: c).max { $0.hours < $1.hours }.map { [$0] }
        let unbound = hops(leaving: v, from: start, atHours: t0, floorKm: floorKm, context: c, junctions: junctions)
        return (unbound.isEmpty ? hops(leaving: v, from: start, atHours: t0, floorKm: floorKm, context: c, junctions: junctions, escaping: false) : unbound)
            .map { $0.withBurn(($0.moonEndVelocity - velocity).length) }
            .min { $0.cost < $1.cost }
    }

    /// The authored path, then the blend onto the hop's arc around the hand-over, then the arc
    /// until `end`.
    static func lead(into hop: Hop, span: ClosedRange<Double>, until end: Double) -> [TrackSegment] {
        let tj = hop.junctionHours
        let tau = hop.atSpanEnd ? 0 : min(LunarTrackContext.joinHalfWidthHours, (end - tj) / 4, (tj - span.lowerBound) / 2)
        guard tau > 0 else { return [TrackSegment(startHours: span.lowerBound, endHours: end, piece: .arc(hop.arc))] }
        return [
            TrackSegment(startHours: span.lowerBound, endHours: tj - tau, piece: .curve),
            TrackSegment(startHours: tj - tau, endHours: tj + tau, piece: .join(hop.arc, towardArc: true)),
            TrackSegment(startHours: tj + tau, endHours: end, piece: .arc(hop.arc)),
        ].filter { $0.endHours > $0.startHours }
    }

    /// The hop's arc from `start` (injection), the blend back onto the authored path around the
    /// hand-over, then the path.
    static func trail(from hop: Hop, startHours start: Double, span: ClosedRange<Double>) -> [TrackSegment] {
        let tj = hop.junctionHours
        let tau = hop.atSpanEnd ? 0 : min(LunarTrackContext.joinHalfWidthHours, (tj - start) / 4, (span.upperBound - tj) / 2)
        guard tau > 0 else { return [TrackSegment(startHours: start, endHours: span.upperBound, piece: .arc(hop.arc))] }
        return [
            TrackSegment(startHours: start, endHours: tj - tau, piece: .arc(hop.arc)),
            TrackSegment(startHours: tj - tau, endHours: tj + tau, piece: .join(hop.arc, towardArc: false)),
            TrackSegment(startHours: tj + tau, endHours: span.upperBound, piece: .curve),
        ].filter { $0.endHours > $0.startHours }
    }

    /// Leaving the Moon on `arc` from `start` (a flyby: no burn) until it is back at the edge of
    /// the sphere of influence, then easing onto the authored path over a day, then the path.
    /// The seeds' decorative flybys pass tens of thousands of km from the Moon, so the two
    /// differ by that much: spread over a day out where the Earth's pull dominates anyway,
    /// rather than near the Moon.
    static func departing(on arc: KeplerArc, from start: Double, span: ClosedRange<Double>, context c: LunarTrackContext) -> [TrackSegment] {
        var exit = start
        while exit < span.upperBound, arc.state(atHours: exit).position.length < c.sphereOfInfluenceKm { exit += 0.25 }
        exit = min(exit, span.upperBound)
        let rejoin = min(exit + LunarTrackContext.rejoinHours, span.upperBound)
        return [
            TrackSegment(startHours: start, endHours: exit, piece: .arc(arc)),
            TrackSegment(startHours: exit, endHours: rejoin, piece: .join(arc, towardArc: false)),
            TrackSegment(startHours: rejoin, endHours: span.upperBound, piece: .curve),
        ].filter { $0.endHours > $0.startHours }
    }

    // MARK: - Geometry

    /// An orthonormal basis (e1, e2) of the plane with normal `n`, e1 × e2 = n.
    static func planeBasis(normal n: Vector3) -> (Vector3, Vector3) {
        var e1 = Vector3(0, 0, 1).cross(n)
        if e1.length < 1e-6 { e1 = Vector3(1, 0, 0).cross(n) }
        e1 = e1.normalized
        return (e1, n.cross(e1))
    }

    static func siteBodyFixed(_ l: LunarPhysics.Landing) -> Vector3 {
        let lat = l.latitudeDeg * Angle.radiansPerDegree, lon = l.longitudeDeg * Angle.radiansPerDegree
        return Vector3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat))
    }

    static func siteDirection(_ l: LunarPhysics.Landing, atHours t: Double, context c: LunarTrackContext) -> Vector3 {
        (c.moonBodyToEcliptic(t) * siteBodyFixed(l)).normalized
    }

    /// The angle in [0, 2π) minimising `cost`: a 2° grid, then a fine grid around the best.
    static func minimise(_ cost: (Double) -> Double) -> Double {
        let coarse = 2 * Double.pi / Double(LunarTrackContext.coarseSteps)
        var best = 0.0, bestCost = Double.infinity
        for k in 0..<LunarTrackContext.coarseSteps {
            let x = Double(k) * coarse
            let v = cost(x)
            if v < bestCost { (best, bestCost) = (x, v) }
        }
        let centre = best
        for k in -LunarTrackContext.fineSteps...LunarTrackContext.fineSteps {
            let x = centre + Double(k) * coarse / Double(LunarTrackContext.fineSteps)
            let v = cost(x)
            if v < bestCost { (best, bestCost) = (x, v) }
        }
        return best
    }
}
