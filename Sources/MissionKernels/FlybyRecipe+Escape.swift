import Astrodynamics
import Ephemeris
import Missions

extension FlybyRecipe {
    /// Where the integrated escape starts easing onto the conics, km from the Earth's centre:
    /// there the oblateness the conic leaves out pulls below 10⁻⁹ km/s².
    static let easeFromKm = 100_000.0
    /// The most extra acceleration the easing may add, km/s²: half the 1 mm/s² the mission walk
    /// allows outside listed burns.
    static let easeLimitKmS2 = 5e-7
    /// The easing's shortest and longest spans, seconds.
    static let easeSpanSeconds = (shortest: 6 * 3_600.0, longest: 20 * 86_400.0)

    /// The escape as gravity flies it. The conic chain's escape hyperbola is two-body: 200 km
    /// up it leaves out the Earth's oblateness (about 15 mm/s²). So from the injection the
    /// path is the chain's injection state integrated under the Earth's gravity (J2–J4, the
    /// Moon, the Sun and the planets pulling, ``ForwardArc``), and from ``easeFromKm`` out it is
    /// eased onto the conics (a quintic blend, as ``BlendedInterval`` joins two arcs) over the
    /// shortest span that adds at most ``easeLimitKmS2``. The pieces from the injection to the
    /// easing's end are replaced; the conics carry on from there unchanged.
    static func integratedEscape(_ pieces: [PathPiece], injection: Double, burns: [Double], ephemeris eph: Ephemeris,
                                 notes: inout [String]) throws -> [PathPiece] {
        guard let first = pieces.firstIndex(where: { $0.startSeconds >= injection - 1e-6 }) else { return pieces }
        let conics = PiecewisePath(pieces: Array(pieces[first...]))
        let start = try conics.state(at: injection)
        let integrated = try ForwardArc(from: start, to: injection + Self.easeSpanSeconds.longest + 10 * 86_400, ephemeris: eph)
        guard integrated.center == .earth else {
            throw RecipeError(description: "the escape from the injection must be integrated about the Earth (the dominant body there is \(integrated.center))")
        }
        // Out to the easing's start.
        let from = try reach(Self.easeFromKm, on: integrated, from: injection, step: 60, within: 10 * 86_400, what: "the escape")
        let e = try easeSpan(from: from, direction: 1, integrated: integrated, conics: conics)
        let span = e.seconds, d = e.difference, peak = e.peakKmS2
        let to = from + span
        if let b = burns.first(where: { $0 > injection && $0 <= to }) {
            throw RecipeError(description: "an impulse at \(iso(b)) falls inside the escape's easing (\(iso(injection)) to \(iso(to)))")
        }
        notes.append("Escape: from the injection the chain's injection state is integrated under the Earth's gravity (J2-J4, the Moon, the Sun and the planets pulling), which the two-body hyperbola leaves out; from \(iso(from)), \(Int(Self.easeFromKm)) km out, it is eased onto the conics over \(String(format: "%.1f", span / 3_600)) h (they are up to \(kilometres(d.km)) and \(metres(d.kmS)) apart there; at most \(String(format: "%.2f", peak * 1e6)) mm/s² extra), by \(iso(to)).")

        let ease = BlendedPair(start: from, span: span, first: { try integrated.state(at: $0) }, second: { try conics.state(at: $0) })
        var result = Array(pieces[..<first])
        result.append(PathPiece(
            name: "Escape from Earth (integrated)", notes: ["The chain's injection state integrated under the Earth's gravity (J2-J4) with the Moon, the Sun and the planets pulling."],
            startSeconds: injection, endSeconds: from, center: 399, maxStepSeconds: 600, state: { try integrated.state(at: $0) }))
        result[result.count - 1].toleranceKm = flybyToleranceKm
        result.append(PathPiece(
            name: "Escape eased onto the conics", notes: ["The integrated escape blended onto the patched conics (quintic weight over \(String(format: "%.1f", span / 3_600)) h)."],
            startSeconds: from, endSeconds: to, center: 399, maxStepSeconds: 3_600, state: { try ease.state(at: $0) }))
        for p in pieces[first...] where p.endSeconds > to {
            result.append(p.startSeconds >= to ? p : p.starting(at: to))
        }
        return result
    }
}

extension FlybyRecipe {
    /// An easing of an integrated arc onto the conics: its span, the two paths' largest
    /// differences over it, and the largest extra acceleration it adds.
    struct Ease {
        let seconds: Double
        let difference: (km: Double, kmS: Double)
        let peakKmS2: Double
    }

    /// The first time from `start`, stepping by `step` seconds (negative: backward), at which
    /// `arc` is `radiusKm` or farther from its centre; an error beyond `within` seconds.
    static func reach(_ radiusKm: Double, on arc: ForwardArc, from start: Double, step: Double, within: Double, what: String) throws -> Double {
        var t = start
        while try arc.arc.state(at: t).positionKm.length < radiusKm {
            t += step
            guard abs(t - start) < within else {
                throw RecipeError(description: "\(what) does not reach \(Int(radiusKm)) km in \(Int(within / 86_400)) days")
            }
        }
        return t
    }

    /// The shortest span from `from` (forward for `direction` 1, backward for −1) over which
    /// the integrated arc eases onto the conics adding at most ``easeLimitKmS2``: the blend's
    /// largest extra acceleration is 5.77·δr/T² + 3.75·δv/T (the quintic's largest second and
    /// first derivatives), δ the two paths' largest difference over the span.
    static func easeSpan(from: Double, direction: Double, integrated: ForwardArc, conics: PiecewisePath) throws -> Ease {
        func difference(over span: Double) throws -> (km: Double, kmS: Double) {
            try easeDifference(from: from, direction: direction, span: span, { try integrated.state(at: $0) }, { try conics.state(at: $0) })
        }
        var span = Self.easeSpanSeconds.shortest
        var d = try difference(over: span)
        while peak(d, span) > Self.easeLimitKmS2 {
            span *= 1.25
            guard span <= Self.easeSpanSeconds.longest else {
                throw RecipeError(description: "an integrated arc cannot be eased onto the conics within \(Int(Self.easeSpanSeconds.longest / 86_400)) days from \(iso(from)) (\(Int(d.km)) km apart)")
            }
            d = try difference(over: span)
        }
        return Ease(seconds: span, difference: d, peakKmS2: peak(d, span))
    }

    /// Two paths' largest differences (position, velocity) over `span` from `from` (forward for
    /// `direction` 1, backward for −1), looked at 65 times.
    static func easeDifference(from: Double, direction: Double, span: Double, _ first: (Double) throws -> OrbitalState,
                               _ second: (Double) throws -> OrbitalState) throws -> (km: Double, kmS: Double) {
        var km = 0.0, kmS = 0.0
        for k in 0...64 {
            let t = from + direction * span * Double(k) / 64
            let a = try first(t), b = try second(t)
            km = max(km, (b.positionKm - a.positionKm).length)
            kmS = max(kmS, (b.velocityKmS - a.velocityKmS).length)
        }
        return (km, kmS)
    }

    /// The largest extra acceleration a quintic blend over `span` adds between two paths that
    /// differ by `d`: 5.77·δr/T² + 3.75·δv/T (the weight's largest second and first derivatives).
    static func peak(_ d: (km: Double, kmS: Double), _ span: Double) -> Double { 5.7735 * d.km / (span * span) + 3.75 * d.kmS / span }

    /// How far out a flyby is integrated before it is eased onto the conics, km: where the
    /// body pulls with 0.3 mm/s², which the heliocentric conic beyond leaves out (Mercury
    /// 271,000 km, Venus 1.0 million, the Earth 1.2 million, Jupiter 21 million).
    static func easeRadiusKm(_ body: BodyID) -> Double { (GravityConstants.gm(body) / 3e-7).squareRoot() }

    /// Every flyby of Mercury and Venus as gravity flies it. The conics' hyperbola about the
    /// body and the conics about the Sun beyond its sphere of influence each leave out a pull
    /// (the Sun's tide, the body's own: at Mercury's sphere of influence 1.8 mm/s², at Venus's
    /// 0.9; the other planets' are under half the walk's 1 mm/s²). So about each flyby's closest
    /// approach the path is the conics' state there integrated under the body's gravity with
    /// the Sun and the planets pulling (``ForwardArc``), backward from the state before any
    /// impulse there and forward from the state after it, out to ``easeRadiusKm(_:)``, and
    /// from there eased onto the conics as the escape is. The conics carry on unchanged beyond.
    static func integratedFlybys(_ pieces: [PathPiece], flybys: [(name: String, body: BodyID, seconds: Double)], burns: [Double],
                                 data: [ClosedRange<Double>], ephemeris eph: Ephemeris, notes: inout [String]) throws -> [PathPiece] {
        var result = pieces
        for f in flybys.sorted(by: { $0.seconds < $1.seconds }) {
            let conics = PiecewisePath(pieces: result)
            let tc = f.seconds
            // Only where the conics leave out more than the budget: the body's pull where its
            // sphere of influence ends (Mercury 1.8 mm/s², Venus 0.9; the Earth 0.5, Mars 0.1,
            // the giants less) — the Earth's flybys stay on the conics.
            guard let q = eph.naifState(centerID(f.body), at: TimeScale.instant(tdbSecondsPastJ2000: tc)) else { continue }
            let soi = FlybyGeometry.sphereOfInfluenceKm(distanceKm: q.positionKm.length, mu: GravityConstants.gm(f.body), centralMu: GravityConstants.sunGM)
            guard GravityConstants.gm(f.body) / (soi * soi) > Self.easeLimitKmS2 else { continue }
            guard let before = result.last(where: { $0.startSeconds < tc && tc <= $0.endSeconds }) else { continue }
            let radius = Self.easeRadiusKm(f.body)
            // The integration from the conics' own closest approach, and where it reaches the
            // easing radius on either side.
            func integrate(inbound: OrbitalState, after: OrbitalState) throws -> (out: ForwardArc, in: ForwardArc, outFrom: Double, inFrom: Double)? {
                let outward = try ForwardArc(from: after, to: tc + Self.easeSpanSeconds.longest + 30 * 86_400, ephemeris: eph)
                let inward = try ForwardArc(from: inbound, to: tc - Self.easeSpanSeconds.longest - 30 * 86_400, ephemeris: eph)
                guard outward.center == f.body, inward.center == f.body else { return nil }
                return (outward, inward,
                        try reach(radius, on: outward, from: tc, step: 300, within: 30 * 86_400, what: "the \(f.name) flyby"),
                        try reach(radius, on: inward, from: tc, step: -300, within: 30 * 86_400, what: "the \(f.name) flyby"))
            }
            let conicAfter = try conics.state(at: tc), conicInbound = try before.state(tc)
            guard var flown = try integrate(inbound: conicInbound, after: conicAfter) else { continue }
            // A flyby whose integration cannot be eased back onto the conics gently (a slow,
            // low one the Sun's tide turns away from the two-body hyperbola) is aimed: the
            // closest approach moved, at its published distance and time, so the integration
            // meets the conics' positions some days out on both sides (``aimed``). One that
            // still cannot be eased, or whose easing would reach an impulse or trajectory data,
            // stays on the conics (said in the notes).
            var ease: (out: Ease, in: Ease)
            var aim: Aim?
            do {
                ease = (out: try easeSpan(from: flown.outFrom, direction: 1, integrated: flown.out, conics: conics),
                        in: try easeSpan(from: flown.inFrom, direction: -1, integrated: flown.in, conics: conics))
            } catch {
                do {
                    let a = try aimed(inbound: conicInbound, after: conicAfter, body: f.body, closestApproach: tc,
                                      matching: (flown.inFrom - Self.aimMarginSeconds, flown.outFrom + Self.aimMarginSeconds), conics: conics, ephemeris: eph)
                    guard let again = try integrate(inbound: a.inbound, after: a.after) else { continue }
                    flown = again
                    ease = (out: try easeSpan(from: flown.outFrom, direction: 1, integrated: flown.out, conics: conics),
                            in: try easeSpan(from: flown.inFrom, direction: -1, integrated: flown.in, conics: conics))
                    aim = a
                } catch let aimError {
                    notes.append("\(f.name): left on the conics (\(error); aimed, \(aimError)).")
                    continue
                }
            }
            let (outward, inward, outFrom, inFrom) = flown
            let start = inFrom - ease.in.seconds, end = outFrom + ease.out.seconds
            if let b = burns.first(where: { $0 > start && $0 < end && abs($0 - tc) > 1e-6 }) {
                notes.append("\(f.name): left on the conics (its integration and easing, \(iso(start)) to \(iso(end)), would hold the impulse at \(iso(b))).")
                continue
            }
            guard !data.contains(where: { $0.overlaps(start...end) }) else {
                notes.append("\(f.name): left on the conics (its integration and easing, \(iso(start)) to \(iso(end)), would reach into trajectory data).")
                continue
            }
            let easeIn = BlendedPair(start: start, span: ease.in.seconds, first: { try conics.state(at: $0) }, second: { try inward.state(at: $0) })
            let easeOut = BlendedPair(start: outFrom, span: ease.out.seconds, first: { try outward.state(at: $0) }, second: { try conics.state(at: $0) })
            let center = centerID(f.body), name = display(f.body)
            var replaced = [PathPiece(name: "\(name) flyby eased in", notes: ["The conics eased onto the flyby integrated back from the closest approach (quintic weight over \(String(format: "%.1f", ease.in.seconds / 3_600)) h)."],
                                      startSeconds: start, endSeconds: inFrom, center: center, maxStepSeconds: 3_600, state: { try easeIn.state(at: $0) })]
            var flyIn = PathPiece(name: "\(name) flyby (integrated)", notes: ["The conics' state at the closest approach integrated back under \(name)'s gravity with the Sun and the planets pulling."],
                                  startSeconds: inFrom, endSeconds: tc, center: center, maxStepSeconds: 3_600, state: { try inward.state(at: $0) })
            var flyOut = PathPiece(name: "\(name) flyby (integrated)", notes: ["The conics' state at the closest approach integrated on under \(name)'s gravity with the Sun and the planets pulling."],
                                   startSeconds: tc, endSeconds: outFrom, center: center, maxStepSeconds: 3_600, state: { try outward.state(at: $0) })
            flyIn.toleranceKm = flybyToleranceKm
            flyOut.toleranceKm = flybyToleranceKm
            replaced += [flyIn, flyOut]
            replaced.append(PathPiece(name: "\(name) flyby eased out", notes: ["The flyby integrated on from the closest approach eased onto the conics (quintic weight over \(String(format: "%.1f", ease.out.seconds / 3_600)) h)."],
                                      startSeconds: outFrom, endSeconds: end, center: center, maxStepSeconds: 3_600, state: { try easeOut.state(at: $0) }))
            guard let spliced = result.splicing(replaced, from: start, to: end) else { continue }
            result = spliced
            if let aim {
                notes.append("\(f.name): aimed, since the two-body hyperbola's closest approach integrated could not be eased back onto the conics: the closest approach moved \(kilometres(aim.movedKm)) and its velocity changed by \(metres(aim.velocityChangeKmS)), at \(kilometres(aim.distanceKm)) from the centre, so the integration meets the conics' positions \(Int(Self.aimMarginSeconds / 86_400)) days beyond the easing radius within \(kilometres(aim.missKm)).")
            }
            notes.append("\(f.name): integrated about \(name) from the closest approach (\(iso(tc))) out to \(Int(radius)) km, \(iso(inFrom)) to \(iso(outFrom)); eased onto the conics over \(String(format: "%.1f", ease.in.seconds / 3_600)) h before (up to \(kilometres(ease.in.difference.km)), \(metres(ease.in.difference.kmS)) apart; at most \(String(format: "%.2f", ease.in.peakKmS2 * 1e6)) mm/s² extra) and \(String(format: "%.1f", ease.out.seconds / 3_600)) h after (up to \(kilometres(ease.out.difference.km)), \(metres(ease.out.difference.kmS)); \(String(format: "%.2f", ease.out.peakKmS2 * 1e6)) mm/s²).")
        }
        return result
    }
}

extension FlybyRecipe {
    /// How far beyond the easing radius an aimed flyby meets the conics, seconds.
    static let aimMarginSeconds = 5 * 86_400.0

    /// A closest approach aimed so that gravity's flyby meets the conics: the state at the
    /// published distance and time, and how it was moved.
    struct Aim {
        let inbound: OrbitalState, after: OrbitalState
        let movedKm: Double, velocityChangeKmS: Double, distanceKm: Double
        /// The largest distance left between the integration and the conics at the matching times.
        let missKm: Double
    }

    /// The closest-approach state (before and after any impulse there, moved alike) whose
    /// integration under the body's gravity with the Sun and the planets pulling passes through
    /// the conics' positions at `matching` (before, after): a least-squares differential
    /// correction of the position and velocity at `closestApproach` (``Shooting``), held to the
    /// conics' distance from the body's centre (1 m) and to a closest approach (no radial
    /// velocity, 1 mm/s), the positions met as closely as those six unknowns allow (eight
    /// equations: least squares, ended early should they meet within 1,000 km; BepiColombo's
    /// third and fourth Mercury flybys are left 11,500 and 13,000 km apart, which the easing
    /// takes over a week at under 0.5 mm/s²). The two-body hyperbola leaves out
    /// the Sun's tide, which over a slow flyby turns the outgoing asymptote by a fraction of a
    /// degree: hundreds of thousands of kilometres some weeks on.
    static func aimed(inbound: OrbitalState, after: OrbitalState, body: BodyID, closestApproach tc: Double, matching: (before: Double, after: Double),
                      conics: PiecewisePath, ephemeris eph: Ephemeris) throws -> Aim {
        guard let q = eph.naifState(centerID(body), at: TimeScale.instant(tdbSecondsPastJ2000: tc)) else {
            throw RecipeError(description: "\(body) cannot be placed at the closest approach")
        }
        let r0 = after.positionKm - q.positionKm, distance = r0.length
        let targets = (before: try conics.state(at: matching.before).positionKm, after: try conics.state(at: matching.after).positionKm)
        // Unknowns: the position change (km) and the velocity change (m/s).
        func states(_ x: [Double]) -> (inbound: OrbitalState, after: OrbitalState) {
            let dr = Vector3(x[0], x[1], x[2]), dv = Vector3(x[3], x[4], x[5]) * 1e-3
            func moved(_ s: OrbitalState) -> OrbitalState {
                OrbitalState(seconds: tc, positionKm: s.positionKm + dr, velocityKmS: s.velocityKmS + dv)
            }
            return (moved(inbound), moved(after))
        }
        func residuals(_ x: [Double]) throws -> [Double] {
            let s = states(x)
            let back = try ForwardArc(from: s.inbound, to: matching.before, ephemeris: eph).state(at: matching.before).positionKm
            let on = try ForwardArc(from: s.after, to: matching.after, ephemeris: eph).state(at: matching.after).positionKm
            let r = s.after.positionKm - q.positionKm, v = s.after.velocityKmS - q.velocityKmS
            let m1 = back - targets.before, m2 = on - targets.after
            return [m1.x, m1.y, m1.z, m2.x, m2.y, m2.z, r.length - distance, r.normalized.dot(v)]
        }
        let solved = try Shooting.fit([0, 0, 0, 0, 0, 0], steps: [0.01, 0.01, 0.01, 0.01, 0.01, 0.01],
                                      tolerance: [1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 0.001, 1e-6], maxIterations: 30, residuals)
        guard abs(solved.residual[6]) <= 0.001, abs(solved.residual[7]) <= 1e-6 else {
            throw RecipeError(description: "no closest approach at \(kilometres(distance)) meets the conics (\(solved.residual))")
        }
        let s = states(solved.x), x = solved.x, m = solved.residual
        return Aim(inbound: s.inbound, after: s.after, movedKm: Vector3(x[0], x[1], x[2]).length,
                   velocityChangeKmS: Vector3(x[3], x[4], x[5]).length * 1e-3, distanceKm: (s.after.positionKm - q.positionKm).length,
                   missKm: max(Vector3(m[0], m[1], m[2]).length, Vector3(m[3], m[4], m[5]).length))
    }
}

/// Two paths joined over `[start, start + span]`: the first before, the second after, and
/// between them (1 − w)·first + w·second with ``BlendedInterval``'s weight w(s) = 10s³ − 15s⁴ +
/// 6s⁵, the velocity the derivative of the position. Heliocentric states.
struct BlendedPair {
    let start: Double, span: Double
    let first: (Double) throws -> OrbitalState
    let second: (Double) throws -> OrbitalState

    func state(at t: Double) throws -> OrbitalState {
        let s = min(max((t - start) / span, 0), 1)
        if s == 0 { return try first(t) }
        if s == 1 { return try second(t) }
        let a = try first(t), b = try second(t)
        let w = BlendedInterval.weight(s), dw = BlendedInterval.weightRate(s) / span
        return OrbitalState(seconds: t, positionKm: a.positionKm * (1 - w) + b.positionKm * w,
                            velocityKmS: a.velocityKmS * (1 - w) + b.velocityKmS * w + (b.positionKm - a.positionKm) * dw)
    }
}
