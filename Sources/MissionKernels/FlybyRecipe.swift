import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A mission with no public trajectory data (New Horizons, Parker Solar Probe, BepiColombo),
/// built from physics between its published events: the ascent from the pad to an escape
/// hyperbola, then patched conics — two-body arcs about the Sun between the planets' DE440
/// positions, and at each flyby a hyperbola whose closest approach is at the published distance
/// and time — and a two-body coast after the last flyby to the kernel's end, or where a published
/// plan continues past it, that plan (``Arrival``: BepiColombo's arrival at Mercury). A span of real data
/// (a NAIF kernel the mission ships, such as ESA's for BepiColombo's first Venus flyby) is kept
/// as it is, its ends carried on by two-body motion (``PatchedCoast``) to the impulses joining it.
///
/// Each stretch between the launch, data spans and the end is solved by a ``FlybyChain``
/// (Lambert legs, powered flybys) where its legs are well posed, and by ``FlybyShooting``
/// (unpowered aimed flybys, one correction per leg) where a leg returns to the body it left or
/// the stretch runs from the launch to a data span. A flyby whose sources give only the day is
/// flown at the time within that day needing the least total impulse; the shooting's aims are
/// searched the same way. What the conics cannot do ballistically is an impulse, and every
/// impulse must lie in a powered phase of the vehicle in `missions.json`: the build fails naming
/// the ones that do not. The kernel's comments give each flyby as published and as flown, every
/// impulse, and the published events the path is only checked against (perihelia).
public struct FlybyRecipe: MissionRecipe {
    /// One stop of the path after the launch, in time order.
    public enum Stop: Sendable {
        /// A flyby at a mission event: the body and the distance (or altitude) its fact states,
        /// at the event's time — or, for an event dated only to the day, at the time within that
        /// day needing the least Δv. `leg` is the leg arriving there.
        case flyby(event: String, leg: FlybyPlan.Leg = .direct)
        /// A span of real trajectory from a NAIF kernel the mission ships, kept as it is:
        /// `label` names its segment (at most 40 characters), `short` the span in the coasts'
        /// names, `event` the mission event inside it (for the report). `leg` is the leg arriving
        /// at the impulse before it.
        case data(kernel: String, label: String, short: String, event: String?, leg: FlybyPlan.Leg = .direct)
    }

    public let missionID: String
    public let vehicleID: String
    public let pad: SurfaceSite
    /// The escape hyperbola's injection point above the Earth (km): the chain starts there at the
    /// end of the launch's powered phase. No launch here publishes it; 200 km is a typical
    /// parking-orbit height.
    public let injectionAltitudeKm: Double
    public let stops: [Stop]
    /// The kernel's end (ISO 8601 UTC) for a mission still flying; the server extrapolates beyond.
    public let endUTC: String
    /// The unpowered turn of the last flyby, whose outgoing asymptote nothing fixes.
    public let endTurn: FlybyPlan.Turn
    /// What a shot section's per-leg impulses stand for: a short label for segment names
    /// ("TCM") and the phrase for the notes ("trajectory correction (modelled)").
    public let correction: (short: String, phase: String)
    /// Whether a shot section's corrections are made wherever in their legs they cost least
    /// (standing for thrust arcs) rather than at the aphelion nearest each leg's middle (where a
    /// spacecraft coasting between flybys trims its path).
    public let freeImpulseTimes: Bool
    /// A mission event (a perihelion dated to the minute) the coast after the last flyby must
    /// reach at its time: the last flyby's turn is chosen for it rather than by `endTurn` alone
    /// (see ``FlybyShooting/endPerihelionSeconds``). `nil`: the end coast is only checked.
    public let endPerihelion: String?
    /// The published plan past the last flyby (an arrival in orbit), if there is one: the path
    /// follows it instead of coasting on (``Arrival``).
    public let arrival: Arrival?

    public init(missionID: String, vehicleID: String, pad: SurfaceSite, injectionAltitudeKm: Double = 200, stops: [Stop], endUTC: String,
                endTurn: FlybyPlan.Turn = .accelerate, correction: (short: String, phase: String) = ("TCM", "trajectory correction (modelled)"),
                freeImpulseTimes: Bool = false, endPerihelion: String? = nil, arrival: Arrival? = nil) {
        self.arrival = arrival
        self.freeImpulseTimes = freeImpulseTimes
        self.endPerihelion = endPerihelion
        self.missionID = missionID
        self.vehicleID = vehicleID
        self.pad = pad
        self.injectionAltitudeKm = injectionAltitudeKm
        self.stops = stops
        self.endUTC = endUTC
        self.endTurn = endTurn
        self.correction = correction
    }

    public var sources: [String] {
        stops.compactMap { if case let .data(kernel, _, _, _, _) = $0 { return kernel } else { return nil } }
    }

    /// The NAIF id a conic about `body` is written relative to: the Sun, the Earth itself, the
    /// other planets as their system barycentres (where the engine and DE440 place them).
    static func centerID(_ body: BodyID) -> Int {
        let id = NAIFBody.id(body)
        return body != .earth && id > 100 && id % 100 == 99 ? id / 100 : id
    }

    static func display(_ body: BodyID) -> String { body.rawValue.prefix(1).uppercased() + body.rawValue.dropFirst() }

    static func iso(_ seconds: Double) -> String { TimeScale.instant(tdbSecondsPastJ2000: seconds).iso8601 }

    static func metres(_ kmS: Double) -> String { kmS < 0.0005 ? String(format: "%.2f m/s", kmS * 1000) : "\(Int((kmS * 1000).rounded())) m/s" }

    static func kilometres(_ km: Double) -> String {
        let n = Int(km.rounded())
        var s = String(abs(n)), out = ""
        while s.count > 3 { out = "," + s.suffix(3) + out; s = String(s.dropLast(3)) }
        return (n < 0 ? "-" : "") + s + out + " km"
    }

    public func paths(_ c: BuildContext) throws -> [VehiclePath] {
        let eph = c.ephemeris
        let vehicle = try c.vehicle(vehicleID)
        let launch = c.seconds(hours: 0)
        guard let launchPhase = vehicle.phases.first(where: { $0.kind == .powered && $0.startHours <= 1e-9 }) else {
            throw RecipeError(description: "\(missionID): vehicle \(vehicle.id) needs a powered launch phase starting at launch")
        }
        let injection = c.seconds(hours: launchPhase.endHours)
        let end = try TimeScale.parse(endUTC).daysSinceJ2000TDB * Constants.secondsPerDay
        let plan = try Layout(recipe: self, context: c, injection: injection, end: end)
        let spans = sources.isEmpty ? "" : " except the data named below"
        var notes: [String] = [
            "No trajectory data for this mission in the repository's sources\(spans): patched conics between the published events (Resources/missions.json: times, distances and their sources).",
            "Ascent: from the pad (\(pad.latitudeDeg) N, \(pad.longitudeDeg) E) at launch (\(Self.iso(launch))) to the escape hyperbola's injection point \(Int(injectionAltitudeKm)) km up at the end of the phase \"\(launchPhase.name)\" (\(Self.iso(injection))): a powered blend.",
        ]
        var pieces: [PathPiece] = []
        var burns: [Impulse] = []
        var flown: [FlownFlyby] = []
        for (n, section) in plan.sections.enumerated() {
            let built = try plan.optimise(section)
            notes += built.searchNotes
            switch built.solved {
            case let .chain(chain, departureJoin, arrivalJoin):
                if n == 0 {
                    notes.append(Self.departureNote(vInfinity: chain.departure.vInfinity?.length, injectionSpeed: chain.departure.injectionSpeedKmS, exit: chain.departure.exitSeconds))
                    let escape = chain.segments[0]
                    pieces.append(ascent(launch: launch, injection: injection, eph: eph, terrestrial: c.terrestrial) { escape.conicState(atSeconds: $0) })
                }
                if case let .after(data) = section.start, let join = departureJoin {
                    pieces += data.pieces(after: join.seconds)
                    burns.append(Impulse(seconds: join.seconds, deltaV: join.deltaV, what: "the join from \(data.short) to the chain (\(data.short) carried on two-body to here)"))
                }
                pieces += Self.pieces(of: chain, names: section.nodeNames)
                for f in chain.flybys {
                    guard let e = section.encounterIndex(node: f.node).map({ section.encounters[$0] }) else { continue }
                    flown.append(FlownFlyby(encounter: e, achievedKm: f.achievedClosestApproachKm, achievedSeconds: f.achievedClosestApproachSeconds,
                                            vInfinityIn: f.vInfinityIn.length, vInfinityOut: f.vInfinityOut.length, turnRadians: f.turnRadians,
                                            unpoweredTurnRadians: f.unpoweredTurnRadians, impulseKmS: f.deltaVKmS))
                }
                for b in chain.burns {
                    let what: String
                    switch b.kind {
                    case .closestApproach: what = "the \(section.eventNames[b.node]) closest approach (powered flyby)"
                    case .patchCorrection: what = "a patch correction where a leg meets the \(b.body) sphere of influence"
                    }
                    burns.append(Impulse(seconds: b.seconds, deltaV: b.deltaV, what: what))
                }
                if case let .before(data) = section.finish, let join = arrivalJoin {
                    burns.append(Impulse(seconds: join.seconds, deltaV: join.deltaV, what: "the join from the chain to \(data.short) (\(data.short) carried back two-body to here)"))
                    pieces += data.pieces(before: join.seconds)
                    pieces.append(data.piece)
                }
            case let .shooting(shooting, solution):
                if n == 0, let escape = solution.arcs.first, escape.center == .earth {
                    let v = solution.departureVInfinityKmS
                    let mu = GravityConstants.gm(.earth), r0 = eph.catalogue[.earth].radiusKm + injectionAltitudeKm
                    notes.append(Self.departureNote(vInfinity: v, injectionSpeed: v.map { ($0 * $0 + 2 * mu / r0).squareRoot() }, exit: escape.endSeconds))
                    pieces.append(ascent(launch: launch, injection: injection, eph: eph, terrestrial: c.terrestrial) { escape.local(at: $0) })
                }
                if case let .after(data) = section.start, let join = solution.impulses.first(where: { $0.leg == 0 }) {
                    pieces += data.pieces(after: join.seconds)
                }
                pieces += Self.pieces(of: solution, shooting: shooting, label: correction.short)
                for f in solution.flybys {
                    guard let e = section.encounters.first(where: { $0.event.name == f.flyby.name }) else { continue }
                    let mu = GravityConstants.gm(e.body)
                    flown.append(FlownFlyby(encounter: e, achievedKm: f.closestApproachKm, achievedSeconds: f.closestApproachSeconds,
                                            vInfinityIn: f.vInfinityKmS, vInfinityOut: f.vInfinityKmS, turnRadians: f.turnRadians,
                                            unpoweredTurnRadians: FlybyGeometry.unpoweredTurn(vInfinity: f.vInfinityKmS, periapsisKm: e.distanceKm, mu: mu), impulseKmS: 0))
                }
                let names = shooting.flybys.map(\.name)
                for i in solution.impulses {
                    let what: String
                    switch (i.leg, section.start, section.finish) {
                    case let (0, .after(data), _): what = "the join from \(data.short) (carried on two-body to here) towards \(names[0])"
                    case let (0, _, .before(data)): what = "the join to \(data.short) (carried back two-body to here) from \(names[0])"
                    case (_, _, .before): what = "the \(correction.phase) of the leg from the \(names[i.leg]) to \(names[i.leg - 1])"
                    default: what = "the \(correction.phase) of the leg to \(names[i.leg])"
                    }
                    burns.append(Impulse(seconds: i.seconds, deltaV: i.deltaV, what: what))
                }
                if case let .before(data) = section.finish, let join = solution.impulses.first(where: { $0.leg == 0 }) {
                    pieces += data.pieces(before: join.seconds)
                    pieces.append(data.piece)
                    try notes += dataNotes(data, eph: eph)
                }
            }
            if case .chain = built.solved, case let .before(data) = section.finish {
                try notes += dataNotes(data, eph: eph)
            }
        }
        burns.sort { $0.seconds < $1.seconds }
        pieces = try Self.integratedEscape(pieces, injection: injection, burns: burns.map(\.seconds), ephemeris: eph, notes: &notes)
        let data = plan.sections.flatMap { section -> [ClosedRange<Double>] in
            var spans: [ClosedRange<Double>] = []
            if case let .after(d) = section.start { spans.append(d.span.startSeconds...d.span.endSeconds) }
            if case let .before(d) = section.finish { spans.append(d.span.startSeconds...d.span.endSeconds) }
            return spans
        }
        pieces = try Self.integratedFlybys(pieces, flybys: flown.map { ($0.encounter.event.name, $0.encounter.body, $0.achievedSeconds) },
                                           burns: burns.map(\.seconds), data: data, ephemeris: eph, notes: &notes)
        if let arrival, let last = flown.map(\.achievedSeconds).max() {
            pieces = try planned(arrival, pieces: pieces, lastFlyby: last, end: end, context: c, burns: &burns, notes: &notes)
            burns.sort { $0.seconds < $1.seconds }
        }
        // Published against flown.
        notes.append("Flybys (published -> flown; distances from the centre of the body as the engine places it):")
        for f in flown {
            let e = f.encounter
            let radius = eph.catalogue[e.body].radiusKm
            let when = e.day == nil ? "at \(e.event.date.iso8601)" : "on \(e.event.date.iso8601.prefix(10)) (date only)"
            notes.append("  \(e.event.name): \(Self.published(e.event, radiusKm: radius)) \(when) -> \(Self.kilometres(f.achievedKm)) (\(Self.kilometres(f.achievedKm - radius)) altitude) at \(Self.iso(f.achievedSeconds)); v∞ \(String(format: "%.3f", f.vInfinityIn)) -> \(String(format: "%.3f", f.vInfinityOut)) km/s, turn \(String(format: "%.2f", f.turnRadians * 180 / .pi))° (unpowered at this distance: \(String(format: "%.2f", f.unpoweredTurnRadians * 180 / .pi))°), impulse at closest approach \(Self.metres(f.impulseKmS)).")
            if e.body == .pluto {
                notes.append("    The fact's distance is from Pluto's centre; the engine's pluto is the Pluto-Charon barycentre (about 2,100 km from Pluto's centre), so the hyperbola passes that distance from the barycentre.")
            }
        }
        // Every impulse inside a listed powered phase.
        let powered = vehicle.phases.filter { $0.kind == .powered }
        var missing: [String] = []
        notes.append("Impulses (velocity changes the conics need; each inside a powered phase of missions.json):")
        for b in burns {
            let phase = powered.first { c.seconds(hours: $0.startHours) <= b.seconds && b.seconds <= c.seconds(hours: $0.endHours) }
            if let phase {
                notes.append("  \(Self.iso(b.seconds)): \(Self.metres(b.deltaV.length)) at \(b.what) (phase \"\(phase.name)\").")
            } else {
                missing.append("\(Self.iso(b.seconds)): \(Self.metres(b.deltaV.length)) at \(b.what)")
            }
        }
        guard missing.isEmpty else {
            throw RecipeError(description: "\(missionID): impulses in no powered phase of \(vehicle.id) (list them in missions.json):\n  " + missing.joined(separator: "\n  "))
        }
        if burns.isEmpty { notes.append("  none: every flyby is ballistic.") }
        // Checks of the events the chain does not impose (perihelia; the end's perihelion has its
        // time imposed, not its distance).
        let path = PiecewisePath(pieces: pieces)
        let stopKeys = Set(plan.sections.flatMap { $0.encounters.map { $0.event.key ?? "" } })
        for e in c.mission.events where e.key.map({ !stopKeys.contains($0) }) ?? false {
            guard let f = e.fact, let body = f.body, f.distanceKm != nil || f.altitudeKm != nil else { continue }
            let t = e.date.daysSinceJ2000TDB * Constants.secondsPerDay
            let center = e.timeFromClosestApproach ? t + 43_200 : t
            guard center - 2 * 86_400 > path.startSeconds, center + 2 * 86_400 < path.endSeconds else { continue }
            let ca = try Self.closestApproach(body: body, around: center, within: 2 * 86_400, ephemeris: eph) { try path.state(at: $0) }
            let speed = try path.state(at: ca.seconds).velocityKmS.length
            let how = e.key == endPerihelion ? "its time imposed through the last flyby's turn"
                : e.key == arrival?.insertion ? "the plan's insertion, imposed" : "not imposed"
            notes.append("Check, \(e.name) (\(how)): published \(Self.published(e, radiusKm: eph.catalogue[body].radiusKm))\(f.speedKmS.map { String(format: ", %.1f km/s", $0) } ?? "") \(e.timeFromClosestApproach ? "on \(e.date.iso8601.prefix(10))" : "at \(e.date.iso8601)"); the path: \(Self.kilometres(ca.km)) at \(Self.iso(ca.seconds)), \(String(format: "%.1f", speed)) km/s.")
        }
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes)]
    }

    static func departureNote(vInfinity: Double?, injectionSpeed: Double?, exit: Double?) -> String {
        String(format: "Departure: C3 %.2f km²/s² (v∞ %.3f km/s), %.3f km/s at injection; leaves the Earth's sphere of influence %@.",
               (vInfinity ?? 0) * (vInfinity ?? 0), vInfinity ?? 0, injectionSpeed ?? 0, exit.map(iso) ?? "-")
    }

    /// What the notes say about a data span: its span, and the mission event inside it as the
    /// data fly it against the published figures.
    func dataNotes(_ data: DataStop, eph: Ephemeris) throws -> [String] {
        var notes = ["\(data.label): \(Self.iso(data.span.startSeconds)) to \(Self.iso(data.span.endSeconds)), the kernel's states kept (\(data.span.kernel.fileName))."]
        if let event = data.event, let body = event.fact?.body {
            let inside = max(data.span.startSeconds, min(data.span.endSeconds, event.date.daysSinceJ2000TDB * Constants.secondsPerDay))
            let within = min(inside - data.span.startSeconds, data.span.endSeconds - inside)
            let ca = try Self.closestApproach(body: body, around: inside, within: within, ephemeris: eph) { try data.span.state(at: $0) }
            let r = eph.catalogue[body].radiusKm
            notes.append("  \(event.name) in the data: closest \(Self.kilometres(ca.km)) from the centre (\(Self.kilometres(ca.km - r)) altitude) at \(Self.iso(ca.seconds)); published: \(Self.published(event, radiusKm: r)) at \(event.date.iso8601).")
        }
        return notes
    }

    /// "2,385 km above Venus" / "2,300,000 km from the centre", as the fact states it.
    static func published(_ e: MissionEvent, radiusKm: Double) -> String {
        guard let f = e.fact else { return "no distance" }
        if let d = f.distanceKm { return "\(kilometres(d)) from the centre" }
        if let a = f.altitudeKm { return "\(kilometres(a)) altitude (\(kilometres(a + radiusKm)) from the centre)" }
        return "no distance"
    }

    /// The ascent: a powered blend from the turning pad to the chain's escape hyperbola (carried
    /// back before the injection along its horizontal motion, so the blend flies downrange).
    func ascent(launch: Double, injection: Double, eph: Ephemeris, terrestrial: TerrestrialFrame, escape: @escaping (Double) -> (position: Vector3, velocity: Vector3)) -> PathPiece {
        let pad = self.pad
        let to: (Double) throws -> OrbitalState = { t in
            let e = eph.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
            let s: (position: Vector3, velocity: Vector3)
            if t < injection {
                let at = escape(injection)
                s = EscapeArc.turned(position: at.position, velocity: at.velocity, by: t - injection)
            } else {
                s = escape(t)
            }
            return OrbitalState(seconds: t, positionKm: s.position + e.positionKm, velocityKmS: s.velocity + e.velocityKmS)
        }
        let blend = PoweredBlend(center: .earth, start: launch, end: injection, ephemeris: eph, from: { pad.state(at: $0, ephemeris: eph, terrestrial: terrestrial) }, to: to)
        return PathPiece(name: "Ascent and injection (modelled)", notes: [
            "From the pad at the published launch time to the escape hyperbola's injection point: a powered blend (direction along a great circle, distance smoothstep) between the turning pad and the hyperbola."],
                         startSeconds: launch, endSeconds: injection, center: 399, maxStepSeconds: 30, state: { try blend.state(at: $0) })
    }

    /// How closely the kernel holds a flyby's hyperbola, km (5 cm, where the assembly's 5 m
    /// would let the interpolation's acceleration near the closest approach stray by mm/s²).
    static let flybyToleranceKm = 5e-5

    /// One piece per conic of the chain (a flyby's two halves together when no impulse
    /// separates them), each evaluated on its own conic so a burn's two sides stay apart.
    static func pieces(of chain: FlybyChain, names: [String]) -> [PathPiece] {
        var pieces: [PathPiece] = []
        let segments = chain.segments
        let powered = Set(chain.burns.filter { $0.kind == .closestApproach }.map(\.node))
        var i = 0
        while i < segments.count {
            let s = segments[i]
            var last = i
            let name: String, notes: [String], step: Double
            switch s.kind {
            case .escape:
                name = "Escape hyperbola from \(display(s.center))"
                notes = ["Two-body hyperbola about the Earth from the injection point, in the plane through the escape asymptote least inclined to the equator."]
                step = 3_600
            case .leg(let k):
                name = "Lambert arc \(names[k]) -> \(names[k + 1])"
                notes = ["Two-body conic about the Sun joining the spheres of influence at the chain's times (Lambert's problem, \(chain.legs[k].revolutions) complete revolution(s))."]
                step = 10 * 86_400
            case .inbound(let node), .outbound(let node):
                if case .inbound = s.kind, i + 1 < segments.count, segments[i + 1].kind == .outbound(node: node), !powered.contains(node) { last = i + 1 }
                name = "\(names[node]) flyby hyperbola"
                notes = ["Two-body hyperbola about \(display(s.center)) with its closest approach at the published distance and time."]
                step = 6 * 3_600
            case .approach:
                name = "\(names[names.count - 1]) approach hyperbola"
                notes = []
                step = 3_600
            case .coast:
                name = "Coast after \(names[names.count - 1]) (two-body)"
                notes = ["Two-body conic about the Sun after the last flyby, unpowered, to the kernel's end."]
                step = 10 * 86_400
            }
            let first = i, final = last
            let start = segments[first].startSeconds, stop = segments[final].endSeconds
            let boundary = segments[first].endSeconds
            var piece = PathPiece(name: name, notes: notes, startSeconds: start, endSeconds: stop, center: centerID(s.center), maxStepSeconds: step) { t in
                let index = t <= boundary ? first : final
                let local = chain.state(atSeconds: t, segment: index)
                return local
            }
            if case .inbound = s.kind { piece.toleranceKm = flybyToleranceKm }
            if case .outbound = s.kind { piece.toleranceKm = flybyToleranceKm }
            pieces.append(piece)
            i = last + 1
        }
        return pieces
    }

    /// One piece per conic of a shot section.
    static func pieces(of solution: FlybyShooting.Solution, shooting: FlybyShooting, label: String) -> [PathPiece] {
        func name(_ m: FlybyShooting.Mark) -> String {
            switch m {
            case .start, .end: "Earth"
            case .impulse: label
            case .flyby(let k): display(shooting.flybys[k].body)
            }
        }
        return solution.arcs.map { arc in
            let title: String, notes: [String], step: Double
            switch arc.kind {
            case .escape:
                title = "Escape hyperbola from Earth"
                notes = ["Two-body hyperbola about the Earth from the injection point, in the plane through the escape asymptote least inclined to the equator; its v∞ aims the first flyby."]
                step = 3_600
            case .hyperbola(let k) where shooting.flybys[k].name == "injection":
                title = "Escape hyperbola from Earth"
                notes = ["Two-body hyperbola about the Earth from the injection point (its periapsis, at the injection time), aimed from the first flyby back."]
                step = 3_600
            case .hyperbola(let k):
                title = "\(display(shooting.flybys[k].body)) flyby hyperbola"
                notes = ["Two-body hyperbola about \(display(shooting.flybys[k].body)), unpowered, with its closest approach at the published distance and time."]
                step = 6 * 3_600
            case let .cruise(from, .end):
                title = "Coast after \(name(from)) (two-body)"
                notes = ["Two-body conic about the Sun after the last flyby, unpowered, to the kernel's end."]
                step = 10 * 86_400
            case let .cruise(from, to):
                title = "Two-body arc \(name(from)) -> \(name(to))"
                notes = ["Two-body conic about the Sun between a sphere of influence and an impulse (\(label): modelled)."]
                step = 10 * 86_400
            }
            var piece = PathPiece(name: title, notes: notes, startSeconds: arc.startSeconds, endSeconds: arc.endSeconds, center: centerID(arc.center),
                                  maxStepSeconds: step) { shooting.state(arc, at: $0) }
            if case let .hyperbola(k) = arc.kind, shooting.flybys[k].name != "injection" { piece.toleranceKm = flybyToleranceKm }
            return piece
        }
    }

    /// The least distance from `body` of a path within `within` seconds of `around`: a scan
    /// every 10 minutes, then golden-section search to a tenth of a second.
    static func closestApproach(body: BodyID, around: Double, within: Double, ephemeris: Ephemeris,
                                state: (Double) throws -> OrbitalState) throws -> (km: Double, seconds: Double) {
        func distance(_ t: Double) throws -> Double {
            let s = try state(t)
            let b = ephemeris.naifState(centerID(body), at: TimeScale.instant(tdbSecondsPastJ2000: t)) ?? (.zero, .zero)
            return (s.positionKm - b.positionKm).length
        }
        return try minimise(from: around - within, to: around + within, step: 600, f: distance)
    }

    /// The least of `f` over [a, b]: a scan at `step`, then golden-section search around the
    /// best sample to a tenth of a second.
    static func minimise(from a: Double, to b: Double, step: Double, f: (Double) throws -> Double) throws -> (km: Double, seconds: Double) {
        var best = (value: Double.infinity, t: a)
        var t = a
        while t <= b {
            let v = try f(t)
            if v < best.value { best = (v, t) }
            t += step
        }
        var lo = max(a, best.t - step), hi = min(b, best.t + step)
        let ratio = (5.0.squareRoot() - 1) / 2
        while hi - lo > 0.1 {
            let m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
            if try f(m1) < f(m2) { hi = m2 } else { lo = m1 }
        }
        let tm = (lo + hi) / 2
        let vm = try f(tm)
        return vm < best.value ? (vm, tm) : (best.value, best.t)
    }
}

/// An impulse of the path, for the phase check and the notes.
struct Impulse {
    let seconds: Double
    let deltaV: Vector3
    let what: String
}

/// A flyby as planned (the event) and as flown.
struct FlownFlyby {
    let encounter: FlybyRecipe.Encounter
    let achievedKm: Double
    let achievedSeconds: Double
    let vInfinityIn: Double
    let vInfinityOut: Double
    let turnRadians: Double
    /// What two unpowered half-hyperbolas at the planned distance turn.
    let unpoweredTurnRadians: Double
    let impulseKmS: Double
}

/// A path read piece by piece (the piece starting last at or before the time).
struct PiecewisePath {
    let pieces: [PathPiece]
    var startSeconds: Double { pieces.first?.startSeconds ?? 0 }
    var endSeconds: Double { pieces.last?.endSeconds ?? 0 }

    func state(at t: Double) throws -> OrbitalState {
        guard let p = pieces.last(where: { $0.startSeconds <= t }) ?? pieces.first else {
            throw RecipeError(description: "an empty path")
        }
        return try p.state(t)
    }
}
