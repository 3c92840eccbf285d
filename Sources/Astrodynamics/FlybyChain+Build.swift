import Glibc
import Ephemeris

extension FlybyChain {
    /// Builds the chain (see the type's documentation for the method). Throws a
    /// ``FlybyChainError`` naming the node for any plan that cannot be built: nodes out of
    /// order, a distance below a body's radius, a time outside the ephemeris, a leg without
    /// the requested Lambert solution, patch points that do not settle.
    public init(plan: FlybyPlan, ephemeris: Ephemeris) throws(FlybyChainError) {
        let builder = try Builder(plan: plan, ephemeris: ephemeris)
        let built = try builder.build()
        self.plan = plan
        self.bodyStates = builder.bodies
        self.startSeconds = plan.nodes[0].seconds
        self.endSeconds = builder.endSeconds
        self.segments = built.segments
        self.departure = built.departure
        self.flybys = built.flybys
        self.arrival = built.arrival
        self.legs = built.legs
        self.burns = built.burns
        self.maximumPatchMismatchKmS = built.mismatch
        self.iterations = built.iterations
    }

    /// How each node joins its legs.
    enum Mode {
        /// Departure at the periapsis of an escape hyperbola this far from the body's centre.
        case escape(radiusKm: Double)
        /// Departure from, or arrival at, the body's centre (no hyperbola).
        case bodyCenter
        /// Departure from, or arrival at, the chain's own centre: the leg's perigee at this
        /// distance.
        case centralPerigee(radiusKm: Double)
        /// A flyby with legs on both sides.
        case flyby(periapsisKm: Double)
        /// The last flyby, followed by the open end's coast.
        case finalFlyby(periapsisKm: Double)
        /// Arrival on an approach hyperbola.
        case approach(endRadiusKm: Double, periapsisKm: Double)
        /// Departure from, or arrival at, a point relative to the centre (no hyperbola, any
        /// velocity).
        case point(Vector3)
    }

    /// A leg's end: centre-relative position and time, with the velocity of the hyperbola there
    /// (nil where the leg may start or end with any velocity: a body's centre).
    struct Patch {
        var seconds: Double
        var position: Vector3
        var velocity: Vector3?
    }

    /// One node as built from the current asymptotes.
    struct NodeSolution {
        var inPatch: Patch?
        var outPatch: Patch?
        var segments: [Segment] = []
        var periapsis: FlybyGeometry.Periapsis?
        var vOutUnpowered: Vector3?
        /// Approach hyperbola periapsis time and state (arrivals).
        var approachPeriapsis: (seconds: Double, position: Vector3, velocity: Vector3)?
    }

    /// One leg as solved.
    struct LegSolution {
        var startSeconds: Double
        var endSeconds: Double
        var start: Vector3
        var end: Vector3
        var v1: Vector3
        var v2: Vector3
        var revolutions: Int
        var branch: LambertBranch?
        /// The perigee angle found for a central departure or arrival (to start the next search
        /// near it).
        var perigeeAngle: Double?
    }

    struct Built {
        var segments: [Segment]
        var departure: DepartureReport
        var flybys: [FlybyReport]
        var arrival: ArrivalReport?
        var legs: [LegReport]
        var burns: [Burn]
        var mismatch: Double
        var iterations: Int
    }

    struct Builder {
        let plan: FlybyPlan
        let bodies: BodyStates
        let ephemeris: Ephemeris
        let nodes: [FlybyNode]
        let legPlans: [FlybyPlan.Leg]
        let centerMu: Double
        let centerRadiusKm: Double
        let modes: [Mode]
        let mu: [Double]
        let soi: [Double]
        let poles: [Vector3]
        let endSeconds: Double

        // MARK: - Validation

        init(plan: FlybyPlan, ephemeris: Ephemeris) throws(FlybyChainError) {
            self.plan = plan
            self.ephemeris = ephemeris
            let bodies = BodyStates(ephemeris: ephemeris, center: plan.center)
            self.bodies = bodies
            let nodes = plan.nodes
            self.nodes = nodes
            func fail(_ k: Int, _ p: FlybyChainError.Problem) -> FlybyChainError {
                FlybyChainError(node: k, nodeDescription: k < nodes.count ? Self.describe(nodes[k], index: k) : "the plan", problem: p)
            }
            guard nodes.count >= 2 else { throw fail(0, .structure("a chain needs a departure and at least one more node")) }
            guard nodes[0].kind == .departure else { throw fail(0, .structure("the first node must be a departure")) }
            for k in 1..<nodes.count {
                if nodes[k].kind == .departure { throw fail(k, .structure("only the first node may be a departure")) }
                if nodes[k].kind == .arrival, k != nodes.count - 1 { throw fail(k, .structure("an arrival must be the last node")) }
            }
            let last = nodes.count - 1
            if nodes[last].kind == .flyby, plan.openEnd == nil {
                throw fail(last, .structure("the last flyby needs an open end (or make the node an arrival)"))
            }
            if nodes[last].kind == .arrival, plan.openEnd != nil {
                throw fail(last, .structure("an open end can only follow a flyby"))
            }
            guard plan.legs.isEmpty || plan.legs.count == nodes.count - 1 else {
                throw fail(0, .structure("\(plan.legs.count) legs given for \(nodes.count) nodes (need \(nodes.count - 1), or none)"))
            }
            self.legPlans = plan.legs.isEmpty ? Array(repeating: .direct, count: nodes.count - 1) : plan.legs
            for (i, leg) in legPlans.enumerated() {
                switch leg.revolutions {
                case .exactly(let n, _) where n < 0: throw fail(i, .structure("the leg from here asks for \(n) revolutions"))
                case .leastDeltaV(let n) where n < 0: throw fail(i, .structure("the leg from here allows \(n) revolutions"))
                default: break
                }
            }
            let centerMu = GravityConstants.gm(plan.center)
            guard centerMu > 0 else { throw fail(0, .structure("the centre \(plan.center) has no gravity")) }
            self.centerMu = centerMu
            self.centerRadiusKm = ephemeris.catalogue[plan.center].radiusKm
            // Times: finite, increasing, inside the ephemeris.
            let served = bodies.servedSeconds
            for k in 0..<nodes.count {
                let t = nodes[k].seconds
                guard t.isFinite else { throw fail(k, .outsideEphemeris(seconds: t, span: served)) }
                if k > 0, !(t > nodes[k - 1].seconds) { throw fail(k, .outOfOrder(seconds: t, previousSeconds: nodes[k - 1].seconds)) }
                guard served.contains(t) else { throw fail(k, .outsideEphemeris(seconds: t, span: served)) }
            }
            var end = nodes[last].seconds
            if let open = plan.openEnd {
                guard open.seconds.isFinite, open.seconds > end else {
                    throw fail(last, .structure("the open end (\(FlybyChainError.date(open.seconds))) must come after the last flyby"))
                }
                guard served.contains(open.seconds) else { throw fail(last, .outsideEphemeris(seconds: open.seconds, span: served)) }
                end = open.seconds
            }
            self.endSeconds = end
            // Bodies and distances.
            var modes: [Mode] = [], mus: [Double] = [], sois: [Double] = [], poles: [Vector3] = []
            for (k, node) in nodes.enumerated() {
                let body = node.body
                let radius = ephemeris.catalogue[body].radiusKm
                let atCenter = body == plan.center
                if !atCenter {
                    let orbitsCenter = body.parent == plan.center
                    guard orbitsCenter else { throw fail(k, .structure("\(body) does not orbit the chain's centre \(plan.center)")) }
                }
                let bodyMu = GravityConstants.gm(body)
                guard bodyMu > 0 else { throw fail(k, .structure("\(body) has no gravity to fly by")) }
                let distanceFromCenter = bodies.state(body, seconds: node.seconds).position.length
                let sphere = atCenter ? .infinity : FlybyGeometry.sphereOfInfluenceKm(distanceKm: distanceFromCenter, mu: bodyMu, centralMu: centerMu)
                func checkDistance(_ d: Double, _ what: String) throws(FlybyChainError) {
                    guard d.isFinite, d > 0 else { throw fail(k, .invalidDistance("\(what) \(d) km must be finite and positive")) }
                    guard d >= radius else { throw fail(k, .belowSurface(distanceKm: d, radiusKm: radius)) }
                    guard d < sphere else { throw fail(k, .invalidDistance("\(what) \(d) km is beyond the sphere of influence (\(sphere) km)")) }
                }
                let mode: Mode
                if let point = node.pointKm {
                    guard atCenter, node.kind != .flyby else {
                        throw fail(k, .structure("a departure or arrival at a point is relative to the chain's centre \(plan.center)"))
                    }
                    guard point.isFinite, point.length >= radius else { throw fail(k, .belowSurface(distanceKm: point.length, radiusKm: radius)) }
                    modes.append(.point(point))
                    mus.append(bodyMu)
                    sois.append(sphere)
                    poles.append(Vector3(0, 0, 1))
                    continue
                }
                switch node.kind {
                case .departure:
                    if let altitude = node.distanceKm {
                        guard altitude.isFinite, altitude >= 0 else { throw fail(k, .invalidDistance("injection altitude \(altitude) km must be finite and not negative")) }
                        try checkDistance(radius + altitude, "injection radius")
                        mode = atCenter ? .centralPerigee(radiusKm: radius + altitude) : .escape(radiusKm: radius + altitude)
                    } else {
                        guard !atCenter else { throw fail(k, .structure("a departure from the chain's centre needs an injection altitude")) }
                        mode = .bodyCenter
                    }
                case .flyby:
                    guard !atCenter else { throw fail(k, .structure("a flyby of the chain's own centre")) }
                    guard let rp = node.distanceKm else { throw fail(k, .invalidDistance("a flyby needs its closest-approach distance")) }
                    try checkDistance(rp, "closest approach")
                    mode = k == last ? .finalFlyby(periapsisKm: rp) : .flyby(periapsisKm: rp)
                case .arrival:
                    if let endRadius = node.distanceKm {
                        try checkDistance(endRadius, "end radius")
                        if atCenter {
                            mode = .centralPerigee(radiusKm: endRadius)
                        } else {
                            let periapsis = node.periapsisKm ?? endRadius
                            guard periapsis.isFinite, periapsis > 0, periapsis <= endRadius else {
                                throw fail(k, .invalidDistance("approach periapsis \(periapsis) km must be positive and not above the end radius \(endRadius) km"))
                            }
                            mode = .approach(endRadiusKm: endRadius, periapsisKm: periapsis)
                        }
                    } else {
                        guard !atCenter else { throw fail(k, .structure("an arrival at the chain's centre needs an end radius")) }
                        mode = .bodyCenter
                    }
                }
                modes.append(mode)
                mus.append(bodyMu)
                sois.append(sphere)
                poles.append(ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: node.seconds)).poleEcliptic)
            }
            if case .centralPerigee = modes[0], case .centralPerigee = modes[last], nodes.count == 2 {
                throw fail(0, .structure("a chain from the centre straight back to it needs a flyby in between"))
            }
            self.modes = modes
            self.mu = mus
            self.soi = sois
            self.poles = poles
        }

        static func describe(_ node: FlybyNode, index: Int) -> String {
            let label = node.name ?? "\(node.kind.rawValue) \(node.body)"
            return "\(label) at \(FlybyChainError.date(node.seconds))"
        }

        func fail(_ k: Int, _ p: FlybyChainError.Problem) -> FlybyChainError {
            FlybyChainError(node: k, nodeDescription: Self.describe(nodes[min(k, nodes.count - 1)], index: k), problem: p)
        }

        func body(_ k: Int, _ seconds: Double) -> (position: Vector3, velocity: Vector3) {
            bodies.state(nodes[k].body, seconds: seconds)
        }

        // MARK: - The iteration

        /// The asymptotes being iterated and what keeps each pass on the same branch.
        struct Iterate {
            var vIn: [Vector3?]
            var vOut: [Vector3?]
            var pHat: [Vector3?]
            var perigeeAngles: [Double?]
        }

        /// One pass: the nodes' hyperbolas from the asymptotes, the legs between their patch
        /// points, and what the legs say the asymptotes are.
        struct Pass {
            var solutions: [NodeSolution]
            var legs: [LegSolution]
            var next: Iterate
            /// Largest velocity difference between a leg and a hyperbola where they meet, km/s.
            var mismatch: Double
        }

        func pass(_ x: Iterate, choices: [LegSolution]) throws(FlybyChainError) -> Pass {
            let count = nodes.count
            var next = x
            var solutions: [NodeSolution] = []
            for k in 0..<count {
                let s = try solveNode(k, vIn: x.vIn[k], vOut: x.vOut[k], start: x.pHat[k])
                if let p = s.periapsis { next.pHat[k] = p.direction }
                solutions.append(s)
            }
            var legs: [LegSolution] = []
            for i in 0..<(count - 1) {
                let leg = try solveLeg(i, from: solutions[i].outPatch, to: solutions[i + 1].inPatch, choice: choices[i], near: x.perigeeAngles[i] ?? x.perigeeAngles[i + 1])
                legs.append(leg)
                if let a = leg.perigeeAngle {
                    if case .centralPerigee = modes[i] { next.perigeeAngles[i] = a } else { next.perigeeAngles[i + 1] = a }
                }
            }
            var mismatch = 0.0
            for (i, leg) in legs.enumerated() {
                let startBody = body(i, leg.startSeconds)
                if let patch = solutions[i].outPatch, let v = patch.velocity {
                    mismatch = max(mismatch, (leg.v1 - v).length)
                    guard let vInf = FlybyGeometry.vInfinity(position: leg.start - startBody.position, velocity: leg.v1 - startBody.velocity, mu: mu[i], outgoing: true) else {
                        throw fail(i, .geometry("the leg leaves the sphere of influence on a bound orbit about \(nodes[i].body)"))
                    }
                    next.vOut[i] = vInf
                } else {
                    next.vOut[i] = leg.v1 - startBody.velocity
                }
                let endBody = body(i + 1, leg.endSeconds)
                if let patch = solutions[i + 1].inPatch, let v = patch.velocity {
                    mismatch = max(mismatch, (leg.v2 - v).length)
                    guard let vInf = FlybyGeometry.vInfinity(position: leg.end - endBody.position, velocity: leg.v2 - endBody.velocity, mu: mu[i + 1], outgoing: false) else {
                        throw fail(i + 1, .geometry("the leg reaches the sphere of influence on a bound orbit about \(nodes[i + 1].body)"))
                    }
                    next.vIn[i + 1] = vInf
                } else {
                    next.vIn[i + 1] = leg.v2 - endBody.velocity
                }
            }
            return Pass(solutions: solutions, legs: legs, next: next, mismatch: mismatch)
        }

        /// Where the iterated unknowns sit: the asymptotes of the hyperbolas that meet a leg
        /// (the others — at a body's centre, at a central perigee — follow from the legs).
        func unknowns() -> [(node: Int, incoming: Bool)] {
            var list: [(Int, Bool)] = []
            for k in 0..<nodes.count {
                switch modes[k] {
                case .escape: list.append((k, false))
                case .flyby: list.append((k, true)); list.append((k, false))
                case .finalFlyby, .approach: list.append((k, true))
                case .bodyCenter, .centralPerigee, .point: break
                }
            }
            return list
        }

        func pack(_ x: Iterate, _ slots: [(node: Int, incoming: Bool)]) -> [Double] {
            slots.flatMap { slot -> [Double] in
                let v = (slot.incoming ? x.vIn[slot.node] : x.vOut[slot.node]) ?? .zero
                return [v.x, v.y, v.z]
            }
        }

        func unpack(_ values: [Double], into x: Iterate, _ slots: [(node: Int, incoming: Bool)]) -> Iterate {
            var y = x
            for (n, slot) in slots.enumerated() {
                let v = Vector3(values[3 * n], values[3 * n + 1], values[3 * n + 2])
                if slot.incoming { y.vIn[slot.node] = v } else { y.vOut[slot.node] = v }
            }
            return y
        }

        /// The asymptotes solved so that every leg meets its hyperbolas in position and velocity:
        /// plain iteration (x ← what the legs say) while it contracts, then Newton's method on
        /// F(x) = G(x) − x with a finite-difference Jacobian and a backtracking line search —
        /// near a flyby whose needed turn is just beyond what its distance gives, the least
        /// impulse moves with the square root of the excess and plain iteration oscillates.
        func build() throws(FlybyChainError) -> Built {
            let count = nodes.count
            // 1. Legs between the bodies' centres choose the Lambert solutions and seed v∞.
            let choices = try chooseSolutions()
            var x = Iterate(vIn: Array(repeating: nil, count: count), vOut: Array(repeating: nil, count: count),
                            pHat: choices.periapsisDirections, perigeeAngles: Array(repeating: nil, count: count))
            for (i, leg) in choices.legs.enumerated() {
                x.vOut[i] = leg.v1 - body(i, leg.startSeconds).velocity
                x.vIn[i + 1] = leg.v2 - body(i + 1, leg.endSeconds).velocity
                if case .centralPerigee = modes[i] { x.perigeeAngles[i] = leg.perigeeAngle }
                if case .centralPerigee = modes[i + 1] { x.perigeeAngles[i + 1] = leg.perigeeAngle }
            }
            let slots = unknowns()
            let tolerance = 1e-11
            var passes = 0
            // 2. Plain iteration while the mismatch shrinks at least fourfold per pass.
            var current = try pass(x, choices: choices.legs)
            passes += 1
            var previous = Double.infinity
            while current.mismatch >= tolerance, passes < 30, current.mismatch < previous / 4 || passes < 3 {
                previous = current.mismatch
                x = current.next
                current = try pass(x, choices: choices.legs)
                passes += 1
            }
            // 3. Newton's method on F(x) = G(x) − x.
            func residual(_ p: Pass, at x: Iterate) -> [Double] {
                zip(pack(p.next, slots), pack(x, slots)).map { $0 - $1 }
            }
            func norm(_ r: [Double]) -> Double { r.reduce(0) { max($0, abs($1)) } }
            var newtonSteps = 0
            while current.mismatch >= tolerance, newtonSteps < 40, !slots.isEmpty {
                newtonSteps += 1
                // Keep the branch the latest pass chose.
                x.pHat = current.next.pHat
                x.perigeeAngles = current.next.perigeeAngles
                let base = pack(x, slots)
                let f0 = residual(current, at: x)
                let n = base.count
                var jacobian = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
                for j in 0..<n {
                    var shifted = base
                    let h = 1e-8 * max(1, abs(base[j]))
                    shifted[j] += h
                    let xj = unpack(shifted, into: x, slots)
                    let fj = residual(try pass(xj, choices: choices.legs), at: xj)
                    passes += 1
                    for i in 0..<n { jacobian[i][j] = (fj[i] - f0[i]) / h }
                }
                guard let step = LinearSystem.solve(jacobian, f0.map { -$0 }) else { break }
                var lambda = 1.0
                var accepted = false
                while lambda > 1e-4 {
                    let trial = unpack(zip(base, step).map { $0 + lambda * $1 }, into: x, slots)
                    let p = try pass(trial, choices: choices.legs)
                    passes += 1
                    if norm(residual(p, at: trial)) < norm(f0) * (1 - 1e-4 * lambda) || p.mismatch < tolerance {
                        x = trial
                        current = p
                        accepted = true
                        break
                    }
                    lambda /= 2
                }
                if !accepted { break }
            }
            // What is left (only where a flyby sits exactly where its needed turn starts to
            // exceed what its distance gives, and Newton stalls on the kink) becomes a
            // correction burn where the leg meets the sphere; beyond 10 cm/s it is an error.
            guard current.mismatch <= FlybyChain.largestPatchCorrectionKmS else { throw fail(0, .notConverged(mismatchKmS: current.mismatch)) }
            return try assemble(solutions: current.solutions, legs: current.legs, vIn: x.vIn, vOut: x.vOut, mismatch: current.mismatch, iterations: passes)
        }

        // MARK: - Nodes

        /// The node's hyperbolas and patch points from its current asymptotes.
        func solveNode(_ k: Int, vIn: Vector3?, vOut: Vector3?, start: Vector3?) throws(FlybyChainError) -> NodeSolution {
            let node = nodes[k]
            let t = node.seconds
            var s = NodeSolution()
            switch modes[k] {
            case .bodyCenter:
                let b = body(k, t)
                let patch = Patch(seconds: t, position: b.position, velocity: nil)
                if node.kind == .departure { s.outPatch = patch } else { s.inPatch = patch }
            case .point(let position):
                let patch = Patch(seconds: t, position: position, velocity: nil)
                if node.kind == .departure { s.outPatch = patch } else { s.inPatch = patch }
            case .centralPerigee:
                // Found with the leg (it depends on the leg's other end).
                break
            case .escape(let r0):
                guard let v = vOut else { throw fail(k, .geometry("no escape asymptote")) }
                let (p, q) = Self.hyperbolaPlane(vInfinity: v, pole: poles[k], radiusKm: r0, mu: mu[k], outgoing: true)
                let vp = (v.lengthSquared + 2 * mu[k] / r0).squareRoot()
                let position = p * r0, velocity = q * vp
                guard let dt = FlybyGeometry.secondsToRadius(position: position, velocity: velocity, mu: mu[k], radiusKm: soi[k], forward: true) else {
                    throw fail(k, .geometry("the escape hyperbola does not reach the sphere of influence"))
                }
                let segment = Segment(kind: .escape, startSeconds: t, endSeconds: t + dt, center: node.body, mu: mu[k], epochSeconds: t, positionKm: position, velocityKmS: velocity)
                s.segments = [segment]
                s.outPatch = patch(of: segment, at: t + dt, body: k)
            case .flyby(let rp):
                guard let a = vIn, let d = vOut else { throw fail(k, .geometry("no asymptotes")) }
                guard let periapsis = FlybyGeometry.leastImpulsePeriapsis(vIn: a, vOut: d, periapsisKm: rp, mu: mu[k], start: start,
                                                                          lowerByUpToKm: FlybyChain.closestApproachAllowanceKm) else {
                    throw fail(k, .geometry("no closest-approach point joins the incoming and outgoing asymptotes"))
                }
                s.periapsis = periapsis
                let position = periapsis.direction * periapsis.distanceKm
                let (inbound, outbound) = try flybySegments(k, position: position, arriving: periapsis.arrivingVelocity, departing: periapsis.departingVelocity)
                s.segments = [inbound, outbound]
                s.inPatch = patch(of: inbound, at: inbound.startSeconds, body: k)
                s.outPatch = patch(of: outbound, at: outbound.endSeconds, body: k)
            case .finalFlyby(let rp):
                guard let a = vIn else { throw fail(k, .geometry("no incoming asymptote")) }
                let u = a.normalized
                let delta = FlybyGeometry.unpoweredTurn(vInfinity: a.length, periapsisKm: rp, mu: mu[k])
                let turnDirection = self.turnDirection(u, body: k)
                let out = u * cos(delta) + turnDirection * sin(delta)
                let p = (u - out).normalized
                let vp = (a.lengthSquared + 2 * mu[k] / rp).squareRoot()
                let velocity = (u + out).normalized * vp
                s.vOutUnpowered = out * a.length
                s.periapsis = FlybyGeometry.Periapsis(direction: p, distanceKm: rp, arrivingVelocity: velocity, departingVelocity: velocity)
                let (inbound, outbound) = try flybySegments(k, position: p * rp, arriving: velocity, departing: velocity)
                s.inPatch = patch(of: inbound, at: inbound.startSeconds, body: k)
                var segments = [inbound]
                if outbound.endSeconds < endSeconds {
                    segments.append(outbound)
                    let exit = outbound.conicState(atSeconds: outbound.endSeconds)
                    let b = body(k, outbound.endSeconds)
                    segments.append(Segment(kind: .coast, startSeconds: outbound.endSeconds, endSeconds: endSeconds, center: plan.center, mu: centerMu,
                                            epochSeconds: outbound.endSeconds, positionKm: b.position + exit.position, velocityKmS: b.velocity + exit.velocity))
                } else {
                    segments.append(Segment(kind: .outbound(node: k), startSeconds: t, endSeconds: endSeconds, center: node.body, mu: mu[k],
                                            epochSeconds: t, positionKm: p * rp, velocityKmS: velocity))
                }
                s.segments = segments
            case let .approach(endRadius, rp):
                guard let v = vIn else { throw fail(k, .geometry("no approach asymptote")) }
                let (p, q) = Self.hyperbolaPlane(vInfinity: v, pole: poles[k], radiusKm: rp, mu: mu[k], outgoing: false)
                let vp = (v.lengthSquared + 2 * mu[k] / rp).squareRoot()
                let position = p * rp, velocity = q * vp
                var toEnd = 0.0
                if endRadius > rp * (1 + 1e-12) {
                    guard let dt = FlybyGeometry.secondsToRadius(position: position, velocity: velocity, mu: mu[k], radiusKm: endRadius, forward: false) else {
                        throw fail(k, .geometry("the approach hyperbola does not pass the end radius"))
                    }
                    toEnd = dt
                }
                // Periapsis comes |toEnd| after the end (never, for an entry).
                let periapsisSeconds = t - toEnd
                guard let dt = FlybyGeometry.secondsToRadius(position: position, velocity: velocity, mu: mu[k], radiusKm: soi[k], forward: false) else {
                    throw fail(k, .geometry("the approach hyperbola does not reach the sphere of influence"))
                }
                let segment = Segment(kind: .approach, startSeconds: periapsisSeconds + dt, endSeconds: t, center: node.body, mu: mu[k],
                                      epochSeconds: periapsisSeconds, positionKm: position, velocityKmS: velocity)
                s.segments = [segment]
                s.inPatch = patch(of: segment, at: segment.startSeconds, body: k)
                s.approachPeriapsis = (periapsisSeconds, position, velocity)
            }
            return s
        }

        /// The two halves of a flyby's hyperbola, from the sphere of influence to the closest
        /// approach and back out.
        func flybySegments(_ k: Int, position: Vector3, arriving: Vector3, departing: Vector3) throws(FlybyChainError) -> (Segment, Segment) {
            let t = nodes[k].seconds
            guard let back = FlybyGeometry.secondsToRadius(position: position, velocity: arriving, mu: mu[k], radiusKm: soi[k], forward: false),
                  let ahead = FlybyGeometry.secondsToRadius(position: position, velocity: departing, mu: mu[k], radiusKm: soi[k], forward: true) else {
                throw fail(k, .geometry("the flyby hyperbola does not reach the sphere of influence"))
            }
            let inbound = Segment(kind: .inbound(node: k), startSeconds: t + back, endSeconds: t, center: nodes[k].body, mu: mu[k],
                                  epochSeconds: t, positionKm: position, velocityKmS: arriving)
            let outbound = Segment(kind: .outbound(node: k), startSeconds: t, endSeconds: t + ahead, center: nodes[k].body, mu: mu[k],
                                   epochSeconds: t, positionKm: position, velocityKmS: departing)
            return (inbound, outbound)
        }

        /// The centre-relative state of a body-centred segment at `seconds`, as a patch.
        func patch(of segment: Segment, at seconds: Double, body k: Int) -> Patch {
            let s = segment.conicState(atSeconds: seconds)
            let b = body(k, seconds)
            return Patch(seconds: seconds, position: b.position + s.position, velocity: b.velocity + s.velocity)
        }

        /// Periapsis direction p̂ and the direction q̂ of the velocity there for a hyperbola with
        /// asymptote `vInfinity` (outgoing for an escape, incoming for an approach) and
        /// periapsis `radiusKm`, in the plane through the asymptote least inclined to the
        /// body's equator, moving prograde about its pole.
        static func hyperbolaPlane(vInfinity: Vector3, pole: Vector3, radiusKm: Double, mu: Double, outgoing: Bool) -> (Vector3, Vector3) {
            let u = vInfinity.normalized
            var normal = pole - u * pole.dot(u)
            if normal.length < 1e-9 {
                let z = Vector3(0, 0, 1)
                normal = z - u * z.dot(u)
                if normal.length < 1e-9 { normal = Vector3(1, 0, 0) - u * u.x }
            }
            normal = normal.normalized
            let w = normal.cross(u)
            let e = 1 + radiusKm * vInfinity.lengthSquared / mu
            let cosTheta = -1 / e, sinTheta = (1 - cosTheta * cosTheta).squareRoot()
            let p = outgoing ? u * cosTheta - w * sinTheta : u * -cosTheta - w * sinTheta
            return (p, normal.cross(p))
        }

        /// The direction an open end's unpowered flyby turns its asymptote (unit, normal to u).
        func turnDirection(_ u: Vector3, body k: Int) -> Vector3 {
            let z = Vector3(0, 0, 1)
            var t = u.cross(z)
            if t.length < 1e-9 { t = u.cross(Vector3(1, 0, 0)) }
            t = t.normalized
            let r = u.cross(t)
            guard let open = plan.openEnd else { return t }
            switch open.turn {
            case .clockAngle(let angle):
                return t * cos(angle) + r * sin(angle)
            case .accelerate, .decelerate:
                let v = body(k, nodes[k].seconds).velocity
                let along = v - u * v.dot(u)
                guard along.length > 1e-9 * max(v.length, 1) else { return t }
                return open.turn == .accelerate ? along.normalized : -along.normalized
            }
        }

        // MARK: - Legs

        /// The Lambert leg between two patches (or a central perigee and a patch).
        func solveLeg(_ i: Int, from start: Patch?, to end: Patch?, choice: LegSolution, near: Double?) throws(FlybyChainError) -> LegSolution {
            let leg = legPlans[i]
            if case .centralPerigee(let radius) = modes[i], let end {
                return try centralPerigee(i, radius: radius, other: end, atStart: true, revolutions: choice.revolutions, branch: choice.branch ?? .left, near: near)
            }
            if case .centralPerigee(let radius) = modes[i + 1], let start {
                return try centralPerigee(i, radius: radius, other: start, atStart: false, revolutions: choice.revolutions, branch: choice.branch ?? .left, near: near)
            }
            guard let start, let end else { throw fail(i, .geometry("a leg without ends")) }
            guard end.seconds > start.seconds else {
                throw fail(i, .overlappingSpheres(exitSeconds: start.seconds, entrySeconds: end.seconds))
            }
            let solution: LambertSolution
            do {
                solution = try Lambert.solution(mu: centerMu, from: start.position, to: end.position, seconds: end.seconds - start.seconds,
                                                direction: leg.direction, revolutions: choice.revolutions, branch: choice.branch ?? .left)
            } catch let .noSolution(n, maximum) {
                throw fail(i, .noLambertSolution(revolutions: n, maximum: maximum))
            } catch {
                throw fail(i, .lambert(error))
            }
            return LegSolution(startSeconds: start.seconds, endSeconds: end.seconds, start: start.position, end: end.position,
                               v1: solution.v1, v2: solution.v2, revolutions: solution.revolutions, branch: solution.branch)
        }

        /// A departure from (or arrival at) the chain's centre: the point `radius` from it, in the
        /// plane of the other end and its body's orbit, where the leg is at perigee (radial
        /// velocity zero, faster than circular). Scans the angle from the other end in 5° steps
        /// (or ±10° about `near`), refines each sign change of the radial velocity by
        /// bisection, and keeps the perigee needing the least speed there.
        func centralPerigee(_ i: Int, radius: Double, other: Patch, atStart: Bool, revolutions: Int, branch: LambertBranch, near: Double?) throws(FlybyChainError) -> LegSolution {
            let leg = legPlans[i]
            let otherNode = atStart ? i + 1 : i
            let ob = body(otherNode, nodes[otherNode].seconds)
            var orbitNormal = ob.position.cross(ob.velocity).normalized
            let e1 = other.position.normalized
            if orbitNormal.lengthSquared == 0 || abs(orbitNormal.dot(e1)) > 0.999 { orbitNormal = Vector3(0, 0, 1) }
            let e2 = orbitNormal.cross(e1).normalized
            let planeNormal = e1.cross(e2)
            let t = atStart ? nodes[i].seconds : nodes[i + 1].seconds
            let tof = atStart ? other.seconds - t : t - other.seconds
            guard tof > 0 else { throw fail(i, .overlappingSpheres(exitSeconds: atStart ? t : other.seconds, entrySeconds: atStart ? other.seconds : t)) }
            func point(_ phi: Double) -> Vector3 { (e1 * cos(phi) + e2 * sin(phi)) * radius }
            func solve(_ phi: Double) -> LambertSolution? {
                let p = point(phi)
                return try? Lambert.solution(mu: centerMu, from: atStart ? p : other.position, to: atStart ? other.position : p, seconds: tof,
                                             direction: leg.direction, revolutions: revolutions, branch: branch, referenceNormal: planeNormal)
            }
            func radial(_ phi: Double) -> Double? {
                guard let s = solve(phi) else { return nil }
                let v = atStart ? s.v1 : s.v2
                return v.dot(point(phi)) / (radius * v.length)
            }
            let angles: [Double]
            if let near {
                angles = (0...40).map { near - 0.175 + 0.35 * Double($0) / 40 }
            } else {
                angles = (1...71).map { Double($0) * Double.pi / 36 }
            }
            var best: (phi: Double, speed: Double, solution: LambertSolution)?
            var previous: (phi: Double, value: Double)?
            for phi in angles {
                guard let value = radial(phi) else { previous = nil; continue }
                if let prev = previous, (prev.value < 0) != (value < 0) {
                    var lo = prev.phi, hi = phi, fLo = prev.value
                    for _ in 0..<80 {
                        let mid = (lo + hi) / 2
                        guard let fm = radial(mid) else { break }
                        if (fm < 0) == (fLo < 0) { lo = mid; fLo = fm } else { hi = mid }
                        if hi - lo < 1e-14 { break }
                    }
                    let root = (lo + hi) / 2
                    if let s = solve(root) {
                        let v = atStart ? s.v1 : s.v2
                        // A perigee, not an apogee: faster than the circular speed there.
                        if v.lengthSquared > centerMu / radius, best == nil || v.length < best!.speed {
                            best = (root, v.length, s)
                        }
                    }
                }
                previous = (phi, value)
            }
            guard let found = best else {
                if near != nil { return try centralPerigee(i, radius: radius, other: other, atStart: atStart, revolutions: revolutions, branch: branch, near: nil) }
                throw fail(atStart ? i : i + 1, .geometry("no perigee at \(radius) km joins the leg (try another time or altitude)"))
            }
            let p = point(found.phi)
            return LegSolution(startSeconds: atStart ? t : other.seconds, endSeconds: atStart ? other.seconds : t,
                               start: atStart ? p : other.position, end: atStart ? other.position : p,
                               v1: found.solution.v1, v2: found.solution.v2, revolutions: found.solution.revolutions,
                               branch: found.solution.branch, perigeeAngle: found.phi)
        }

        // MARK: - Choosing the Lambert solutions

        /// Whether a leg solved between the bodies' centres reaches the spheres of influence of
        /// the hyperbolas patched to it (escape, flyby, approach) faster than the escape speed
        /// there.
        func unboundAtSpheres(_ i: Int, _ leg: LegSolution) -> Bool {
            func fast(_ k: Int, _ v: Vector3) -> Bool {
                switch modes[k] {
                case .escape, .flyby, .finalFlyby, .approach:
                    let vInfinity = (v - body(k, nodes[k].seconds).velocity).length
                    return vInfinity * vInfinity > 2 * mu[k] / soi[k]
                case .bodyCenter, .centralPerigee, .point:
                    return true
                }
            }
            return fast(i, leg.v1) && fast(i + 1, leg.v2)
        }

        /// Legs between the bodies' centres (or a central perigee and a centre), one Lambert
        /// solution per leg: the requested one, or — for legs asking for the least Δv — the
        /// combination with the least total flyby impulse over the chain (dynamic programming
        /// over consecutive legs; departure and arrival v∞ break ties at 1e-3 weight).
        func chooseSolutions() throws(FlybyChainError) -> (legs: [LegSolution], periapsisDirections: [Vector3?]) {
            let count = nodes.count
            // Patch points at the centres.
            var centers: [Patch?] = []
            for k in 0..<count {
                if case .centralPerigee = modes[k] { centers.append(nil); continue }
                if case .point(let p) = modes[k] { centers.append(Patch(seconds: nodes[k].seconds, position: p, velocity: nil)); continue }
                let b = body(k, nodes[k].seconds)
                centers.append(Patch(seconds: nodes[k].seconds, position: b.position, velocity: nil))
            }
            var candidates: [[LegSolution]] = []
            for i in 0..<(count - 1) {
                var list: [LegSolution] = []
                switch legPlans[i].revolutions {
                case let .exactly(n, branch):
                    let template = LegSolution(startSeconds: 0, endSeconds: 0, start: .zero, end: .zero, v1: .zero, v2: .zero, revolutions: n, branch: n == 0 ? nil : branch)
                    list.append(try solveLeg(i, from: centers[i], to: centers[i + 1], choice: template, near: nil))
                case .leastDeltaV(let maxRevolutions):
                    for n in 0...maxRevolutions {
                        for branch in n == 0 ? [LambertBranch.left] : LambertBranch.allCases {
                            let template = LegSolution(startSeconds: 0, endSeconds: 0, start: .zero, end: .zero, v1: .zero, v2: .zero, revolutions: n, branch: n == 0 ? nil : branch)
                            do {
                                list.append(try solveLeg(i, from: centers[i], to: centers[i + 1], choice: template, near: nil))
                            } catch {
                                if case .noLambertSolution = error.problem { continue }
                                if case .geometry = error.problem, n > 0 { continue }
                                throw error
                            }
                        }
                    }
                    // Lambert's problem between two positions of a body always has a solution
                    // along the body's own orbit (v∞ ≈ 0): it meets the sphere of influence on a
                    // bound orbit, so no hyperbola can be patched to it.
                    let patchable = list.filter { unboundAtSpheres(i, $0) }
                    if !patchable.isEmpty { list = patchable }
                }
                guard !list.isEmpty else { throw fail(i, .noLambertSolution(revolutions: 0, maximum: 0)) }
                candidates.append(list)
            }
            // Dynamic programming: cost[i][c] = least total cost of legs 0…i with leg i taking c.
            func flybyCost(_ k: Int, _ incoming: LegSolution, _ outgoing: LegSolution) -> (Double, Vector3?) {
                guard case .flyby(let rp) = modes[k] else { return (0, nil) }
                let v = body(k, nodes[k].seconds).velocity
                guard let p = FlybyGeometry.leastImpulsePeriapsis(vIn: incoming.v2 - v, vOut: outgoing.v1 - v, periapsisKm: rp, mu: mu[k],
                                                                  lowerByUpToKm: FlybyChain.closestApproachAllowanceKm) else { return (.infinity, nil) }
                return (p.deltaV.length, p.direction)
            }
            func tieBreak(_ i: Int, _ c: LegSolution) -> Double {
                var t = 0.0
                if i == 0 { t += (c.v1 - body(0, c.startSeconds).velocity).length }
                if i == count - 2 { t += (c.v2 - body(count - 1, c.endSeconds).velocity).length }
                return 1e-3 * t
            }
            var cost: [[Double]] = [candidates[0].map { tieBreak(0, $0) }]
            var from: [[Int]] = [Array(repeating: -1, count: candidates[0].count)]
            for i in 1..<max(1, count - 1) where i < candidates.count {
                var row: [Double] = [], links: [Int] = []
                for c in candidates[i] {
                    var bestCost = Double.infinity, bestFrom = 0
                    for (j, previous) in candidates[i - 1].enumerated() {
                        let total = cost[i - 1][j] + flybyCost(i, previous, c).0
                        if total < bestCost { bestCost = total; bestFrom = j }
                    }
                    row.append(bestCost + tieBreak(i, c))
                    links.append(bestFrom)
                }
                cost.append(row)
                from.append(links)
            }
            let lastRow = cost[cost.count - 1]
            var pick = lastRow.indices.min { lastRow[$0] < lastRow[$1] } ?? 0
            var chosen = [LegSolution](repeating: candidates[0][0], count: candidates.count)
            for i in stride(from: candidates.count - 1, through: 0, by: -1) {
                chosen[i] = candidates[i][pick]
                if i > 0 { pick = from[i][pick] }
            }
            var directions = [Vector3?](repeating: nil, count: count)
            for k in 1..<(count - 1) where k < chosen.count {
                directions[k] = flybyCost(k, chosen[k - 1], chosen[k]).1
            }
            return (chosen, directions)
        }
    }
}
