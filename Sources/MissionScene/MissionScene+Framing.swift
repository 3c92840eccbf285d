import Ephemeris
import Missions
import Scene

/// The viewer's mission camera (the product's original app framed missions this way). Geocentric missions: `follow` — the target is the Earth's scene
/// position plus the centre of the trajectory's Earth-relative bounding box, Sun-side azimuth
/// (+0.55 rad), elevation 0.3 rad, distance `max(radius × 1.4 / tan(π/6), 1.5)` with radius the
/// length of the box's half-size; clients lerp the target by 0.02 per frame to keep following.
/// Heliocentric missions: `overview` (the whole system, as the viewer's reset shows it), no pose.
public struct MissionFraming: Sendable {
    public enum Mode: String, Sendable, Hashable { case follow, overview }

    public let mode: Mode
    /// The camera at the framing time (`follow` only).
    public let pose: CameraPose?
    /// Earth-relative scene bounding box of every vehicle's line (`follow` only).
    public let localBoundsMin: Vector3?
    public let localBoundsMax: Vector3?
    /// Centre of that box (add the Earth's scene position to follow).
    public let localCenter: Vector3?
    /// Length of the box's half-size.
    public let radius: Double?
    /// Per-frame lerp factor of the lazy follow.
    public static let followLerp = 0.02
}

extension MissionScene {
    /// Samples per vehicle behind the bounding box.
    static let framingSamples = 512

    /// The mission framing at `t` hours (default: launch, where selecting a mission jumps to).
    public func framing(atHours t: Double = 0) -> MissionFraming {
        guard mission.referenceFrame == .geocentric, let (lo, hi) = localSceneBounds else {
            return MissionFraming(mode: .overview, pose: nil, localBoundsMin: nil, localBoundsMax: nil, localCenter: nil, radius: nil)
        }
        let center = (lo + hi) * 0.5
        let radius = ((hi - lo) * 0.5).length
        let earth = earthScenePosition(atHours: t)
        let pose = CameraFraming.fit(center: earth + center, radius: radius, sunSideOf: earth)
        return MissionFraming(mode: .follow, pose: pose, localBoundsMin: lo, localBoundsMax: hi, localCenter: center, radius: radius)
    }

    /// The axis-aligned box of every vehicle's scene line (relative to ``sceneOrigin``), nil
    /// when a line cannot be sampled.
    public func localBounds() -> (min: Vector3, max: Vector3)? {
        var lo = Vector3(.infinity, .infinity, .infinity), hi = -lo
        for track in engine.tracks {
            guard let line = try? sample(track, count: Self.framingSamples, frame: .scene) else { return nil }
            for s in line.samples {
                let p = s.position
                lo = Vector3(min(lo.x, p.x), min(lo.y, p.y), min(lo.z, p.z))
                hi = Vector3(max(hi.x, p.x), max(hi.y, p.y), max(hi.z, p.z))
            }
        }
        return (lo, hi)
    }
}
