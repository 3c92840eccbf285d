import Glibc
import Ephemeris

/// Where a rendered view looks from: the request's camera choice.
public enum CameraChoice: Sendable, Hashable {
    /// The whole system from above the ecliptic, every planet's current distance in shot.
    case overview
    /// The planet preset: Sun-side framing of a body and its moons (`CameraFraming.focus`).
    case focus(BodyID)
    /// An explicit orbit camera around `target` (the Sun is the origin); a nil component falls
    /// back to the focus framing of that target.
    case orbit(target: BodyID, azimuthRad: Double?, elevationRad: Double?, distance: Double?)
    /// A pose computed elsewhere (a mission's framing).
    case pose(CameraPose)
    /// Another choice with its target, and the eye with it, moved by `offset` scene units: a
    /// client's pan. The angles and the distance stay those of the inner choice.
    indirect case panned(CameraChoice, offset: Vector3)
}

/// A perspective camera for one image: eye, target, up, vertical field of view and viewport.
/// Its view and projection matrices are built from those values alone (no graphics
/// library's camera), and `project` maps scene points to top-left pixels.
///
/// ```swift
/// let cam = ViewCamera(eye: Vector3(0, 10, 30), target: .zero, width: 1280, height: 720)
/// cam.project(.zero)   // ScreenPoint(x: 640, y: 360, depth: 31.6)
/// ```
public struct ViewCamera: Sendable, Hashable {
    public let eye: Vector3
    public let target: Vector3
    /// The requested up direction (scene +Y unless looking straight along it).
    public let up: Vector3
    public let fieldOfViewDeg: Double
    public let width: Int
    public let height: Int

    /// Orthonormal camera basis in the scene frame: right, up, and back (the camera looks along −back).
    public let basisRight: Vector3
    public let basisUp: Vector3
    public let basisBack: Vector3
    /// Projection scales: xScale = f / aspect, yScale = f, f = 1 / tan(fov / 2).
    public let xScale: Double
    public let yScale: Double
    /// Points nearer than this (scene units along the view axis) do not project.
    public let near: Double

    public static let defaultFieldOfViewDeg = 60.0

    public init(eye: Vector3, target: Vector3, up: Vector3 = Vector3(0, 1, 0), fieldOfViewDeg: Double = ViewCamera.defaultFieldOfViewDeg, width: Int, height: Int) {
        self.eye = eye
        self.target = target
        self.fieldOfViewDeg = fieldOfViewDeg
        self.width = max(1, width)
        self.height = max(1, height)
        var back = eye - target
        if back.length < 1e-12 { back = Vector3(0, 0, 1) }
        back = back.normalized
        // Looking straight along the up vector leaves "right" undefined: use scene −Z as up.
        var upGuess = up.normalized
        if abs(back.dot(upGuess)) > 0.999_999 { upGuess = back.y > 0 ? Vector3(0, 0, -1) : Vector3(0, 0, 1) }
        let right = upGuess.cross(back).normalized
        self.up = upGuess
        basisRight = right
        basisUp = back.cross(right)
        basisBack = back
        let f = 1 / tan(fieldOfViewDeg * Double.pi / 180 / 2)
        yScale = f
        xScale = f / (Double(self.width) / Double(self.height))
        near = max(1e-9, (eye - target).length * 1e-6)
    }

    /// The camera of a `CameraPose` (a spherical orbit camera about its target).
    public init(pose: CameraPose, width: Int, height: Int) {
        self.init(eye: pose.position, target: pose.target, fieldOfViewDeg: pose.fieldOfViewDeg, width: width, height: height)
    }

    public var aspect: Double { Double(width) / Double(height) }

    /// View matrix: scene → camera space (camera at the origin looking down −Z).
    public var viewMatrix: Matrix4 { .lookAt(eye: eye, right: basisRight, up: basisUp, back: basisBack) }

    /// Perspective projection from the vertical field of view and the viewport's aspect.
    public var projectionMatrix: Matrix4 {
        .perspective(verticalFOVRad: fieldOfViewDeg * Double.pi / 180, aspect: aspect, near: near, far: max(1e4, (eye - target).length * 1e3))
    }

    public var viewProjection: Matrix4 { projectionMatrix * viewMatrix }

    /// Pixels per scene unit at depth 1: yScale × height / 2.
    public var pixelsPerUnit: Double { yScale * Double(height) / 2 }

    /// Camera-space coordinates of a scene point (x right, y up, z toward the viewer).
    @inlinable public func viewSpace(_ p: Vector3) -> Vector3 {
        let d = p - eye
        return Vector3(d.dot(basisRight), d.dot(basisUp), d.dot(basisBack))
    }

    /// Pixel coordinates (top-left origin) and depth of a scene point; nil behind the camera.
    /// Equal to `viewProjection * (p, 1)` followed by the perspective divide and the viewport map.
    @inlinable public func project(_ p: Vector3) -> ScreenPoint? {
        let v = viewSpace(p)
        let w = -v.z
        guard w > near, w.isFinite else { return nil }
        return screenPoint(viewX: v.x, viewY: v.y, depth: w)
    }

    /// A direction at infinity (a star): where it lands on screen; nil when it points behind.
    @inlinable public func projectDirection(_ d: Vector3) -> ScreenPoint? {
        let v = Vector3(d.dot(basisRight), d.dot(basisUp), d.dot(basisBack))
        guard -v.z > 1e-9 else { return nil }
        let p = screenPoint(viewX: v.x, viewY: v.y, depth: -v.z)
        return ScreenPoint(x: p.x, y: p.y, depth: .infinity)
    }

    @inlinable func screenPoint(viewX: Double, viewY: Double, depth w: Double) -> ScreenPoint {
        let ndcX = xScale * viewX / w
        let ndcY = yScale * viewY / w
        return ScreenPoint(x: (ndcX + 1) * 0.5 * Double(width), y: (1 - ndcY) * 0.5 * Double(height), depth: w)
    }

    /// On-screen radius in pixels of a sphere of `worldRadius` at `depth`:
    /// worldRadius × pixelsPerUnit / clip.w.
    @inlinable public func screenRadius(worldRadius: Double, depth: Double) -> Double {
        depth > 0 ? worldRadius * pixelsPerUnit / depth : 0
    }

    /// Unit direction (scene frame) of the ray through pixel coordinates (x, y) — pass pixel
    /// centres as `i + 0.5`.
    @inlinable public func rayDirection(x: Double, y: Double) -> Vector3 {
        let ndcX = 2 * x / Double(width) - 1
        let ndcY = 1 - 2 * y / Double(height)
        let d = basisRight * (ndcX / xScale) + basisUp * (ndcY / yScale) - basisBack
        return d.normalized
    }

    /// A scene segment clipped to the part in front of the near plane, projected; nil when it
    /// lies wholly behind the camera.
    public func projectSegment(_ a: Vector3, _ b: Vector3) -> (ScreenPoint, ScreenPoint)? {
        var va = viewSpace(a), vb = viewSpace(b)
        let wa = -va.z, wb = -vb.z
        if wa <= near, wb <= near { return nil }
        if wa <= near || wb <= near {
            let t = (near * 1.000_001 - wa) / (wb - wa)
            let clipped = va + (vb - va) * t
            if wa <= near { va = clipped } else { vb = clipped }
        }
        return (screenPoint(viewX: va.x, viewY: va.y, depth: -va.z), screenPoint(viewX: vb.x, viewY: vb.y, depth: -vb.z))
    }
}

extension ViewCamera {
    /// Elevation of the overview camera above the ecliptic (about 29°): orbits read as ellipses.
    public static let overviewElevationRad = 0.5

    /// The overview: looking at the Sun from `overviewElevationRad`, at the smallest distance
    /// where the circle through the outermost planet (in the scene's XZ plane) projects inside
    /// the viewport with `overviewMargin` to spare (bisection on the projection itself).
    public static func overviewPose(positions: [Vector3], aspect: Double) -> CameraPose {
        let extent = max(1, BodyID.heliocentric.map { positions[$0.index].length }.max() ?? 1)
        let e = overviewElevationRad
        let height = 1000, width = max(1, Int((1000 * aspect).rounded()))
        let ring = (0..<72).map { k -> Vector3 in
            let a = Double(k) * Double.pi / 36
            return Vector3(extent * cos(a), 0, extent * sin(a))
        }
        func fits(_ d: Double) -> Bool {
            let cam = ViewCamera(pose: CameraPose(target: .zero, distance: d, azimuthRad: 0, elevationRad: e), width: width, height: height)
            let limitX = Double(width) / 2 / overviewMargin, limitY = Double(height) / 2 / overviewMargin
            return ring.allSatisfy { p in
                guard let s = cam.project(p) else { return false }
                return abs(s.x - Double(width) / 2) <= limitX && abs(s.y - Double(height) / 2) <= limitY
            }
        }
        var lo = extent, hi = extent * 20
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if fits(mid) { hi = mid } else { lo = mid }
        }
        return CameraPose(target: .zero, distance: hi, azimuthRad: 0, elevationRad: e)
    }

    /// Breathing room around the overview's outermost orbit.
    public static let overviewMargin = 1.08

    /// The pose a camera choice gives for a layout's positions (indexed by `BodyID.index`).
    public static func pose(for choice: CameraChoice, positions: [Vector3], layout: SceneLayout, aspect: Double) -> CameraPose {
        switch choice {
        case .overview:
            return overviewPose(positions: positions, aspect: aspect)
        case let .focus(body):
            return CameraFraming.preset(body, position: { positions[$0.index] }, layout: layout, aspect: aspect)
        case let .orbit(target, azimuth, elevation, distance):
            let framed = pose(for: .focus(target), positions: positions, layout: layout, aspect: aspect)
            return CameraPose(
                target: framed.target, distance: distance ?? framed.distance,
                azimuthRad: azimuth ?? framed.azimuthRad, elevationRad: elevation ?? framed.elevationRad
            )
        case let .pose(p):
            return p
        case let .panned(inner, offset):
            let p = pose(for: inner, positions: positions, layout: layout, aspect: aspect)
            return CameraPose(target: p.target + offset, distance: p.distance, azimuthRad: p.azimuthRad,
                              elevationRad: p.elevationRad, fieldOfViewDeg: p.fieldOfViewDeg)
        }
    }

    /// The camera for a choice, viewport `width` × `height`.
    public static func make(_ choice: CameraChoice, positions: [Vector3], layout: SceneLayout, width: Int, height: Int) -> ViewCamera {
        let aspect = Double(max(1, width)) / Double(max(1, height))
        return ViewCamera(pose: pose(for: choice, positions: positions, layout: layout, aspect: aspect), width: width, height: height)
    }
}

extension CameraChoice {
    /// The choice from the view endpoints' query: no focus and no angles is the overview; a
    /// focus alone is its preset framing; any explicit angle or distance makes an orbit camera
    /// around the focus (the Sun when none is named), missing parts taken from the framing; a
    /// non-zero `pan` then moves that camera's target by so many scene units.
    public static func from(focus: BodyID?, azimuthRad: Double?, elevationRad: Double?, distance: Double?, pan: Vector3 = .zero) -> CameraChoice {
        let choice: CameraChoice
        if azimuthRad == nil, elevationRad == nil, distance == nil {
            choice = focus.map { .focus($0) } ?? .overview
        } else {
            choice = .orbit(target: focus ?? .sun, azimuthRad: azimuthRad, elevationRad: elevationRad, distance: distance)
        }
        return choice.panned(by: pan)
    }

    /// This choice moved by `offset` scene units; itself when the offset is zero, so an absent
    /// and a zero pan are the same view (and the same cache key).
    public func panned(by offset: Vector3) -> CameraChoice {
        offset == .zero ? self : .panned(self, offset: offset)
    }

    /// The choice with its distance replaced, keeping its kind where the kind allows (orbit
    /// cameras, panned or not); other choices become the pose they give with the new distance.
    public func with(distance: Double, pose: CameraPose) -> CameraChoice {
        switch self {
        case let .orbit(target, azimuth, elevation, _):
            return .orbit(target: target, azimuthRad: azimuth, elevationRad: elevation, distance: distance)
        case let .panned(.orbit(target, azimuth, elevation, _), offset):
            return .panned(.orbit(target: target, azimuthRad: azimuth, elevationRad: elevation, distance: distance), offset: offset)
        default:
            return .pose(CameraPose(target: pose.target, distance: distance, azimuthRad: pose.azimuthRad,
                                    elevationRad: pose.elevationRad, fieldOfViewDeg: pose.fieldOfViewDeg))
        }
    }
}
