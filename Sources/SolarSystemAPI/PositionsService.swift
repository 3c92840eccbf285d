import Ephemeris
import Scene

/// One body's row in a positions answer, already in the requested frame and units.
public struct PositionEntry: Sendable {
    public let id: BodyID
    public let position: Vector3
    public let velocity: Vector3
    /// The theory that gave the body's state and the span it serves.
    public let theory: TheorySpan
    public var distance: Double { position.length }
}

/// The answer of `/v1/positions` and `solarsystem positions`.
public struct PositionsResult: Sendable {
    public let query: PositionsQuery
    public let entries: [PositionEntry]
    /// The theories serving the instant, in words.
    public let model: String

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
                        w.key("id"); w.string(e.id.rawValue)
                        w.key("theory"); w.string(e.theory.name)
                        w.key("validJdTDB"); w.numbers([e.theory.jdTDB.lowerBound, e.theory.jdTDB.upperBound])
                        Self.writeVectors(e, into: &w)
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
        w.key("center"); w.string(s.center.rawValue)
        w.key("units"); w.string(s.units.rawValue)
        w.key("velocityUnits"); w.string(s.velocityUnits)
    }

    static func writeVectors(_ e: PositionEntry, into w: inout JSONWriter) {
        w.key("position"); w.numbers(e.position)
        w.key("velocity"); w.numbers(e.velocity)
        w.key("distance"); w.number(e.distance)
    }
}

/// Computes positions in any frame, centre and units from one engine.
public struct EphemerisService: Sendable {
    public let ephemeris: Ephemeris
    public let layout: SceneLayout
    /// Body states answered, by theory (`/metrics`).
    public let answers = TheoryTally()

    public init(catalogue: Catalogue, kernel: PlanetaryKernel? = nil) {
        ephemeris = Ephemeris(catalogue: catalogue, kernel: kernel)
        layout = SceneLayout(catalogue: catalogue)
    }

    /// Half-width of the central difference that gives scene-frame velocities.
    static let sceneVelocityStepSeconds = 60.0

    /// Every listed body at one instant (each theory evaluated once for the whole set).
    public func positions(_ q: PositionsQuery) -> PositionsResult {
        let result = computePositions(q)
        answers.record(result.entries)
        return result
    }

    func computePositions(_ q: PositionsQuery) -> PositionsResult {
        let s = q.selection
        let model = ephemeris.modelSummary(jdTDB: q.instant.jdTDB)
        switch s.frame {
        case .eclipticJ2000, .equatorialJ2000:
            let states = ephemeris.allStates(at: q.instant)
            let origin = states[s.center.index]
            let entries = q.bodies.map { id in convert(id, states[id.index] - origin, s, at: q.instant) }
            return PositionsResult(query: q, entries: entries, model: model)
        case .scene:
            let h = Self.sceneVelocityStepSeconds
            let now = layout.positions(ephemeris.snapshot(at: q.instant))
            let before = layout.positions(ephemeris.snapshot(at: q.instant.adding(seconds: -h)))
            let after = layout.positions(ephemeris.snapshot(at: q.instant.adding(seconds: h)))
            let c = s.center.index
            let perDay = Constants.secondsPerDay / (2 * h)
            let entries = q.bodies.map { id in
                let i = id.index
                let v = ((after[i] - after[c]) - (before[i] - before[c])) * perDay
                return PositionEntry(id: id, position: now[i] - now[c], velocity: v, theory: ephemeris.theory(id, at: q.instant))
            }
            return PositionsResult(query: q, entries: entries, model: model)
        }
    }

    /// One body at one instant (the time-series path: only the theories it needs). Not counted
    /// in `answers`: the caller records whole chunks.
    public func sample(_ id: BodyID, at t: Instant, _ s: FrameSelection) -> PositionEntry {
        switch s.frame {
        case .eclipticJ2000, .equatorialJ2000:
            return convert(id, ephemeris.state(id, relativeTo: s.center, at: t), s, at: t)
        case .scene:
            let h = Self.sceneVelocityStepSeconds
            let before = t.adding(seconds: -h), after = t.adding(seconds: h)
            func relative(_ at: Instant) -> Vector3 { scenePosition(id, at: at) - scenePosition(s.center, at: at) }
            let v = (relative(after) - relative(before)) * (Constants.secondsPerDay / (2 * h))
            return PositionEntry(id: id, position: relative(t), velocity: v, theory: ephemeris.theory(id, at: t))
        }
    }

    /// The scene position of one body, computing only its own chain (parent, then itself).
    public func scenePosition(_ id: BodyID, at t: Instant) -> Vector3 {
        if id == .sun { return .zero }
        guard id.isSatellite, let parent = id.parent else {
            return SceneLayout.scenePosition(heliocentricAU: ephemeris.state(id, at: t).positionAU)
        }
        return scenePosition(parent, at: t) + layout.moonOffset(id, relativeKm: ephemeris.parentRelativeState(id, at: t).positionKm)
    }

    func convert(_ id: BodyID, _ relative: StateVector, _ s: FrameSelection, at t: Instant) -> PositionEntry {
        let rotation = s.frame == .equatorialJ2000 ? Precession.eclipticToEquatorialJ2000 : Matrix3.identity
        let (scale, velocityScale) = s.units == .km
            ? (Constants.auKm, Constants.auKm / Constants.secondsPerDay)
            : (1.0, 1.0)
        return PositionEntry(id: id, position: rotation * relative.positionAU * scale, velocity: rotation * relative.velocityAUPerDay * velocityScale,
                             theory: ephemeris.theory(id, at: t))
    }
}
