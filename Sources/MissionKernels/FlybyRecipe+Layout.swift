import Astrodynamics
import Ephemeris
import Missions

extension FlybyRecipe {
    /// A flyby stop read from its event: the body and distance its fact states, its time (the
    /// start of its day when the sources give only the date: `day` is then searched).
    struct Encounter {
        let event: MissionEvent
        let body: BodyID
        let distanceKm: Double
        let seconds: Double
        let day: ClosedRange<Double>?
        let leg: FlybyPlan.Leg
    }

    /// A span of real data, with the two-body coasts that carry its ends to the impulses joining
    /// it to the chains before and after.
    struct DataStop {
        let span: KernelSpan
        let label: String
        let short: String
        let event: MissionEvent?
        let leg: FlybyPlan.Leg
        let before: PatchedCoast
        let after: PatchedCoast

        init(span: KernelSpan, label: String, short: String, event: MissionEvent?, leg: FlybyPlan.Leg, ephemeris: Ephemeris) throws {
            self.span = span
            self.label = label
            self.short = short
            self.event = event
            self.leg = leg
            before = try PatchedCoast(from: span.state(at: span.startSeconds), forward: false, ephemeris: ephemeris)
            after = try PatchedCoast(from: span.state(at: span.endSeconds), forward: true, ephemeris: ephemeris)
        }

        /// The data themselves.
        var piece: PathPiece {
            let span = self.span
            return PathPiece(name: label, notes: ["\(span.kernel.fileName), NAIF \(span.target): the kernel's own states (real trajectory data), resampled."],
                             startSeconds: span.startSeconds, endSeconds: span.endSeconds, center: 10, maxStepSeconds: 3_600) { try span.state(at: $0) }
        }

        /// The coast from the impulse at `t` to the data's first state (about the Sun, then about
        /// the planet whose sphere holds that state, if one does).
        func pieces(before t: Double) -> [PathPiece] {
            let coast = before
            let note = ["The data's first state carried back by two-body motion (patched conics) to the impulse that joins it to the chain."]
            guard let body = coast.body, let h = coast.handoverSeconds else {
                return [PathPiece(name: "Coast to \(short) (two-body)", notes: note, startSeconds: t, endSeconds: span.startSeconds, center: 10) { coast.state(at: $0) }]
            }
            return [PathPiece(name: "Coast to \(short) (two-body)", notes: note, startSeconds: t, endSeconds: h, center: 10) { coast.state(at: $0) },
                    PathPiece(name: "\(FlybyRecipe.display(body)) hyperbola to \(short)", notes: note, startSeconds: h, endSeconds: span.startSeconds,
                              center: FlybyRecipe.centerID(body), maxStepSeconds: 3_600) { coast.state(at: $0) }]
        }

        /// The coast from the data's last state to the impulse at `t`.
        func pieces(after t: Double) -> [PathPiece] {
            let coast = after
            let note = ["The data's last state carried on by two-body motion (patched conics) to the impulse that joins it to the chain."]
            guard let body = coast.body, let h = coast.handoverSeconds else {
                return [PathPiece(name: "Coast after \(short) (two-body)", notes: note, startSeconds: span.endSeconds, endSeconds: t, center: 10) { coast.state(at: $0) }]
            }
            return [PathPiece(name: "\(FlybyRecipe.display(body)) hyperbola after \(short)", notes: note, startSeconds: span.endSeconds, endSeconds: h,
                              center: FlybyRecipe.centerID(body), maxStepSeconds: 3_600) { coast.state(at: $0) },
                    PathPiece(name: "Coast after \(short) (two-body)", notes: note, startSeconds: h, endSeconds: t, center: 10) { coast.state(at: $0) }]
        }
    }

    enum Start {
        case injection(Double)
        case after(DataStop)
    }

    enum Finish {
        case open(Double, FlybyPlan.Turn)
        case before(DataStop)
    }

    /// What a search may move: a date-only flyby's time within its day, or a join's time.
    struct Variable {
        enum Kind { case flyby(Int), aim(Int), impulse(Int), joinAfter, joinBefore }
        let kind: Kind
        let range: ClosedRange<Double>
        let step: Double
        /// An angle: searched round the circle, not clipped at the range's ends.
        var periodic: Bool { if case .aim = kind { return true } else { return false } }
        /// How finely the search settles it: a second for times, a nanoradian for aims, a
        /// millionth of a leg for a correction's place.
        var tolerance: Double {
            switch kind {
            case .aim: 1e-9
            case .impulse: 1e-6
            case .flyby, .joinAfter, .joinBefore: 1
            }
        }
    }

    /// How a section is solved.
    enum Method: Equatable {
        /// A ``FlybyChain``: Lambert legs between the flybys, impulses at closest approach.
        case chain
        /// ``FlybyShooting`` forwards: aimed flybys, one correction per leg.
        case shooting
        /// ``FlybyShooting`` backwards from a data span's start to the launch's injection point.
        case reversedShooting
    }

    /// One stretch of flybys: from the injection (or the impulse after a data span) to the open
    /// end (or the impulse before a data span). A ``FlybyChain`` solves it unless a leg returns
    /// to the body it left — where Lambert's problem between the body's positions is nearly
    /// degenerate — or it runs from the launch to a data span: then ``FlybyShooting``, backwards
    /// from the data in the second case, where a chain's impulses at the flybys would have to do
    /// all the work that thrust did between them.
    struct Section {
        let start: Start
        let encounters: [Encounter]
        let finish: Finish
        let method: Method
        let variables: [Variable]

        init(start: Start, encounters: [Encounter], finish: Finish, freeImpulseTimes: Bool) {
            self.start = start
            self.encounters = encounters
            self.finish = finish
            let returns = zip(encounters, encounters.dropFirst()).contains { $0.body == $1.body }
            switch (start, finish) {
            case (.injection, .before): method = .reversedShooting
            case (_, .open): method = returns ? .shooting : .chain
            case (.after, .before): method = .chain
            }
            var variables: [Variable] = []
            for (k, e) in encounters.enumerated() {
                if let day = e.day { variables.append(Variable(kind: .flyby(k), range: day, step: 900)) }
            }
            // Aims (by the shooting's own order of flybys: the injection last when reversed) and
            // where the legs' corrections fall.
            let shot = method == .reversedShooting ? encounters.count + 1 : encounters.count
            let aimed = method == .reversedShooting ? shot : shot - 1
            if method != .chain {
                for k in 0..<max(0, aimed) {
                    variables.append(Variable(kind: .aim(k), range: 0...(2 * Double.pi), step: 2 * Double.pi / 72))
                }
                if freeImpulseTimes {
                    for k in 1..<max(1, shot) { variables.append(Variable(kind: .impulse(k), range: 0.05...0.95, step: 0.1)) }
                }
            }
            // A join's impulse may fall anywhere from an hour beyond the data's sphere of
            // influence to a fiftieth of the way short of the neighbouring flyby.
            if case let .after(d) = start {
                let lo = (d.after.handoverSeconds ?? d.span.endSeconds) + 3_600
                let next = encounters.first.map { $0.day?.lowerBound ?? $0.seconds } ?? lo + 86_400
                let hi = next - 0.02 * (next - lo)
                variables.append(Variable(kind: .joinAfter, range: lo...hi, step: (hi - lo) / 120))
            }
            if case let .before(d) = finish {
                let hi = (d.before.handoverSeconds ?? d.span.startSeconds) - 3_600
                let previous: Double
                switch start {
                case .injection(let t): previous = encounters.last.map { $0.day?.upperBound ?? $0.seconds } ?? t
                case .after(let a): previous = encounters.last.map { $0.day?.upperBound ?? $0.seconds } ?? a.span.endSeconds
                }
                let lo = previous + 0.02 * (hi - previous)
                variables.append(Variable(kind: .joinBefore, range: lo...hi, step: (hi - lo) / 120))
            }
            self.variables = variables
        }

        /// The encounter that is the shooting's flyby `m` (reversed: latest first; nil for the
        /// injection a reversed shooting ends at).
        func encounter(shot m: Int) -> Int? {
            let k = method == .reversedShooting ? encounters.count - 1 - m : m
            return k >= 0 && k < encounters.count ? k : nil
        }

        /// Short names of the chain's nodes, for segment names: "Earth", "Venus", "modelled thrust".
        var nodeNames: [String] {
            var names: [String] = []
            switch start {
            case .injection: names.append("Earth")
            case .after: names.append("modelled thrust")
            }
            names += encounters.map { FlybyRecipe.display($0.body) }
            if case .before = finish { names.append("modelled thrust") }
            return names
        }

        /// The events' names of the chain's nodes, for notes.
        var eventNames: [String] {
            var names: [String] = []
            switch start {
            case .injection: names.append("injection")
            case .after(let d): names.append("impulse after \(d.short)")
            }
            names += encounters.map(\.event.name)
            if case let .before(d) = finish { names.append("impulse before \(d.short)") }
            return names
        }

        /// The encounter a chain node is (nodes are the start, the encounters, then the finish).
        func encounterIndex(node: Int) -> Int? { node >= 1 && node <= encounters.count ? node - 1 : nil }
    }

    /// A join between the chain and a data span's coast: when, and the impulse it needs.
    struct Join {
        let seconds: Double
        let deltaV: Vector3
    }

    /// A section solved for given times (and aims), what it costs (the sum of its impulses,
    /// km/s), and what the search found.
    struct Built {
        enum Solved {
            case chain(FlybyChain, departureJoin: Join?, arrivalJoin: Join?)
            case shooting(FlybyShooting, FlybyShooting.Solution)
        }

        let solved: Solved
        let cost: Double
        var searchNotes: [String] = []
    }

    /// The recipe's stops read from the mission: chains separated by the data spans.
    struct Layout {
        let recipe: FlybyRecipe
        let ephemeris: Ephemeris
        let injection: Double
        let sections: [Section]
        /// The time (TDB seconds) of the perihelion the coast after the last flyby keeps
        /// (``FlybyRecipe/endPerihelion``).
        let endPerihelion: Double?

        init(recipe: FlybyRecipe, context c: BuildContext, injection: Double, end: Double) throws {
            self.recipe = recipe
            ephemeris = c.ephemeris
            self.injection = injection
            endPerihelion = try recipe.endPerihelion.map { key in
                guard let e = c.mission.events.first(where: { $0.key == key }), !e.timeFromClosestApproach else {
                    throw RecipeError(description: "\(recipe.missionID): the end's perihelion \"\(key)\" must be an event dated to the minute")
                }
                return try c.event(key)
            }
            let vehicle = try c.vehicle(recipe.vehicleID)
            var sections: [Section] = []
            var start = Start.injection(injection)
            var encounters: [Encounter] = []
            for stop in recipe.stops {
                switch stop {
                case let .flyby(key, leg):
                    guard let e = c.mission.events.first(where: { $0.key == key }) else {
                        throw RecipeError(description: "mission \(recipe.missionID) has no event \"\(key)\"")
                    }
                    guard let f = e.fact, let body = f.body else { throw RecipeError(description: "\(recipe.missionID): event \"\(key)\" names no body") }
                    let radius = c.ephemeris.catalogue[body].radiusKm
                    guard let distance = f.distanceKm ?? f.altitudeKm.map({ $0 + radius }) else {
                        throw RecipeError(description: "\(recipe.missionID): event \"\(key)\" states no distance or altitude: the flyby needs one")
                    }
                    let t = try c.event(key)
                    encounters.append(Encounter(event: e, body: body, distanceKm: distance, seconds: t,
                                                day: e.timeFromClosestApproach ? t...(t + Constants.secondsPerDay) : nil, leg: leg))
                case let .data(file, label, short, eventKey, leg):
                    let span = try KernelSpan(kernel: c.kernel(file), target: vehicle.naifID, ephemeris: c.ephemeris)
                    let event = eventKey.flatMap { k in c.mission.events.first { $0.key == k } }
                    let data = try DataStop(span: span, label: label, short: short, event: event, leg: leg, ephemeris: c.ephemeris)
                    sections.append(Section(start: start, encounters: encounters, finish: .before(data), freeImpulseTimes: recipe.freeImpulseTimes))
                    start = .after(data)
                    encounters = []
                }
            }
            sections.append(Section(start: start, encounters: encounters, finish: .open(end, recipe.endTurn), freeImpulseTimes: recipe.freeImpulseTimes))
            self.sections = sections
        }

        /// The section solved with its variables at `x` — for a shot section, only as far as flyby
        /// `through` when given (that flyby's aim then follows the end's rule).
        func build(_ s: Section, _ x: [Double], through: Int? = nil) throws -> Built {
            var times = s.encounters.map(\.seconds)
            var aims = [Double](repeating: 0, count: s.encounters.count + 1)
            var fractions: [Int: Double] = [:]
            var joinAfter: Double?, joinBefore: Double?
            for (v, value) in zip(s.variables, x) {
                switch v.kind {
                case .flyby(let k): times[k] = value
                case .aim(let k): aims[k] = value
                case .impulse(let k): fractions[k] = value
                case .joinAfter: joinAfter = value
                case .joinBefore: joinBefore = value
                }
            }
            if s.method != .chain {
                var start: FlybyShooting.Start
                var flybys = s.encounters.enumerated().map { k, e in
                    FlybyShooting.Flyby(body: e.body, seconds: times[k], distanceKm: e.distanceKm, name: e.event.name)
                }
                let end: Double, turn: FlybyPlan.Turn
                switch (s.start, s.finish) {
                case let (.injection(t), .open(stop, rule)):
                    start = .escape(seconds: t, altitudeKm: recipe.injectionAltitudeKm)
                    (end, turn) = (stop, rule)
                case let (.after(d), .open(stop, rule)):
                    start = .coast(d.after, seconds: joinAfter ?? d.span.endSeconds)
                    (end, turn) = (stop, rule)
                case let (.injection(t), .before(d)):
                    start = .coast(d.before, seconds: joinBefore ?? d.span.startSeconds)
                    flybys.reverse()
                    flybys.append(FlybyShooting.Flyby(body: .earth, seconds: t, distanceKm: ephemeris.catalogue[.earth].radiusKm + recipe.injectionAltitudeKm, name: "injection"))
                    (end, turn) = (t, .accelerate)
                default:
                    throw RecipeError(description: "no shooting from the data after one span to the next")
                }
                let reversed = s.method == .reversedShooting
                let last = through ?? (flybys.count - 1)
                flybys = Array(flybys.prefix(last + 1))
                let stop = through == nil || reversed ? end : flybys[last].seconds + Constants.secondsPerDay
                var shooting = FlybyShooting(start: start, flybys: flybys, endSeconds: stop, endTurn: turn, reversed: reversed,
                                             stopsAtLastFlyby: reversed && last == s.encounters.count, ephemeris: ephemeris)
                shooting.impulseFractions = fractions
                if through == nil, !reversed, case .open = s.finish { shooting.endPerihelionSeconds = endPerihelion }
                let count = shooting.stopsAtLastFlyby ? flybys.count : flybys.count - 1
                let solution = try shooting.solve(aims: Array(aims.prefix(count)))
                return Built(solved: .shooting(shooting, solution), cost: solution.totalImpulseKmS)
            }
            var nodes: [FlybyNode] = [], legs: [FlybyPlan.Leg] = []
            var departure: OrbitalState?, arrival: OrbitalState?
            switch s.start {
            case .injection(let t):
                nodes.append(.departure(.earth, seconds: t, injectionAltitudeKm: recipe.injectionAltitudeKm, name: "injection"))
            case .after(let d):
                let p = d.after.state(at: joinAfter ?? d.span.endSeconds)
                nodes.append(.departure(fromPointKm: p.positionKm, seconds: p.seconds, name: "impulse after \(d.short)"))
                departure = p
            }
            for (k, e) in s.encounters.enumerated() {
                nodes.append(.flyby(e.body, seconds: times[k], closestApproachKm: e.distanceKm, name: e.event.name))
                legs.append(e.leg)
            }
            var open: FlybyPlan.OpenEnd?
            switch s.finish {
            case let .open(t, turn):
                open = FlybyPlan.OpenEnd(seconds: t, turn: turn)
            case .before(let d):
                let p = d.before.state(at: joinBefore ?? d.span.startSeconds)
                nodes.append(.arrival(atPointKm: p.positionKm, seconds: p.seconds, name: "impulse before \(d.short)"))
                legs.append(d.leg)
                arrival = p
            }
            let chain = try FlybyChain(plan: FlybyPlan(center: .sun, nodes: nodes, legs: legs, openEnd: open), ephemeris: ephemeris)
            var cost = chain.burns.reduce(0) { $0 + $1.deltaVKmS }
            var after: Join?, before: Join?
            if let p = departure {
                let v = chain.state(atSeconds: p.seconds, segment: 0).velocityKmS
                after = Join(seconds: p.seconds, deltaV: v - p.velocityKmS)
                cost += (v - p.velocityKmS).length
            }
            if let p = arrival {
                let v = chain.state(atSeconds: p.seconds, segment: chain.segments.count - 1).velocityKmS
                before = Join(seconds: p.seconds, deltaV: p.velocityKmS - v)
                cost += (p.velocityKmS - v).length
            }
            return Built(solved: .chain(chain, departureJoin: after, arrivalJoin: before), cost: cost)
        }
    }
}

extension FlybyRecipe.Variable.Kind {
    var isAfter: Bool { if case .joinAfter = self { return true } else { return false } }
}

