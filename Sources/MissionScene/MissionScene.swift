import Ephemeris
import Missions
import Scene

/// Where scene coordinates of a trajectory are measured from.
public enum SceneOrigin: String, Sendable, Hashable {
    /// Geocentric missions: lines are drawn around the Earth's scene position (add it at the
    /// displayed time), as the viewer draws its mission group.
    case earth
    /// Heliocentric missions: the scene origin (the Sun).
    case sun
}

/// Which coordinates a trajectory is sampled in.
public enum TrajectoryFrame: String, Sendable, Hashable, CaseIterable {
    /// The mission's own frame: geocentric ecliptic J2000 km, or heliocentric ecliptic J2000 AU.
    case native
    /// Scene units relative to ``MissionScene/sceneOrigin`` (Earth for geocentric missions).
    case scene
}

/// A mission drawn in the scene: its engine's states placed by the scene's scaling
/// (``ScenePlacement``: the viewer's log/sqrt distances, moons about their planets), the
/// trajectory lines in scene units and the mission camera. Presentation over the domain:
/// `Missions` knows nothing of the scene; this module joins the two. Built once per mission at
/// start-up; every query is deterministic and thread-safe.
///
/// ```swift
/// let scene = MissionScene(engine: try MissionEngine(mission: m, ephemeris: eph, kernels: bodies))
/// let line = try scene.sample("voyager2", count: 500, frame: .scene)
/// ```
public struct MissionScene: Sendable {
    public let engine: MissionEngine
    public let layout: SceneLayout
    public let placement: ScenePlacement
    /// Geocentric missions: the scene bounding box of every vehicle's line relative to the Earth
    /// (what the framing needs), computed once here.
    public private(set) var localSceneBounds: (min: Vector3, max: Vector3)?

    public init(engine: MissionEngine, layout: SceneLayout? = nil, placement: ScenePlacement? = nil) {
        self.engine = engine
        let layout = layout ?? SceneLayout(catalogue: engine.ephemeris.catalogue)
        self.layout = layout
        self.placement = placement ?? ScenePlacement(layout: layout)
        if engine.mission.referenceFrame == .geocentric { localSceneBounds = localBounds() }
    }

    public var mission: Mission { engine.mission }
    var ephemeris: Ephemeris { engine.ephemeris }

    /// Where scene coordinates of trajectory lines are measured from.
    public var sceneOrigin: SceneOrigin { mission.referenceFrame == .geocentric ? .earth : .sun }

    /// The Earth's scene position at an instant.
    public func earthScenePosition(at t: Instant) -> Vector3 {
        SceneLayout.scenePosition(heliocentricAU: ephemeris.heliocentricPositionAU(.earth, at: t))
    }

    public func earthScenePosition(atHours t: Double) -> Vector3 { earthScenePosition(at: engine.instant(atHours: t)) }

    /// Scene coordinates of a vehicle state relative to ``sceneOrigin`` (what trajectory lines
    /// use): around the Earth for geocentric missions, from the Sun for heliocentric ones.
    public func localScenePosition(_ s: VehicleState, planetsAU: [Vector3]? = nil) -> Vector3 {
        switch mission.referenceFrame {
        case .geocentric:
            let earth = (planetsAU?[BodyID.earth.index] ?? ephemeris.heliocentricPositionAU(.earth, at: s.instant)) * Constants.auKm
            return placement.sceneOffset(from: .earth, relativeKm: s.heliocentricKm - earth, at: s.instant, ephemeris: ephemeris)
        case .heliocentric:
            return placement.scenePosition(heliocentricKm: s.heliocentricKm, at: s.instant, ephemeris: ephemeris, planetsAU: planetsAU)
        }
    }

    /// Absolute scene coordinates of a vehicle state (geocentric missions carried on the Earth's
    /// scene position at the state's time).
    public func scenePosition(_ s: VehicleState, planetsAU: [Vector3]? = nil) -> Vector3 {
        let local = localScenePosition(s, planetsAU: planetsAU)
        guard mission.referenceFrame == .geocentric else { return local }
        let earth = planetsAU?[BodyID.earth.index] ?? ephemeris.heliocentricPositionAU(.earth, at: s.instant)
        return SceneLayout.scenePosition(heliocentricAU: earth) + local
    }

    /// Where each vehicle of `telemetry` is drawn: absolute scene coordinates, in its order.
    public func scenePositions(_ telemetry: MissionTelemetry) -> [Vector3] {
        telemetry.vehicles.map { scenePosition($0.state, planetsAU: telemetry.planetsAU) }
    }

    /// Samples `count` points of a vehicle's line in `frame` (see ``MissionEngine/sample(_:count:)``).
    public func sample(_ vehicleID: String, count: Int, frame: TrajectoryFrame) throws(MissionQueryError) -> Trajectory {
        try MissionEngine.checkSampleCount(count)
        return try sample(try engine.track(vehicleID), count: count, frame: frame)
    }

    public func sample(_ track: VehicleTrack, count: Int, frame: TrajectoryFrame) throws(MissionQueryError) -> Trajectory {
        switch frame {
        case .native: return try engine.sample(track, count: count)
        case .scene:
            return try engine.sample(track, count: count, unit: "scene") { t throws(MissionQueryError) in
                localScenePosition(try engine.state(track, atHours: t))
            }
        }
    }
}

extension MissionScene {
    /// Points drawn over one revolution of a sampled orbit.
    public static let revolutionPoints = 121

    /// The last revolution a vehicle in a sampled orbit (a Mars orbiter between its daily
    /// samples) flew up to `t`, as a picture at `t` draws it: relative to the body it circles,
    /// carried with the body to `t` (absolute scene coordinates), from one osculating period
    /// before `t` to `t` in ``revolutionPoints`` points. Nil outside sampled orbits, where the
    /// vehicle's line is the path. A revolution is two to four hours of integration about the
    /// body from the nearest daily sample, which the path caches.
    public func flownRevolution(_ track: VehicleTrack, atHours t: Double) throws(MissionQueryError) -> [Vector3]? {
        guard track.exists(at: t), let orbit = engine.sampledOrbitSpans(track).first(where: { $0.span.contains(t) }) else { return nil }
        let body = orbit.body
        /// The vehicle's state and its position from the body's centre at `hours`.
        func relative(_ hours: Double) throws(MissionQueryError) -> (state: VehicleState, positionKm: Vector3) {
            let s = try engine.state(track, atHours: hours)
            return (s, s.heliocentricKm - ephemeris.heliocentricPositionAU(body, at: s.instant) * Constants.auKm)
        }
        let now = try relative(t)
        let bodyVelocityKmS = ephemeris.state(body, at: now.state.instant).velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay)
        let r = now.positionKm.length, v = (now.state.velocityKmS - bodyVelocityKmS).length
        let inverseA = 2 / r - v * v / GravityConstants.gm(body)
        guard inverseA > 0 else { return nil }
        let periodHours = 2 * .pi * (1 / (inverseA * inverseA * inverseA) / GravityConstants.gm(body)).squareRoot() / 3600
        let start = max(orbit.span.lowerBound, t - periodHours)
        let center = SceneLayout.scenePosition(heliocentricAU: ephemeris.heliocentricPositionAU(body, at: now.state.instant))
        var points: [Vector3] = []
        points.reserveCapacity(Self.revolutionPoints)
        for k in 0..<Self.revolutionPoints {
            let hours = k == Self.revolutionPoints - 1 ? t : start + (t - start) * Double(k) / Double(Self.revolutionPoints - 1)
            let p = k == Self.revolutionPoints - 1 ? now : try relative(hours)
            points.append(center + placement.sceneOffset(from: body, relativeKm: p.positionKm, at: p.state.instant, ephemeris: ephemeris))
        }
        return points
    }
}
