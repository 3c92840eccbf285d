import Ephemeris

/// One active vehicle at one mission time.
public struct VehicleTelemetry: Sendable {
    public let id: String
    public let name: String
    public let primary: Bool
    public let phase: VehiclePhase
    public let frame: ReferenceFrame
    /// Geocentric ecliptic J2000 km, or heliocentric ecliptic J2000 AU.
    public let position: Vector3
    /// Absolute scene coordinates (geocentric missions carried on the Earth's scene position).
    public let scenePosition: Vector3
    /// From the Earth's centre (geocentric) or the Sun (heliocentric), in km …
    public let distanceKm: Double
    /// … and the same distance in AU.
    public let distanceAU: Double
    /// Speed in the mission frame (relative to the Earth or the Sun), km/s, by central difference.
    public let speedKmS: Double
}

/// Everything the telemetry endpoint and the replay stream report at mission time `t`.
public struct MissionTelemetry: Sendable {
    public let missionID: String
    /// Hours from launch.
    public let timeHours: Double
    public let instant: Instant
    /// ISO 8601 UTC.
    public var date: String { instant.iso8601 }
    /// `T+DD:HH:MM:SS`.
    public let met: String
    /// The vehicles existing at `t` (between their first and last waypoint), in data order.
    public let vehicles: [VehicleTelemetry]
    public let lastEvent: MissionEvent?
    public let nextEvent: MissionEvent?
    public let visibleLabels: [MissionEvent]
}

extension MissionEngine {
    /// Half-step of the central difference behind `speedKmS`: a minute for geocentric missions
    /// (a 4 h lunar orbit turns 1.5° in it), an hour for heliocentric ones.
    public var speedStepHours: Double { mission.referenceFrame == .geocentric ? 1.0 / 60 : 1 }

    /// Telemetry at `t` hours from launch (any finite t; before launch and after the end no
    /// vehicle is active).
    public func telemetry(at t: Double) throws(MissionQueryError) -> MissionTelemetry {
        guard t.isFinite, abs(t) < 10_000_000 else { throw .invalidTime(hours: t) }
        let status = mission.eventStatus(at: t)
        var earthScene: Vector3?
        var list: [VehicleTelemetry] = []
        for v in vehicles {
            guard let (p, phase) = position(v, atHours: t) else { continue }
            let scene: Vector3
            let km: Double
            switch mission.referenceFrame {
            case .geocentric:
                let e = earthScene ?? earthScenePosition(atHours: t)
                earthScene = e
                scene = e + sceneOffset(geocentricKm: p)
                km = p.length
            case .heliocentric:
                scene = scenePosition(native: p, atHours: t)
                km = p.length * Constants.auKm
            }
            list.append(VehicleTelemetry(
                id: v.vehicle.id, name: v.vehicle.name, primary: v.vehicle.primary, phase: phase,
                frame: mission.referenceFrame, position: p, scenePosition: scene,
                distanceKm: km, distanceAU: km / Constants.auKm, speedKmS: speedKmS(v, atHours: t, phase: phase)
            ))
        }
        return MissionTelemetry(
            missionID: mission.id, timeHours: t, instant: mission.instant(atHours: t), met: MissionClock.met(hours: t),
            vehicles: list, lastEvent: status.lastEvent, nextEvent: status.nextEvent, visibleLabels: status.visibleLabels
        )
    }

    /// Central difference of the position in `phase`, one-sided at the ends of the vehicle's span.
    public func speedKmS(_ v: ResolvedVehicle, atHours t: Double, phase: VehiclePhase) -> Double {
        let h = speedStepHours
        let a = max(t - h, v.spanHours.lowerBound), b = min(t + h, v.spanHours.upperBound)
        guard b > a else { return 0 }
        let d = (position(v, atHours: b, phase: phase) - position(v, atHours: a, phase: phase)).length
        let km = mission.referenceFrame == .geocentric ? d : d * Constants.auKm
        return km / ((b - a) * 3600)
    }
}
