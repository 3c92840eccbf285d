import Glibc
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
    /// Points drawn over one revolution of an orbit.
    public static let revolutionPoints = 121

    /// The last revolution a vehicle in orbit about a planet (``MissionEngine/orbitSpans(_:)``:
    /// Cassini at Saturn, a Mars orbiter, BepiColombo at Mercury) flew up to `t`, as a picture at
    /// `t` draws it: relative to the body it circles, carried with the body to `t` (absolute
    /// scene coordinates), from one osculating period before `t` (or the orbit's start) to `t`
    /// in ``revolutionPoints`` points, half spread evenly in eccentric anomaly and half in true
    /// anomaly (so a periapsis pass is drawn round, not cut). Nil outside orbits, where the
    /// vehicle's line is the path.
    public func flownRevolution(_ track: VehicleTrack, atHours t: Double) throws(MissionQueryError) -> [Vector3]? {
        guard track.exists(at: t), let orbit = engine.orbitSpans(track).first(where: { $0.hours.contains(t) }) else { return nil }
        let body = orbit.body
        /// The vehicle's state and its position from the body's centre at `hours`.
        func relative(_ hours: Double) throws(MissionQueryError) -> (state: VehicleState, positionKm: Vector3) {
            let s = try engine.state(track, atHours: hours)
            return (s, s.heliocentricKm - ephemeris.heliocentricPositionAU(body, at: s.instant) * Constants.auKm)
        }
        let now = try relative(t)
        let bodyVelocityKmS = ephemeris.state(body, at: now.state.instant).velocityAUPerDay * (Constants.auKm / Constants.secondsPerDay)
        let mu = GravityConstants.gm(body)
        let rv = now.positionKm, vv = now.state.velocityKmS - bodyVelocityKmS
        let r = rv.length, v = vv.length
        let inverseA = 2 / r - v * v / mu
        guard inverseA > 0 else { return nil }
        let a = 1 / inverseA, meanMotion = (mu * inverseA * inverseA * inverseA).squareRoot() // rad/s
        let periodHours = 2 * .pi / meanMotion / 3600
        let start = max(orbit.hours.lowerBound, t - periodHours)
        // Evenly in eccentric anomaly (not in time), so a periapsis pass gets the points that
        // draw its turn: E now from the osculating orbit, back through the mean anomaly covered.
        let eVector = (rv * (v * v - mu / r) - vv * rv.dot(vv)) / mu
        let e = eVector.length
        let eNow = atan2(rv.dot(vv) / (a * meanMotion * a), 1 - r / a)
        let mNow = eNow - e * sin(eNow)
        var eStart = eNow - meanMotion * (t - start) * 3600
        for _ in 0..<30 {
            let m = eStart - e * sin(eStart) - (mNow - meanMotion * (t - start) * 3600)
            eStart -= m / (1 - e * cos(eStart))
        }
        let center = SceneLayout.scenePosition(heliocentricAU: ephemeris.heliocentricPositionAU(body, at: now.state.instant))
        // Half the points evenly in eccentric anomaly (the far end of an eccentric orbit), half
        // evenly in true anomaly (its periapsis pass, which the scene's scaling magnifies):
        // ν = E + 2·atan(β sin E / (1 − β cos E)), β = e / (1 + √(1 − e²)), continuous in E.
        let beta = e / (1 + (1 - min(e, 1) * min(e, 1)).squareRoot())
        func trueAnomaly(_ x: Double) -> Double { x + 2 * atan(beta * sin(x) / (1 - beta * cos(x))) }
        func eccentricAnomaly(_ nu: Double) -> Double { nu - 2 * atan(beta * sin(nu) / (1 + beta * cos(nu))) }
        let half = Self.revolutionPoints / 2
        let (nuStart, nuNow) = (trueAnomaly(eStart), trueAnomaly(eNow))
        var anomalies = (0...half).map { eStart + (eNow - eStart) * Double($0) / Double(half) }
        anomalies += (1..<(Self.revolutionPoints - half)).map { eccentricAnomaly(nuStart + (nuNow - nuStart) * Double($0) / Double(Self.revolutionPoints - half)) }
        anomalies.sort()
        var points: [Vector3] = []
        points.reserveCapacity(Self.revolutionPoints)
        for k in 0..<Self.revolutionPoints {
            let anomaly = anomalies[k]
            let hours = k == Self.revolutionPoints - 1 ? t : max(start, min(t, t - (mNow - (anomaly - e * sin(anomaly))) / meanMotion / 3600))
            let p = k == Self.revolutionPoints - 1 ? now : try relative(hours)
            points.append(center + placement.sceneOffset(from: body, relativeKm: p.positionKm, at: p.state.instant, ephemeris: ephemeris))
        }
        return points
    }
}
