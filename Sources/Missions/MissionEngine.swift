#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Ephemeris
import Scene

/// A vehicle's path after anchor resolution, the Moon-aligned rotation and transfer-arc
/// expansion: the control points the Catmull-Rom curve runs through, each at its time.
public struct ResolvedVehicle: Sendable {
    public let vehicle: Vehicle
    /// Hours from launch, strictly increasing.
    public let times: [Double]
    /// Geocentric ecliptic J2000 km, or heliocentric ecliptic J2000 AU.
    public let points: [Vector3]

    public var spanHours: ClosedRange<Double> { times[0]...times[times.count - 1] }
    public func exists(at t: Double) -> Bool { spanHours.contains(t) }
}

/// Where scene coordinates of a trajectory are measured from.
public enum SceneOrigin: String, Sendable, Hashable {
    /// Geocentric missions: the seeds' mission group sits on the Earth's scene position, so
    /// trajectory lines are Earth-relative (add the Earth's scene position at the displayed time).
    case earth
    /// Heliocentric missions: the scene origin (the Sun).
    case sun
}

/// One mission made concrete against the ephemeris: anchors resolved, geocentric waypoints
/// rotated into the ecliptic, transfer arcs generated. Built once per mission at start-up; every
/// query on it is deterministic and thread-safe.
///
/// ```swift
/// let engine = MissionEngine(mission: catalogue["apollo11"]!, ephemeris: eph)
/// let tm = try engine.telemetry(at: 80)          // Columbia in lunar orbit
/// let line = try engine.sample("csm_columbia", count: 500, frame: .scene)
/// ```
public struct MissionEngine: Sendable {
    public let mission: Mission
    public let ephemeris: Ephemeris
    public let layout: SceneLayout
    /// Geocentric missions: the rotation about the ecliptic pole taking the Moon-aligned authoring
    /// frame into the ecliptic, `atan2(moon.y, moon.x)` at `flybyTimeHours`; 0 for heliocentric.
    public let moonAlignmentAngleRad: Double
    public let vehicles: [ResolvedVehicle]
    /// Each vehicle's physical path near the Moon (``LunarTrack``), in `vehicles` order; nil
    /// where the mission's ``Mission/physics`` does not reach the vehicle.
    public let lunarTracks: [LunarTrack?]

    /// The Moon's semi-major axis (catalogue), the distance anchored waypoints and the Moon
    /// phases use so they meet the rendered Moon.
    public let moonSemiMajorAxisKm: Double
    /// The Moon's mean radius (catalogue): altitudes are measured from it.
    public let moonRadiusKm: Double
    /// The Moon's sphere of influence, `a·(m/M)^(2/5)` (Laplace): inside it telemetry also
    /// reports Moon-relative figures, and the physical path is a Moon-centred conic.
    public let moonSphereOfInfluenceKm: Double
    let earthRadiusKm: Double
    let earthSceneRadius: Double
    /// Geocentric missions: the scene bounding box of every vehicle's line, relative to the
    /// Earth (what the framing needs), computed once here rather than per request.
    public private(set) var localSceneBounds: (min: Vector3, max: Vector3)?

    public init(mission: Mission, ephemeris: Ephemeris, layout: SceneLayout? = nil) {
        self.mission = mission
        self.ephemeris = ephemeris
        let layout = layout ?? SceneLayout(catalogue: ephemeris.catalogue)
        self.layout = layout
        let catalogue = ephemeris.catalogue
        let sma = catalogue[.moon].seedMeanOrbit?.semiMajorAxisKm ?? 384_400
        moonSemiMajorAxisKm = sma
        let moonRadius = catalogue[.moon].radiusKm, soi = sma * pow(1 / Constants.earthMoonMassRatio, 0.4)
        moonRadiusKm = moonRadius
        moonSphereOfInfluenceKm = soi
        earthRadiusKm = catalogue[.earth].radiusKm
        earthSceneRadius = layout.radii[BodyID.earth.index]

        var angle = 0.0
        if mission.referenceFrame == .geocentric, let flyby = mission.flybyTimeHours {
            let moon = ephemeris.parentRelativeState(.moon, at: mission.instant(atHours: flyby)).positionKm
            angle = atan2(moon.y, moon.x)
        }
        moonAlignmentAngleRad = angle

        let resolved = mission.vehicles.map { v in
            var times: [Double] = [], points: [Vector3] = []
            for w in v.waypoints {
                times.append(w.timeHours)
                points.append(Self.resolve(w, mission: mission, ephemeris: ephemeris, alignment: angle, moonSemiMajorAxisKm: sma))
            }
            if v.autoTrajectory == .transfer {
                (times, points) = TransferArc.expand(times: times, points: points)
            }
            return ResolvedVehicle(vehicle: v, times: times, points: points)
        }
        vehicles = resolved
        if let physics = mission.physics, mission.referenceFrame == .geocentric {
            let context = LunarTrackContext(
                mu: Constants.moonGMKm3PerS2, moonRadiusKm: moonRadius, sphereOfInfluenceKm: soi,
                moonPosition: { ephemeris.parentRelativeState(.moon, at: mission.instant(atHours: $0)).positionKm },
                moonVelocity: { ephemeris.parentRelativeState(.moon, at: mission.instant(atHours: $0)).velocityKmPerDay / Constants.secondsPerDay },
                moonBodyToEcliptic: { ephemeris.orientation(.moon, at: mission.instant(atHours: $0)).bodyToEcliptic },
                curve: { v, t in
                    Self.authoredPath(CatmullRom.point(v.points, times: v.times, at: t),
                                      moonKm: ephemeris.parentRelativeState(.moon, at: mission.instant(atHours: t)).positionKm,
                                      moonSemiMajorAxisKm: sma, sphereOfInfluenceKm: soi)
                }
            )
            lunarTracks = LunarTrack.build(physics, vehicles: resolved, context: context)
        } else {
            lunarTracks = resolved.map { _ in nil }
        }
        if mission.referenceFrame == .geocentric { localSceneBounds = localBounds() }
    }

    /// One engine per mission, keyed by mission id (build once at start-up).
    public static func all(_ catalogue: MissionCatalogue, ephemeris: Ephemeris) -> [String: MissionEngine] {
        let layout = SceneLayout(catalogue: ephemeris.catalogue)
        var out: [String: MissionEngine] = [:]
        for m in catalogue.missions { out[m.id] = MissionEngine(mission: m, ephemeris: ephemeris, layout: layout) }
        return out
    }

    /// One waypoint in the mission's native frame. Anchored waypoints take the body's true
    /// position and are *not* rotated (they are already ecliptic); the others are rotated from
    /// the Moon-aligned authoring frame (geocentric) or kept (heliocentric).
    static func resolve(_ w: Waypoint, mission: Mission, ephemeris: Ephemeris, alignment: Double, moonSemiMajorAxisKm: Double) -> Vector3 {
        let t = mission.instant(atHours: w.timeHours)
        if let body = w.anchorBody {
            return ephemeris.state(body, at: t).positionAU
        }
        if w.anchorMoon {
            let moon = ephemeris.parentRelativeState(.moon, at: t).positionKm
            return moon.normalized * moonSemiMajorAxisKm
        }
        guard mission.referenceFrame == .geocentric else { return w.position }
        return rotateAboutEclipticPole(w.position, by: alignment)
    }

    /// The seeds' Moon-alignment rotation: x' = x cos a − y sin a, y' = x sin a + y cos a, z' = z.
    public static func rotateAboutEclipticPole(_ p: Vector3, by a: Double) -> Vector3 {
        let c = cos(a), s = sin(a)
        return Vector3(p.x * c - p.y * s, p.x * s + p.y * c, p.z)
    }

    // MARK: - Lookup

    public var vehicleIDs: [String] { vehicles.map(\.vehicle.id) }

    public func vehicle(_ id: String) throws(MissionQueryError) -> ResolvedVehicle {
        guard let v = vehicles.first(where: { $0.vehicle.id == id }) else {
            throw .unknownVehicle(mission: mission.id, id: id, valid: vehicleIDs)
        }
        return v
    }

    public var sceneOrigin: SceneOrigin { mission.referenceFrame == .geocentric ? .earth : .sun }

    // MARK: - Positions

    /// The Moon's geocentric position at `t` hours, km, ecliptic J2000 (true distance).
    public func moonGeocentricKm(atHours t: Double) -> Vector3 {
        ephemeris.parentRelativeState(.moon, at: mission.instant(atHours: t)).positionKm
    }

    /// The Moon's true direction at its semi-major-axis distance: where anchored waypoints, the
    /// landing snap and the lunar orbits are centred (and where the rendered Moon sits).
    public func moonAnchorKm(atHours t: Double) -> Vector3 {
        moonGeocentricKm(atHours: t).normalized * moonSemiMajorAxisKm
    }

    /// The authored curve as the physical model reads it. The seeds draw the Moon at its
    /// semi-major axis along its true direction and author lunar waypoints around that rendered
    /// Moon (anchored ones on it), so near the Moon the curve is carried by the difference
    /// between the true and the rendered Moon: fully within the sphere of influence of the
    /// rendered Moon, not at all beyond twice that, smoothly in between.
    public func authoredPath(_ v: ResolvedVehicle, atHours t: Double, moonKm: Vector3) -> Vector3 {
        Self.authoredPath(curvePosition(v, atHours: t), moonKm: moonKm, moonSemiMajorAxisKm: moonSemiMajorAxisKm, sphereOfInfluenceKm: moonSphereOfInfluenceKm)
    }

    static func authoredPath(_ p: Vector3, moonKm: Vector3, moonSemiMajorAxisKm sma: Double, sphereOfInfluenceKm soi: Double) -> Vector3 {
        let rendered = moonKm.normalized * sma
        let weight = 1 - smoothstep(((p - rendered).length - soi) / soi)
        return weight > 0 ? p + (moonKm - rendered) * weight : p
    }

    /// The point on the interpolated curve at `t` (clamped to the vehicle's span), native frame.
    public func curvePosition(_ v: ResolvedVehicle, atHours t: Double) -> Vector3 {
        CatmullRom.point(v.points, times: v.times, at: t)
    }

    /// The vehicle marker at `t` in the native frame with its phase, nil outside the vehicle's
    /// waypoint span (it does not exist then).
    public func position(_ v: ResolvedVehicle, atHours t: Double) -> (position: Vector3, phase: VehiclePhase)? {
        guard t.isFinite, v.exists(at: t) else { return nil }
        let phase = v.vehicle.phase(at: t)
        return (position(v, atHours: t, phase: phase), phase)
    }

    /// The marker position at `t` computed as if in `phase` (telemetry differentiates with the
    /// phase held fixed so a phase switch never shows up as a speed spike).
    public func position(_ v: ResolvedVehicle, atHours t: Double, phase: VehiclePhase) -> Vector3 {
        switch phase {
        case .trajectory:
            return curvePosition(v, atHours: t)
        case .moonLanding:
            return moonAnchorKm(atHours: t)
        case .moonOrbit, .moonOrbitReturn:
            guard let orbit = phase == .moonOrbit ? v.vehicle.moonOrbit : v.vehicle.moonOrbitReturn else {
                return curvePosition(v, atHours: t)
            }
            return Self.moonOrbitPosition(moonKm: moonGeocentricKm(atHours: t), moonDistanceKm: moonSemiMajorAxisKm, orbit: orbit, atHours: t)
        }
    }

    /// The seeds' runtime lunar orbit: a circle of `radiusKm` in the plane perpendicular to the
    /// Earth–Moon line, centred on the Moon's direction at `moonDistanceKm`:
    /// phase = (t − start)/period · 2π, tangent = ‖moonDir × up‖, normal = ‖tangent × moonDir‖,
    /// p = moonDir·d + tangent·cos(phase)·r + normal·sin(phase)·r, `up` the ecliptic pole (the
    /// scene's +Y).
    public static func moonOrbitPosition(moonKm: Vector3, moonDistanceKm: Double, orbit: MoonOrbitPhase, atHours t: Double) -> Vector3 {
        let dir = moonKm.normalized
        var tangent = dir.cross(Vector3(0, 0, 1))
        if tangent.length < 1e-12 { tangent = dir.cross(Vector3(1, 0, 0)) }
        tangent = tangent.normalized
        let normal = tangent.cross(dir).normalized
        let phase = (t - orbit.startHours) / orbit.periodHours * 2 * Double.pi
        return dir * moonDistanceKm + tangent * (cos(phase) * orbit.radiusKm) + normal * (sin(phase) * orbit.radiusKm)
    }

    // MARK: - Scene

    /// Scene offset of a geocentric position (km) from the Earth: along its direction at the
    /// Moon-compressed distance `earthSceneRadius × (|r| / earthRadius)^0.6 × 1.5` (the seeds' moon
    /// formula, so a point at the Moon's semi-major axis lands on the rendered Moon).
    public func sceneOffset(geocentricKm r: Vector3) -> Vector3 {
        let d = r.length
        guard d > 0 else { return .zero }
        let s = SceneScaling.moonDistance(semiMajorAxisKm: d, parentKm: earthRadiusKm, parentSceneRadius: earthSceneRadius)
        return SceneAxes.scene(fromEcliptic: r * (s / d))
    }

    /// Scene coordinates of a native position relative to ``sceneOrigin`` (what trajectory lines use).
    public func localScenePosition(native p: Vector3) -> Vector3 {
        mission.referenceFrame == .geocentric ? sceneOffset(geocentricKm: p) : SceneLayout.scenePosition(heliocentricAU: p)
    }

    /// The Earth's scene position at `t` hours.
    public func earthScenePosition(atHours t: Double) -> Vector3 {
        SceneLayout.scenePosition(heliocentricAU: ephemeris.state(.earth, at: mission.instant(atHours: t)).positionAU)
    }

    /// Absolute scene coordinates of a native position at `t` (geocentric: carried on the Earth's
    /// scene position at `t`).
    public func scenePosition(native p: Vector3, atHours t: Double) -> Vector3 {
        switch mission.referenceFrame {
        case .geocentric: return earthScenePosition(atHours: t) + sceneOffset(geocentricKm: p)
        case .heliocentric: return SceneLayout.scenePosition(heliocentricAU: p)
        }
    }
}
