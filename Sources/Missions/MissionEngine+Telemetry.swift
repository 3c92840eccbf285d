import Ephemeris

/// A vehicle's figures relative to the Moon (reported inside its sphere of influence).
public struct MoonRelativeTelemetry: Sendable {
    /// From the Moon's centre, km.
    public let distanceKm: Double
    /// Above the Moon's mean radius, km.
    public let altitudeKm: Double
    /// Relative to the Moon's centre, non-rotating (ecliptic J2000) axes, km/s.
    public let speedKmS: Double
}

/// One active vehicle at one mission time.
public struct VehicleTelemetry: Sendable {
    public let id: String
    public let name: String
    public let primary: Bool
    /// The seeds' runtime phase of the marker (from `moonOrbit`/`moonLanding` in the data).
    public let phase: VehiclePhase
    public let frame: ReferenceFrame
    /// Where the vehicle physically is: geocentric ecliptic J2000 km (from ``LunarTrack`` near
    /// the Moon), or heliocentric ecliptic J2000 AU.
    public let position: Vector3
    /// Where the marker is drawn (absolute scene coordinates; geocentric missions carried on the
    /// Earth's scene position): the seeds' enlarged, decorative moon orbit included.
    public let scenePosition: Vector3
    /// From the Earth's centre (geocentric) or the Sun (heliocentric), in km …
    public let distanceKm: Double
    /// … and the same distance in AU.
    public let distanceAU: Double
    /// Speed in the mission frame (relative to the Earth or the Sun), km/s, by central difference.
    public let speedKmS: Double
    /// Inside the Moon's sphere of influence (geocentric missions), nil elsewhere.
    public let moon: MoonRelativeTelemetry?
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

/// A vehicle's physical state: position (native frame) and velocity in km/s, and the same
/// relative to the Moon for geocentric missions.
public struct PhysicalState: Sendable {
    public let position: Vector3
    public let velocityKmS: Vector3
    public let moonRelativeKm: Vector3?
    public let moonRelativeVelocityKmS: Vector3?
}

extension MissionEngine {
    /// Half-step of the central difference behind `speedKmS`: a minute for geocentric missions
    /// (a two-hour lunar orbit turns 3° in it: the chord is 0.05 % short of the arc), an hour
    /// for heliocentric ones.
    public var speedStepHours: Double { mission.referenceFrame == .geocentric ? 1.0 / 60 : 1 }

    /// Telemetry at `t` hours from launch (within ±1e8 h, 11,400 years, which covers every date
    /// the ephemeris takes; before launch and after the end no vehicle is active).
    public func telemetry(at t: Double) throws(MissionQueryError) -> MissionTelemetry {
        guard t.isFinite, abs(t) < 100_000_000 else { throw .invalidTime(hours: t) }
        let status = mission.eventStatus(at: t)
        var earthScene: Vector3?
        var moons = MoonStates(engine: self)
        var list: [VehicleTelemetry] = []
        for (index, v) in vehicles.enumerated() {
            guard let (marker, phase) = position(v, atHours: t) else { continue }
            let scene: Vector3
            let km: Double
            let state = physicalState(index, atHours: t, marker: marker, phase: phase, moons: &moons)
            switch mission.referenceFrame {
            case .geocentric:
                let e = earthScene ?? earthScenePosition(atHours: t)
                earthScene = e
                scene = e + sceneOffset(geocentricKm: marker)
                km = state.position.length
            case .heliocentric:
                scene = scenePosition(native: marker, atHours: t)
                km = state.position.length * Constants.auKm
            }
            var moon: MoonRelativeTelemetry?
            if let rel = state.moonRelativeKm, let relV = state.moonRelativeVelocityKmS, rel.length <= moonSphereOfInfluenceKm {
                // The track never goes below the surface (arcs are checked, the descent and ascent
                // stay above it): a landed vehicle's −1e−13 km is rounding.
                moon = MoonRelativeTelemetry(distanceKm: rel.length, altitudeKm: max(0, rel.length - moonRadiusKm), speedKmS: relV.length)
            }
            let speed = mission.referenceFrame == .geocentric ? state.velocityKmS.length : state.velocityKmS.length * Constants.auKm
            list.append(VehicleTelemetry(
                id: v.vehicle.id, name: v.vehicle.name, primary: v.vehicle.primary, phase: phase,
                frame: mission.referenceFrame, position: state.position, scenePosition: scene,
                distanceKm: km, distanceAU: km / Constants.auKm, speedKmS: speed, moon: moon
            ))
        }
        return MissionTelemetry(
            missionID: mission.id, timeHours: t, instant: mission.instant(atHours: t), met: MissionClock.met(hours: t),
            vehicles: list, lastEvent: status.lastEvent, nextEvent: status.nextEvent, visibleLabels: status.visibleLabels
        )
    }

    /// The physical state of `vehicles[index]` at `t` (inside its span): the ``LunarTrack`` where
    /// there is one, the marker otherwise. Velocities by central difference, never across a
    /// burn (``LunarTrack/segment(atHours:around:)``) or a marker phase switch, so neither shows
    /// up as a spike; one-sided at the ends of the span. Velocities in km/s (geocentric) or AU/s.
    public func physicalState(_ index: Int, atHours t: Double) -> PhysicalState? {
        let v = vehicles[index]
        guard let (marker, phase) = position(v, atHours: t) else { return nil }
        var moons = MoonStates(engine: self)
        return physicalState(index, atHours: t, marker: marker, phase: phase, moons: &moons)
    }

    func physicalState(_ index: Int, atHours t: Double, marker: Vector3, phase: VehiclePhase, moons: inout MoonStates) -> PhysicalState {
        let v = vehicles[index]
        let h = speedStepHours
        let a = max(t - h, v.spanHours.lowerBound), b = min(t + h, v.spanHours.upperBound)
        let seconds = (b - a) * 3600
        guard let track = lunarTracks[index] else {
            let velocity = b > a ? (position(v, atHours: b, phase: phase) - position(v, atHours: a, phase: phase)) / seconds : .zero
            guard mission.referenceFrame == .geocentric else {
                return PhysicalState(position: marker, velocityKmS: velocity, moonRelativeKm: nil, moonRelativeVelocityKmS: nil)
            }
            return PhysicalState(position: marker, velocityKmS: velocity, moonRelativeKm: marker - moons.position(t),
                                 moonRelativeVelocityKmS: velocity - moons.velocityKmS(t))
        }
        func relative(_ x: Double) -> Vector3 {
            let segment = track.segment(atHours: x, around: t)
            let moonKm = moons.position(x)
            let curve = LunarTrack.needsCurve(segment.piece) ? authoredPath(v, atHours: x, moonKm: moonKm) : nil
            let moon = MoonState(positionKm: moonKm, bodyToEcliptic: segment.piece.needsOrientation ? moons.bodyToEcliptic(x) : .identity)
            return LunarTrack.position(segment.piece, segment: segment, atHours: x, moon: moon, curve: curve, radiusKm: moonRadiusKm)
        }
        let rel = relative(t)
        let position = rel + moons.position(t)
        guard b > a else { return PhysicalState(position: position, velocityKmS: .zero, moonRelativeKm: rel, moonRelativeVelocityKmS: .zero) }
        let relA = relative(a), relB = relative(b)
        let relV = (relB - relA) / seconds
        let geoV = ((relB + moons.position(b)) - (relA + moons.position(a))) / seconds
        return PhysicalState(position: position, velocityKmS: geoV, moonRelativeKm: rel, moonRelativeVelocityKmS: relV)
    }
}

/// The Moon's position and orientation at the few instants one telemetry call needs: the state
/// once (position and velocity), carried linearly over the ±1 min of the differences (the Moon's
/// 2.7 µm/s² pull bends that line by 5 m), and the orientation for each instant that asks.
struct MoonStates {
    let engine: MissionEngine
    private var base: (hours: Double, positionKm: Vector3, velocityKmS: Vector3)?
    private var orientations: [(hours: Double, matrix: Matrix3)] = []

    init(engine: MissionEngine) { self.engine = engine }

    private mutating func state(near t: Double) -> (hours: Double, positionKm: Vector3, velocityKmS: Vector3) {
        if let base, abs(base.hours - t) <= 2 * engine.speedStepHours { return base }
        let s = engine.ephemeris.parentRelativeState(.moon, at: engine.mission.instant(atHours: t))
        let fresh = (hours: t, positionKm: s.positionKm, velocityKmS: s.velocityKmPerDay / Constants.secondsPerDay)
        base = fresh
        return fresh
    }

    /// Geocentric ecliptic J2000 km.
    mutating func position(_ t: Double) -> Vector3 {
        let s = state(near: t)
        return s.positionKm + s.velocityKmS * ((t - s.hours) * 3600)
    }

    /// km/s.
    mutating func velocityKmS(_ t: Double) -> Vector3 { state(near: t).velocityKmS }

    /// IAU body-fixed → ecliptic J2000.
    mutating func bodyToEcliptic(_ t: Double) -> Matrix3 {
        if let hit = orientations.first(where: { $0.hours == t }) { return hit.matrix }
        let m = engine.ephemeris.orientation(.moon, at: engine.mission.instant(atHours: t)).bodyToEcliptic
        orientations.append((t, m))
        return m
    }
}
