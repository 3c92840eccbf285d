import Glibc
import Ephemeris

/// A camera orbiting a target in spherical coordinates (Y-up scene frame):
/// offset = d · (cos φ · sin θ, sin φ, cos φ · cos θ), θ the azimuth, φ the elevation.
public struct CameraPose: Sendable, Hashable {
    public let target: Vector3
    public let distance: Double
    public let azimuthRad: Double
    public let elevationRad: Double
    /// Vertical field of view (SceneKit's default 60°).
    public let fieldOfViewDeg: Double

    public init(target: Vector3, distance: Double, azimuthRad: Double, elevationRad: Double, fieldOfViewDeg: Double = 60) {
        self.target = target
        self.distance = distance
        self.azimuthRad = azimuthRad
        self.elevationRad = elevationRad
        self.fieldOfViewDeg = fieldOfViewDeg
    }

    /// The camera's position in the scene.
    public var position: Vector3 {
        let c = cos(elevationRad)
        return target + Vector3(distance * c * sin(azimuthRad), distance * sin(elevationRad), distance * c * cos(azimuthRad))
    }
}

/// The framing rules the viewer and the pictures share: Sun-side azimuth (camera between the Sun at the origin and the
/// target, turned 0.55 rad so the terminator falls on the far side), 0.3 rad elevation, and a
/// distance fitted to what has to be in shot.
public enum CameraFraming {
    public static let sunSideAzimuthOffsetRad = 0.55
    public static let elevationRad = 0.3
    /// Planet presets: distance = extent × factor × (0.5 + 0.5 · min(aspect, 1)).
    public static let withMoonsFactor = 0.8
    public static let withoutMoonsFactor = 6.0

    /// Azimuth placing the camera on the Sun side of `target`: atan2(−x, −z) + 0.55. A target at
    /// the origin (the Sun itself) has no Sun side; it gets the bare offset.
    public static func sunSideAzimuth(target: Vector3) -> Double {
        guard target.x != 0 || target.z != 0 else { return sunSideAzimuthOffsetRad }
        return atan2(-target.x, -target.z) + sunSideAzimuthOffsetRad
    }

    /// The portrait-aware factor 0.5 + 0.5 · min(aspect, 1).
    public static func aspectFactor(_ aspect: Double) -> Double { 0.5 + 0.5 * min(aspect, 1) }

    /// Planet-preset framing of a body whose system reaches `extent` scene units from its centre
    /// (its outermost moon's compressed distance, or its own radius when it has no moons).
    public static func focus(target: Vector3, extent: Double, hasMoons: Bool, aspect: Double) -> CameraPose {
        let factor = hasMoons ? withMoonsFactor : withoutMoonsFactor
        return CameraPose(
            target: target, distance: extent * factor * aspectFactor(aspect),
            azimuthRad: sunSideAzimuth(target: target), elevationRad: elevationRad
        )
    }

    /// Bodies a planet preset keeps in view whatever the geometry: the Earth's Moon. The
    /// 0.8 × extent frames Jupiter's inner moons and lets Callisto go, which suits a system of
    /// many moons; for the Earth it can leave its one moon out (at the Apollo 11 landing it does),
    /// and the Earth–Moon system (the Moon's phases, the lunar missions) is what one looks at the
    /// Earth for.
    public static func keptInView(_ body: BodyID) -> [BodyID] { body == .earth ? [.moon] : [] }

    /// A kept body's centre stays inside this fraction of the view's half-width and half-height.
    public static let keptInViewMargin = 0.9

    /// `pose` moved back along its own line of sight (target, azimuth and elevation unchanged)
    /// just far enough that every point is in view, for a viewport `aspect` wide per unit high
    /// (the camera's up is scene +Y, as ``ViewCamera`` has it). A point at `r` from the target
    /// lies at depth d − r·u in front of a camera at distance d along the unit offset u, so it is
    /// in view when d ≥ r·u + max(|r·right| / tan(h/2), |r·up| / tan(v/2)), h and v the
    /// horizontal and vertical fields of view narrowed by ``keptInViewMargin``. Never nearer.
    public static func keeping(_ points: [Vector3], inViewOf pose: CameraPose, aspect: Double) -> CameraPose {
        let offset = pose.position - pose.target
        guard !points.isEmpty, pose.distance > 0, offset.length > 0 else { return pose }
        let u = offset / offset.length
        let forward = -u
        let sideways = forward.cross(Vector3(0, 1, 0))
        guard sideways.length > 1e-12 else { return pose }
        let right = sideways.normalized
        let up = right.cross(forward)
        let tanV = tan(pose.fieldOfViewDeg * .pi / 360) * keptInViewMargin
        let tanH = tanV * max(aspect, 1e-6)
        var distance = pose.distance
        for p in points where p.isFinite {
            let r = p - pose.target
            distance = max(distance, r.dot(u) + max(abs(r.dot(right)) / tanH, abs(r.dot(up)) / tanV))
        }
        return CameraPose(target: pose.target, distance: distance, azimuthRad: pose.azimuthRad,
                          elevationRad: pose.elevationRad, fieldOfViewDeg: pose.fieldOfViewDeg)
    }

    /// The planet preset of `body` at scene `positions` (indexed by `BodyID.index`):
    /// ``focus(target:extent:hasMoons:aspect:)``, then ``keeping(_:inViewOf:aspect:)`` the
    /// bodies ``keptInView(_:)`` names.
    public static func preset(_ body: BodyID, position: (BodyID) -> Vector3, layout: SceneLayout, aspect: Double) -> CameraPose {
        let (extent, hasMoons) = systemExtent(body, layout: layout)
        let pose = focus(target: position(body), extent: extent, hasMoons: hasMoons, aspect: aspect)
        return keeping(keptInView(body).map(position), inViewOf: pose, aspect: aspect)
    }

    /// The system extent of `body` in a layout: the farthest moon's scene distance plus that
    /// moon's radius, or the body's own scene radius when it has none.
    public static func systemExtent(_ body: BodyID, layout: SceneLayout) -> (extent: Double, hasMoons: Bool) {
        let moons = layout.catalogue[body].moons
        guard !moons.isEmpty else { return (layout.radii[body.index], false) }
        let extent = moons.map { layout.moonDistances[$0.index] + layout.radii[$0.index] }.max() ?? layout.radii[body.index]
        return (extent, true)
    }

    /// The mission camera: the bounding sphere's radius times this fills the half field
    /// of view, leaving a margin around the vehicles' lines.
    public static let missionFitMargin = 1.4
    /// Half the vertical field of view the mission camera fits to: π/6, half of SceneKit's 60°
    /// (`ViewCamera.defaultFieldOfViewDeg`).
    public static let missionHalfFieldOfViewRad = Double.pi / 6
    /// The mission camera comes no nearer, scene units (a floor: a small sphere around
    /// the Earth still shows the Earth whole).
    public static let missionMinimumDistance = 1.5

    /// Distance that fits a sphere of `radius` (scene units) in a viewport `aspect` wide per unit
    /// high: max(radius × 1.4 / (tan(π/6) · min(aspect, 1)), 1.5). A viewport narrower than tall
    /// moves the camera back so the sphere fits the horizontal field: tan(hFOV/2) = aspect · tan(vFOV/2).
    ///
    /// ```swift
    /// CameraFraming.missionDistance(radius: 1, aspect: 2)     // 2.4249 (1.4 · √3)
    /// CameraFraming.missionDistance(radius: 1, aspect: 0.5)   // 4.8497
    /// ```
    public static func missionDistance(radius: Double, aspect: Double = 1) -> Double {
        max(radius * missionFitMargin / (tan(missionHalfFieldOfViewRad) * min(aspect, 1)), missionMinimumDistance)
    }

    /// Mission framing: fit a bounding sphere of `radius` around `center` (scene units):
    /// `missionDistance(radius:)`, Sun-side azimuth, 0.3 rad elevation.
    public static func fit(center: Vector3, radius: Double, sunSideOf reference: Vector3) -> CameraPose {
        CameraPose(
            target: center, distance: missionDistance(radius: radius),
            azimuthRad: sunSideAzimuth(target: reference), elevationRad: elevationRad
        )
    }
}
