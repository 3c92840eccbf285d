import Ephemeris

/// Which coordinates a trajectory is sampled in.
public enum TrajectoryFrame: String, Sendable, Hashable, CaseIterable {
    /// The mission's own frame: geocentric ecliptic J2000 km, or heliocentric ecliptic J2000 AU.
    case native
    /// Scene units relative to ``MissionEngine/sceneOrigin`` (Earth for geocentric missions).
    case scene
}

public struct TrajectorySample: Sendable, Hashable {
    /// Hours from launch.
    public let timeHours: Double
    public let position: Vector3
    public let color: RGB

    public init(timeHours: Double, position: Vector3, color: RGB) {
        self.timeHours = timeHours
        self.position = position
        self.color = color
    }
}

/// A vehicle's trajectory line: the interpolated curve at uniform time steps, first and last
/// samples on its first and last waypoints. The line is the curve alone; the Moon phases move
/// the marker (``MissionEngine/position(_:atHours:)``), not the line — as in the seeds.
public struct Trajectory: Sendable {
    public let missionID: String
    public let vehicleID: String
    public let frame: TrajectoryFrame
    public let referenceFrame: ReferenceFrame
    /// `km`, `AU` or `scene`.
    public let unit: String
    /// For `scene`: what the coordinates are relative to; nil for `native`.
    public let sceneOrigin: SceneOrigin?
    public let samples: [TrajectorySample]
}

extension MissionEngine {
    /// Accepted sample counts.
    public static let sampleCountRange = 2...20_000

    /// Samples `count` points of a vehicle's line. Deterministic: the same mission data,
    /// ``MissionEngine/engineVersion``, vehicle, count and frame give the same bytes.
    public func sample(_ vehicleID: String, count: Int, frame: TrajectoryFrame) throws(MissionQueryError) -> Trajectory {
        guard Self.sampleCountRange.contains(count) else {
            throw .sampleCountOutOfRange(count: count, accepted: Self.sampleCountRange)
        }
        let v = try vehicle(vehicleID)
        return sample(v, count: count, frame: frame)
    }

    func sample(_ v: ResolvedVehicle, count: Int, frame: TrajectoryFrame) -> Trajectory {
        let t0 = v.spanHours.lowerBound, t1 = v.spanHours.upperBound
        let flyby = flybyFraction(v)
        var samples: [TrajectorySample] = []
        samples.reserveCapacity(count)
        for k in 0..<count {
            let f = Double(k) / Double(count - 1)
            let t = k == count - 1 ? t1 : t0 + (t1 - t0) * f
            let native = curvePosition(v, atHours: t)
            let p = frame == .native ? native : localScenePosition(native: native)
            samples.append(TrajectorySample(timeHours: t, position: p, color: TrajectoryColor.color(base: v.vehicle.color, fraction: f, flybyFraction: flyby)))
        }
        return Trajectory(
            missionID: mission.id, vehicleID: v.vehicle.id, frame: frame, referenceFrame: mission.referenceFrame,
            unit: frame == .scene ? "scene" : mission.referenceFrame.unit,
            sceneOrigin: frame == .scene ? sceneOrigin : nil, samples: samples
        )
    }

    /// Where the mission's flyby falls in the vehicle's span (nil outside it).
    func flybyFraction(_ v: ResolvedVehicle) -> Double? {
        guard let flyby = mission.flybyTimeHours, mission.referenceFrame == .geocentric else { return nil }
        let t0 = v.spanHours.lowerBound, t1 = v.spanHours.upperBound
        let f = (flyby - t0) / (t1 - t0)
        return f > 0 && f < 1 ? f : nil
    }
}
