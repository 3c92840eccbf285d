import Glibc
import Ephemeris

extension FlybyChain.Builder {
    /// Segments in time order and the reports, from the converged nodes and legs; checks that
    /// no leg passes inside the centre.
    func assemble(solutions: [FlybyChain.NodeSolution], legs: [FlybyChain.LegSolution], vIn: [Vector3?], vOut: [Vector3?],
                  mismatch: Double, iterations: Int) throws(FlybyChainError) -> FlybyChain.Built {
        typealias Segment = FlybyChain.Segment
        let count = nodes.count
        var segments: [Segment] = []
        var legReports: [FlybyChain.LegReport] = []
        for k in 0..<count {
            if k > 0 {
                let leg = legs[k - 1]
                let segment = Segment(kind: .leg(k - 1), startSeconds: leg.startSeconds, endSeconds: leg.endSeconds, center: plan.center, mu: centerMu,
                                      epochSeconds: leg.startSeconds, positionKm: leg.start, velocityKmS: leg.v1)
                let minimum = Self.minimumDistance(of: segment, revolutions: leg.revolutions)
                guard minimum >= centerRadiusKm else { throw fail(k - 1, .legInsideCenter(minimumKm: minimum, radiusKm: centerRadiusKm)) }
                segments.append(segment)
                legReports.append(FlybyChain.LegReport(index: k - 1, revolutions: leg.revolutions, branch: leg.branch, direction: legPlans[k - 1].direction,
                                                      startSeconds: leg.startSeconds, endSeconds: leg.endSeconds, minimumDistanceKm: minimum))
            }
            segments += solutions[k].segments
        }
        // Flybys and their burns.
        var flybys: [FlybyChain.FlybyReport] = []
        var burns: [FlybyChain.Burn] = []
        for k in 0..<count {
            let rp: Double
            switch modes[k] {
            case .flyby(let r), .finalFlyby(let r): rp = r
            default: continue
            }
            guard let periapsis = solutions[k].periapsis, let a = vIn[k], let d = solutions[k].vOutUnpowered ?? vOut[k] else { continue }
            let mine = solutions[k].segments.filter {
                if case .inbound(let n) = $0.kind { return n == k }
                if case .outbound(let n) = $0.kind { return n == k }
                return false
            }
            var achieved = rp, achievedSeconds = nodes[k].seconds
            for segment in mine {
                let (distance, seconds) = Self.closestApproach(of: segment)
                if distance < achieved - 1e-9 {
                    achieved = distance
                    achievedSeconds = seconds
                }
            }
            let entry = mine.first?.startSeconds ?? nodes[k].seconds
            let exit: Double
            if let coast = solutions[k].segments.first(where: { $0.kind == .coast }) {
                exit = coast.startSeconds
            } else {
                exit = mine.last?.endSeconds ?? nodes[k].seconds
            }
            let unpowered = (FlybyGeometry.unpoweredTurn(vInfinity: a.length, periapsisKm: rp, mu: mu[k])
                             + FlybyGeometry.unpoweredTurn(vInfinity: d.length, periapsisKm: rp, mu: mu[k])) / 2
            flybys.append(FlybyChain.FlybyReport(node: k, body: nodes[k].body, seconds: nodes[k].seconds, closestApproachKm: rp,
                                                 achievedClosestApproachKm: achieved, achievedClosestApproachSeconds: achievedSeconds,
                                                 vInfinityIn: a, vInfinityOut: d, turnRadians: a.angle(to: d), unpoweredTurnRadians: unpowered,
                                                 deltaV: periapsis.deltaV, periapsisDirection: periapsis.direction,
                                                 sphereOfInfluenceKm: soi[k], entrySeconds: entry, exitSeconds: exit))
            if periapsis.deltaV.length > 1e-9 {
                burns.append(FlybyChain.Burn(node: k, body: nodes[k].body, seconds: nodes[k].seconds, deltaV: periapsis.deltaV, kind: .closestApproach))
            }
        }
        // Correction burns where a leg meets a sphere with a velocity the iteration left a
        // little off (below ``FlybyChain/largestPatchCorrectionKmS``).
        for (i, leg) in legs.enumerated() {
            if let v = solutions[i].outPatch?.velocity, (leg.v1 - v).length > 1e-9 {
                burns.append(FlybyChain.Burn(node: i, body: nodes[i].body, seconds: leg.startSeconds, deltaV: leg.v1 - v, kind: .patchCorrection))
            }
            if let v = solutions[i + 1].inPatch?.velocity, (v - leg.v2).length > 1e-9 {
                burns.append(FlybyChain.Burn(node: i + 1, body: nodes[i + 1].body, seconds: leg.endSeconds, deltaV: v - leg.v2, kind: .patchCorrection))
            }
        }
        burns.sort { $0.seconds < $1.seconds }
        // Departure.
        let departure: FlybyChain.DepartureReport
        let first = legs[0]
        switch modes[0] {
        case .escape(let r0):
            let escape = solutions[0].segments[0]
            departure = FlybyChain.DepartureReport(body: nodes[0].body, seconds: nodes[0].seconds, vInfinity: vOut[0], injectionRadiusKm: r0,
                                                   injectionSpeedKmS: escape.velocityKmS.length, exitSeconds: escape.endSeconds)
        case .centralPerigee(let r0):
            departure = FlybyChain.DepartureReport(body: nodes[0].body, seconds: nodes[0].seconds, vInfinity: nil, injectionRadiusKm: r0,
                                                   injectionSpeedKmS: first.v1.length, exitSeconds: nil)
        default:
            departure = FlybyChain.DepartureReport(body: nodes[0].body, seconds: nodes[0].seconds, vInfinity: first.v1 - body(0, first.startSeconds).velocity,
                                                   injectionRadiusKm: nil, injectionSpeedKmS: nil, exitSeconds: nil)
        }
        // Arrival.
        var arrival: FlybyChain.ArrivalReport?
        let last = count - 1
        if nodes[last].kind == .arrival {
            let final = legs[legs.count - 1]
            switch modes[last] {
            case let .approach(endRadius, rp):
                let approach = solutions[last].segments[0]
                let end = approach.conicState(atSeconds: nodes[last].seconds)
                let gamma = asin(max(-1, min(1, end.position.dot(end.velocity) / (end.position.length * end.velocity.length))))
                arrival = FlybyChain.ArrivalReport(body: nodes[last].body, seconds: nodes[last].seconds, vInfinity: vIn[last], periapsisKm: rp,
                                                   periapsisSeconds: solutions[last].approachPeriapsis?.seconds, endRadiusKm: endRadius,
                                                   endSpeedKmS: end.velocity.length, flightPathAngleRadians: gamma, entrySeconds: approach.startSeconds)
            case .centralPerigee(let r):
                arrival = FlybyChain.ArrivalReport(body: nodes[last].body, seconds: nodes[last].seconds, vInfinity: nil, periapsisKm: r,
                                                   periapsisSeconds: nodes[last].seconds, endRadiusKm: r, endSpeedKmS: final.v2.length,
                                                   flightPathAngleRadians: 0, entrySeconds: nil)
            default:
                arrival = FlybyChain.ArrivalReport(body: nodes[last].body, seconds: nodes[last].seconds,
                                                   vInfinity: final.v2 - body(last, final.endSeconds).velocity, periapsisKm: nil, periapsisSeconds: nil,
                                                   endRadiusKm: nil, endSpeedKmS: nil, flightPathAngleRadians: nil, entrySeconds: nil)
            }
        }
        return FlybyChain.Built(segments: segments, departure: departure, flybys: flybys, arrival: arrival, legs: legReports,
                                burns: burns, mismatch: mismatch, iterations: iterations)
    }

    /// The closest distance of a segment's conic to its centre over its span: the periapsis if
    /// it lies inside the span (for a leg of one revolution or more it always does), else the
    /// nearer end.
    static func minimumDistance(of segment: FlybyChain.Segment, revolutions: Int) -> Double {
        let a = segment.conicState(atSeconds: segment.startSeconds), b = segment.conicState(atSeconds: segment.endSeconds)
        if revolutions > 0 {
            let h = a.position.cross(a.velocity)
            let e = (a.velocity.cross(h) / segment.mu - a.position.normalized).length
            return min(a.position.length, b.position.length, h.lengthSquared / (segment.mu * (1 + e)))
        }
        return KeplerArc.minimumDistance(mu: segment.mu, from: a, to: b)
    }

    /// A body-centred segment's closest approach (distance, time): at an end unless its conic's
    /// periapsis falls inside, then located by golden-section search on the distance.
    static func closestApproach(of segment: FlybyChain.Segment) -> (Double, Double) {
        let a = segment.conicState(atSeconds: segment.startSeconds), b = segment.conicState(atSeconds: segment.endSeconds)
        let minimum = KeplerArc.minimumDistance(mu: segment.mu, from: a, to: b)
        if minimum >= a.position.length - 1e-9 { return (a.position.length, segment.startSeconds) }
        if minimum >= b.position.length - 1e-9 { return (b.position.length, segment.endSeconds) }
        var lo = segment.startSeconds, hi = segment.endSeconds
        let ratio = (5.0.squareRoot() - 1) / 2
        for _ in 0..<200 where hi - lo > 1e-4 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if segment.conicState(atSeconds: m1).position.length < segment.conicState(atSeconds: m2).position.length { hi = m2 } else { lo = m1 }
        }
        return (minimum, (lo + hi) / 2)
    }
}
