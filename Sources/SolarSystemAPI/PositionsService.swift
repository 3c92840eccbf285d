import Ephemeris
import HTTPCore
import Satellites
import Scene
import SmallBodies

/// One body's row in a positions answer, already in the requested frame and units.
public struct PositionEntry: Sendable {
    public let body: BodyRef
    public let position: Vector3
    public let velocity: Vector3
    /// The theory that gave the body's state and the span it serves.
    public let theory: TheorySpan
    /// The element set and ground point of a satellite (nil for other bodies).
    public var satellite: SatelliteAnnotation? = nil
    public var distance: Double { position.length }
}

/// The answer of `/v1/positions` and `solarsystem positions`.
public struct PositionsResult: Sendable {
    public let query: PositionsQuery
    public let entries: [PositionEntry]
    /// The theories serving the instant, in words.
    public let model: String
    /// Satellites of the default body list SGP4 gives no state for at the instant, with why.
    public var unavailable: [(id: String, reason: String)] = []

    /// `{date, jdTT, jdTDB, frame, center, units, velocityUnits, model, bodies:[{id, theory, validJdTDB, position, velocity, distance}]}`
    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 512 + entries.count * 250)
        w.object { w in
            Self.writeTime(query.instant, into: &w)
            Self.writeSelection(query.selection, into: &w)
            w.key("model"); w.string(model)
            w.key("bodies")
            w.array { w in
                for e in entries {
                    w.object { w in
                        w.key("id"); w.string(e.body.description)
                        w.key("theory"); w.string(e.theory.name)
                        w.key("validJdTDB"); w.numbers([e.theory.jdTDB.lowerBound, e.theory.jdTDB.upperBound])
                        Self.writeVectors(e, into: &w)
                        e.satellite?.write(into: &w)
                    }
                }
            }
            if !unavailable.isEmpty {
                w.key("unavailable")
                w.array { w in
                    for u in unavailable {
                        w.object { w in
                            w.key("id"); w.string(u.id)
                            w.key("reason"); w.string(u.reason)
                        }
                    }
                }
            }
        }
        return w.bytes
    }

    /// The `date`, `jdTT`, `jdTDB` triple every time-dependent answer starts with.
    public static func writeTime(_ t: Instant, into w: inout JSONWriter) {
        w.key("date"); w.string(writingASCII: { t.utc.appendISO8601(to: &$0) })
        w.key("jdTT"); w.number(t.jdTT)
        w.key("jdTDB"); w.number(t.jdTDB)
    }

    static func writeSelection(_ s: FrameSelection, into w: inout JSONWriter) {
        w.key("frame"); w.string(s.frame.rawValue)
        w.key("center"); w.string(s.centerName)
        w.key("units"); w.string(s.units.rawValue)
        w.key("velocityUnits"); w.string(s.velocityUnits)
    }

    static func writeVectors(_ e: PositionEntry, into w: inout JSONWriter) {
        w.key("position"); w.numbers(e.position)
        w.key("velocity"); w.numbers(e.velocity)
        w.key("distance"); w.number(e.distance)
    }
}

/// Computes positions in any frame, centre and units from one engine, and the bodies of the
/// loaded SPK kernels (spacecraft, landers: `naif:<id>`).
public final class EphemerisService: Sendable {
    public let ephemeris: Ephemeris
    public let layout: SceneLayout
    /// Where spacecraft are drawn in the scene frame.
    public let placement: ScenePlacement
    /// The bodies of the loaded kernels (nil: none).
    public let kernelBodies: KernelBodies?
    /// Body states answered, by theory (`/metrics`).
    public let answers: TheoryTally
    /// The loaded element sets (`iss`, `norad:` bodies).
    public let satellites: SatelliteFeed
    /// The loaded asteroids and comets (`sb:` bodies; nil: none).
    public let smallBodies: SmallBodyFeed?

    /// With a `satellites` feed that holds NORAD 25544, the engine's `iss` (scene, rotations,
    /// snapshots) comes from SGP4 too.
    /// `moonAnchors`: moons moved near the missions' published flybys (``MoonFlybyAnchors``).
    public init(catalogue: Catalogue, kernel: PlanetaryKernel? = nil, bodies: KernelBodies? = nil, satellites: SatelliteFeed = SatelliteFeed(),
                smallBodies: SmallBodyFeed? = nil, answers: TheoryTally = TheoryTally(), moonAnchors: [MoonAnchor] = []) {
        self.satellites = satellites
        self.smallBodies = smallBodies
        self.answers = answers
        let hasISS = satellites.current.catalogue.satellite(norad: SatelliteCatalogue.issNoradID) != nil
        ephemeris = Ephemeris(catalogue: catalogue, kernel: kernel, issSource: hasISS ? satellites : nil, satellites: bodies,
                              moonAnchors: moonAnchors)
        layout = SceneLayout(catalogue: catalogue)
        placement = ScenePlacement(layout: layout)
        kernelBodies = bodies
    }

    /// A kernel body's heliocentric state (AU, AU/day) at `t` and the segment behind it, or a
    /// 422 problem naming where the kernels cover it.
    func kernelState(_ naifID: Int, name: String, at t: Instant) throws(ProblemDetails) -> (StateVector, TheorySpan) {
        guard let bodies = kernelBodies else {
            throw ProblemDetails.unknownId("body", id: name, parameter: nil, valid: BodyID.allCases.map(\.rawValue))
        }
        do {
            let s = try bodies.state(naifID, at: t, ephemeris: ephemeris)
            let perDay = Constants.secondsPerDay / Constants.auKm
            let span = bodies.coverage(of: naifID).first { $0.contains(t.daysSinceJ2000TDB * Constants.secondsPerDay) }
                ?? s.segment.startSeconds...s.segment.endSeconds
            return (StateVector(positionAU: s.positionKm / Constants.auKm, velocityAUPerDay: s.velocityKmS * perDay),
                    TheorySpan(name: "SPK \(s.segment.label)", jdTDB: (Constants.jdJ2000 + span.lowerBound / Constants.secondsPerDay)...(Constants.jdJ2000 + span.upperBound / Constants.secondsPerDay)))
        } catch {
            throw Self.outsideKernels(name, error)
        }
    }

    /// 422: the date lies outside what the loaded kernels cover for the body.
    static func outsideKernels(_ name: String, _ error: KernelBodyError) -> ProblemDetails {
        var p = ProblemDetails(status: .unprocessableContent, title: "Outside the loaded kernels", detail: "body \(name): \(error.description)")
        let spans: [ClosedRange<Double>]
        switch error {
        case let .notCovered(_, _, s), let .centerNotCovered(_, _, _, s): spans = s
        default: spans = []
        }
        p.extensions.append(("body", .string(name)))
        p.extensions.append(("covered", .array(spans.map { .array([.string(KernelBodyError.date($0.lowerBound)), .string(KernelBodyError.date($0.upperBound))]) })))
        return p
    }

    /// How satellites are computed, for the `model` of answers that include one.
    static let satelliteModel = "SGP4 (Vallado et al. 2006, WGS-72) from element sets for Earth satellites, TEME to J2000 by IAU 1980 nutation and IAU 1976 precession"

    /// Half-width of the central difference that gives scene-frame velocities.
    static let sceneVelocityStepSeconds = 60.0

    /// Every listed body at one instant (each theory evaluated once for the whole set). Throws
    /// a 422 problem when a kernel body is not covered then.
    public func positions(_ q: PositionsQuery) throws(ProblemDetails) -> PositionsResult {
        let result = try computePositions(q)
        answers.record(result.entries)
        return result
    }

    func computePositions(_ q: PositionsQuery) throws(ProblemDetails) -> PositionsResult {
        let s = q.selection
        var model = ephemeris.modelSummary(jdTDB: q.instant.jdTDB)
        if q.bodies.contains(where: \.isSatellite) { model += "; " + Self.satelliteModel }
        let small = smallBodies?.current
        if let small, let m = q.bodies.lazy.compactMap({ ref -> SmallBodyModel? in if case let .smallBody(_, _, m) = ref { return m }; return nil }).first {
            model += "; " + Self.smallBodyModel(m, perturbers: small.propagator.perturberNumbers, kernel: ephemeris.kernel?.label ?? "no kernel")
        }
        let catalogue = satellites.current.catalogue
        var unavailable: [(id: String, reason: String)] = []
        /// A satellite's entry; from the default list, a failure is noted instead of thrown.
        func satelliteEntry(_ ref: BodyRef, _ norad: Int, _ name: String, earth: StateVector?, origin: StateVector?) throws(ProblemDetails) -> PositionEntry? {
            do {
                return try self.satelliteEntry(ref, norad: norad, name: name, at: q.instant, s, catalogue: catalogue, earth: earth, origin: origin)
            } catch {
                if q.bodiesListed { throw error }
                unavailable.append((name, error.detail ?? error.title))
                return nil
            }
        }
        switch s.frame {
        case .eclipticJ2000, .equatorialJ2000:
            let states = ephemeris.allStates(at: q.instant)
            let origin = s.barycentric ? self.origin(s, at: q.instant) : states[s.center.index]
            var entries: [PositionEntry] = []
            entries.reserveCapacity(q.bodies.count)
            for ref in q.bodies {
                switch ref {
                case let .engine(id):
                    entries.append(convert(ref, states[id.index] - origin, s, theory: ephemeris.theory(id, at: q.instant)))
                case let .kernel(naif, name):
                    let (state, theory) = try kernelState(naif, name: name, at: q.instant)
                    entries.append(convert(ref, state - origin, s, theory: theory))
                case let .satellite(norad, name):
                    if let e = try satelliteEntry(ref, norad, name, earth: states[BodyID.earth.index], origin: origin) { entries.append(e) }
                case let .smallBody(id, name, m):
                    let (state, theory) = try smallBodyState(id, name: name, model: m, at: q.instant, current: small)
                    entries.append(convert(ref, state - origin, s, theory: theory))
                }
            }
            var result = PositionsResult(query: q, entries: entries, model: model)
            result.unavailable = unavailable
            return result
        case .scene:
            let h = Self.sceneVelocityStepSeconds
            let instants = (q.instant, q.instant.adding(seconds: -h), q.instant.adding(seconds: h))
            let now = layout.positions(ephemeris.snapshot(at: instants.0))
            let before = layout.positions(ephemeris.snapshot(at: instants.1))
            let after = layout.positions(ephemeris.snapshot(at: instants.2))
            let c = s.center.index
            let perDay = Constants.secondsPerDay / (2 * h)
            var entries: [PositionEntry] = []
            for ref in q.bodies {
                switch ref {
                case let .engine(id):
                    let i = id.index
                    let v = ((after[i] - after[c]) - (before[i] - before[c])) * perDay
                    entries.append(PositionEntry(body: ref, position: now[i] - now[c], velocity: v, theory: ephemeris.theory(id, at: q.instant)))
                case let .kernel(naif, name):
                    let (state, theory) = try kernelState(naif, name: name, at: instants.0)
                    let p0 = try kernelScenePosition(naif, name: name, at: instants.0, state: state)
                    let pb = try kernelScenePosition(naif, name: name, at: instants.1, state: nil)
                    let pa = try kernelScenePosition(naif, name: name, at: instants.2, state: nil)
                    let v = ((pa - after[c]) - (pb - before[c])) * perDay
                    entries.append(PositionEntry(body: ref, position: p0 - now[c], velocity: v, theory: theory))
                case let .satellite(norad, name):
                    if let e = try satelliteEntry(ref, norad, name, earth: nil, origin: nil) { entries.append(e) }
                case let .smallBody(id, name, m):
                    let e = try smallBodySceneEntry(ref, id: id, name: name, model: m, at: q.instant, center: s.center, current: small)
                    entries.append(e)
                }
            }
            var result = PositionsResult(query: q, entries: entries, model: model)
            result.unavailable = unavailable
            return result
        }
    }

    /// Where the scene draws a kernel body (``ScenePlacement``).
    func kernelScenePosition(_ naif: Int, name: String, at t: Instant, state: StateVector?) throws(ProblemDetails) -> Vector3 {
        let s: StateVector
        if let state { s = state } else { s = try kernelState(naif, name: name, at: t).0 }
        return placement.scenePosition(heliocentricKm: s.positionAU * Constants.auKm, at: t, ephemeris: ephemeris)
    }

    /// One engine body at one instant (the time-series path: only the theories it needs). Not
    /// counted in `answers`: the caller records whole chunks.
    public func sample(_ id: BodyID, at t: Instant, _ s: FrameSelection) -> PositionEntry {
        switch s.frame {
        case .eclipticJ2000, .equatorialJ2000:
            let state = s.barycentric ? ephemeris.state(id, at: t) - origin(s, at: t) : ephemeris.state(id, relativeTo: s.center, at: t)
            return convert(.engine(id), state, s, theory: ephemeris.theory(id, at: t))
        case .scene:
            let h = Self.sceneVelocityStepSeconds
            let before = t.adding(seconds: -h), after = t.adding(seconds: h)
            func relative(_ at: Instant) -> Vector3 { scenePosition(id, at: at) - scenePosition(s.center, at: at) }
            let v = (relative(after) - relative(before)) * (Constants.secondsPerDay / (2 * h))
            return PositionEntry(body: .engine(id), position: relative(t), velocity: v, theory: ephemeris.theory(id, at: t))
        }
    }

    /// Any body at one instant; a kernel body outside its kernels' coverage is a 422 problem.
    public func sample(_ ref: BodyRef, at t: Instant, _ s: FrameSelection) throws(ProblemDetails) -> PositionEntry {
        switch (ref, s.frame) {
        case let (.engine(id), _):
            return sample(id, at: t, s)
        case let (.satellite(norad, name), _):
            return try satelliteEntry(ref, norad: norad, name: name, at: t, s, catalogue: satellites.current.catalogue, annotate: false)
        case let (.smallBody(id, name, m), .eclipticJ2000), let (.smallBody(id, name, m), .equatorialJ2000):
            let (state, theory) = try smallBodyState(id, name: name, model: m, at: t)
            let origin = origin(s, at: t)
            return convert(ref, state - origin, s, theory: theory)
        case let (.smallBody(id, name, m), .scene):
            return try smallBodySceneEntry(ref, id: id, name: name, model: m, at: t, center: s.center, current: nil)
        case let (.kernel(naif, name), .eclipticJ2000), let (.kernel(naif, name), .equatorialJ2000):
            let (state, theory) = try kernelState(naif, name: name, at: t)
            let origin = origin(s, at: t)
            return convert(ref, state - origin, s, theory: theory)
        case let (.kernel(naif, name), .scene):
            let h = Self.sceneVelocityStepSeconds
            func relative(_ at: Instant) throws(ProblemDetails) -> Vector3 {
                try kernelScenePosition(naif, name: name, at: at, state: nil) - scenePosition(s.center, at: at)
            }
            let v = (try relative(t.adding(seconds: h)) - relative(t.adding(seconds: -h))) * (Constants.secondsPerDay / (2 * h))
            return PositionEntry(body: ref, position: try relative(t), velocity: v, theory: try kernelState(naif, name: name, at: t).1)
        }
    }

    /// A small body in the scene frame: its heliocentric position log-scaled as the planets'
    /// are, the velocity by central difference.
    func smallBodySceneEntry(_ ref: BodyRef, id: String, name: String, model: SmallBodyModel, at t: Instant, center: BodyID,
                             current: SmallBodyFeed.Current?) throws(ProblemDetails) -> PositionEntry {
        let h = Self.sceneVelocityStepSeconds
        func relative(_ at: Instant) throws(ProblemDetails) -> (Vector3, TheorySpan) {
            let (state, theory) = try smallBodyState(id, name: name, model: model, at: at, current: current)
            return (SceneLayout.scenePosition(heliocentricAU: state.positionAU) - scenePosition(center, at: at), theory)
        }
        let (p, theory) = try relative(t)
        let v = (try relative(t.adding(seconds: h)).0 - relative(t.adding(seconds: -h)).0) * (Constants.secondsPerDay / (2 * h))
        return PositionEntry(body: ref, position: p, velocity: v, theory: theory)
    }

    /// The scene position of one body, computing only its own chain (parent, then itself).
    public func scenePosition(_ id: BodyID, at t: Instant) -> Vector3 {
        if id == .sun { return .zero }
        guard id.isSatellite, let parent = id.parent else {
            return SceneLayout.scenePosition(heliocentricAU: ephemeris.state(id, at: t).positionAU)
        }
        return scenePosition(parent, at: t) + layout.moonOffset(id, relativeKm: ephemeris.parentRelativeState(id, at: t).positionKm)
    }

    /// The heliocentric state of a selection's centre: the Sun (zero), a body, or the solar-system
    /// barycentre (the DE kernel inside its span, the theories' mass-weighted sum outside).
    func origin(_ s: FrameSelection, at t: Instant) -> StateVector {
        if s.barycentric {
            let b = ephemeris.solarSystemBarycenter(at: t)
            return StateVector(positionAU: b.positionKm / Constants.auKm, velocityAUPerDay: b.velocityKmS * (Constants.secondsPerDay / Constants.auKm))
        }
        return s.center == .sun ? StateVector(positionAU: .zero, velocityAUPerDay: .zero) : ephemeris.state(s.center, at: t)
    }

    func convert(_ ref: BodyRef, _ relative: StateVector, _ s: FrameSelection, theory: TheorySpan) -> PositionEntry {
        let rotation = s.frame == .equatorialJ2000 ? Precession.eclipticToEquatorialJ2000 : Matrix3.identity
        let (scale, velocityScale) = s.units == .km
            ? (Constants.auKm, Constants.auKm / Constants.secondsPerDay)
            : (1.0, 1.0)
        return PositionEntry(body: ref, position: rotation * relative.positionAU * scale, velocity: rotation * relative.velocityAUPerDay * velocityScale,
                             theory: theory)
    }
}
