import Ephemeris
import HTTPCore
import Scene

/// The `/v1/orbits` body, whole or in pieces: `{date, jdTT, jdTDB, samples, note, [skipped],
/// bodies:[{id, center, units, elements, points, scenePoints}]}`. Pieces hold at most
/// `pointsPerPiece` points, and a body's polyline is computed slice by slice, so streaming a
/// 4,096-sample answer to a slow client holds kilobytes, not megabytes. Whole or in pieces, it
/// is written by the same steps into one `JSONWriter.Stream`.
struct OrbitsEncoding: Sendable {
    let instant: Instant
    let requested: [BodyID]
    let bodies: [BodyID]
    let samples: Int
    let ephemeris: Ephemeris
    let layout: SceneLayout
    let states: [StateVector]
    let scene: [Vector3]

    static let pointsPerPiece = 256

    init(services: APIServices, instant t: Instant, requested: [BodyID], samples: Int) {
        instant = t
        self.requested = requested
        bodies = requested.filter { $0 != .sun }
        self.samples = samples
        ephemeris = services.ephemeris
        layout = services.layout
        states = ephemeris.allStates(at: t)
        scene = layout.positions(ephemeris.snapshot(at: t))
    }

    /// About 110 bytes per point (its AU or km triple and its scene triple) plus the heads.
    static func estimatedBytes(bodies: Int, samples: Int) -> Int { 1024 + bodies * (600 + samples * 110) }

    /// One body's osculating orbit and how its points map into the scene.
    struct Body: Sendable {
        let id: BodyID
        let orbit: OsculatingOrbit
        let units: String
        let center: BodyID
        let sceneOrigin: Vector3?
    }

    func body(_ id: BodyID) -> Body {
        if id.isSatellite, let parent = id.parent {
            let rel = ephemeris.parentRelativeState(id, at: instant)
            let orbit = OsculatingOrbit(position: rel.positionKm, velocity: rel.velocityKmPerDay, mu: GravitationalParameter.planetocentric(id))
            return Body(id: id, orbit: orbit, units: "km", center: parent, sceneOrigin: scene[parent.index])
        }
        let s = states[id.index]
        let orbit = OsculatingOrbit(position: s.positionAU, velocity: s.velocityAUPerDay, mu: GravitationalParameter.heliocentric(id))
        return Body(id: id, orbit: orbit, units: "au", center: .sun, sceneOrigin: nil)
    }

    func scenePoint(_ b: Body, _ p: Vector3) -> Vector3 {
        if let origin = b.sceneOrigin { return origin + layout.moonOffset(b.id, relativeKm: p) }
        return SceneLayout.scenePosition(heliocentricAU: p)
    }

    /// Opens the answer: its members before `bodies`, then the `bodies` array.
    func openAnswer(_ doc: inout JSONWriter.Stream) {
        doc.openObject { w in
            PositionsResult.writeTime(instant, into: &w)
            w.key("samples"); w.int(samples)
            w.key("note"); w.string("two-body orbit through the body's state at date (planets: heliocentric, AU; moons: around their parent, km); scene points use the same scaling as /v1/scene")
            if requested.contains(.sun) {
                w.key("skipped"); w.array { w in w.string("sun") }
            }
        }
        doc.openArray("bodies")
    }

    /// Opens a body's object in `bodies`: its members before `points`, then the `points` array.
    func openBody(_ b: Body, _ doc: inout JSONWriter.Stream) {
        doc.openObject { w in
            w.key("id"); w.string(b.id.rawValue)
            w.key("center"); w.string(b.center.rawValue)
            w.key("units"); w.string(b.units)
            w.key("elements")
            w.object { w in
                let o = b.orbit
                w.key("semiMajorAxis"); w.number(o.semiMajorAxis)
                w.key("eccentricity"); w.number(o.eccentricity)
                w.key("inclinationDeg"); w.number(Angle.degrees(o.inclinationRad))
                w.key("ascendingNodeDeg"); w.number(Angle.normalizedDegrees(Angle.degrees(o.ascendingNodeRad)))
                w.key("argumentOfPeriapsisDeg"); w.number(Angle.normalizedDegrees(Angle.degrees(o.argumentOfPeriapsisRad)))
                w.key("meanAnomalyDeg"); w.number(Angle.normalizedDegrees(Angle.degrees(o.meanAnomalyRad)))
                w.key("periodDays"); w.number(o.period)
            }
        }
        doc.openArray("points")
    }

    /// Points `range` (scene or not) into the open `points` or `scenePoints` array.
    func writePoints(_ b: Body, _ range: Range<Int>, scene: Bool, _ doc: inout JSONWriter.Stream) {
        doc.reserveCapacity(range.count * 60 + 8)
        doc.write { w in
            for p in b.orbit.polyline(count: samples, range: range) {
                w.numbers((scene ? scenePoint(b, p) : p).array)
            }
        }
    }

    /// Closes `points` and opens `scenePoints`.
    static func switchToScenePoints(_ doc: inout JSONWriter.Stream) {
        doc.close()
        doc.openArray("scenePoints")
    }

    /// Closes `scenePoints` and the body's object.
    static func closeBody(_ doc: inout JSONWriter.Stream) {
        doc.close()
        doc.close()
    }

    /// Closes `bodies` and the answer.
    static func closeAnswer(_ doc: inout JSONWriter.Stream) {
        doc.close()
        doc.close()
    }

    /// The whole body (for answers small enough to encode and cache whole).
    func whole() -> [UInt8] {
        var doc = JSONWriter.Stream(capacity: Self.estimatedBytes(bodies: bodies.count, samples: samples))
        openAnswer(&doc)
        for id in bodies {
            let b = body(id)
            openBody(b, &doc)
            writePoints(b, 0..<samples, scene: false, &doc)
            Self.switchToScenePoints(&doc)
            writePoints(b, 0..<samples, scene: true, &doc)
            Self.closeBody(&doc)
        }
        Self.closeAnswer(&doc)
        return doc.chunk()
    }

    /// The body in pieces of at most `pointsPerPiece` points, computed as they are pulled.
    func producer() -> BodyProducer {
        struct Cursor: Sendable {
            var doc = JSONWriter.Stream()
            var started = false
            var bodyIndex = 0
            var current: Body?
            /// 0: points, 1: scene points.
            var stage = 0
            var offset = 0
            var done = false
        }
        let encoding = self
        return BodyProducer(state: Cursor()) { c in
            if c.done { return nil }
            if !c.started {
                c.started = true
                encoding.openAnswer(&c.doc)
                return c.doc.chunk()
            }
            guard c.bodyIndex < encoding.bodies.count else {
                c.done = true
                Self.closeAnswer(&c.doc)
                return c.doc.chunk()
            }
            guard let b = c.current else {
                let b = encoding.body(encoding.bodies[c.bodyIndex])
                c.current = b
                c.stage = 0
                c.offset = 0
                encoding.openBody(b, &c.doc)
                return c.doc.chunk()
            }
            let count = b.orbit.isBound ? encoding.samples : 0
            if c.offset < count {
                let end = min(count, c.offset + Self.pointsPerPiece)
                defer { c.offset = end }
                encoding.writePoints(b, c.offset..<end, scene: c.stage == 1, &c.doc)
                return c.doc.chunk()
            }
            if c.stage == 0 {
                c.stage = 1
                c.offset = 0
                Self.switchToScenePoints(&c.doc)
                return c.doc.chunk()
            }
            c.current = nil
            c.bodyIndex += 1
            Self.closeBody(&c.doc)
            return c.doc.chunk()
        }
    }
}
