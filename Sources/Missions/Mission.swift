import Ephemeris

/// The frame a mission's waypoints are written in (`referenceFrame` in `missions.json`).
///
/// - `geocentric`: kilometres from the Earth's centre. The seeds author lunar missions "in a frame
///   where +X points toward the Moon at flyby time" with `z` the out-of-plane component
///   ("rotated.z = wp.z // out-of-plane component unchanged"), and rotate x/y by
///   `atan2(moonPos.y, moonPos.x)` of the Moon's *ecliptic* position — so after that rotation the
///   waypoints are geocentric ecliptic J2000 km (x toward the equinox, z toward the ecliptic pole).
/// - `heliocentric`: AU from the Sun, ecliptic J2000, as the seeds' `anchorBody` snapping writes
///   the planet's heliocentric position straight into `wp.x, wp.y, wp.z`.
public enum ReferenceFrame: String, Sendable, Hashable, CaseIterable, Codable {
    case geocentric, heliocentric

    /// The unit of waypoint coordinates in this frame.
    public var unit: String { self == .geocentric ? "km" : "AU" }
}

/// How a vehicle's waypoints are expanded before interpolation.
public enum AutoTrajectory: String, Sendable, Hashable, CaseIterable {
    /// Each pair of consecutive waypoints becomes a prograde Hohmann-style arc (``TransferArc``).
    case transfer
}

/// An RGB colour, components in 0…1.
public struct RGB: Sendable, Hashable {
    public var r: Double
    public var g: Double
    public var b: Double

    public init(_ r: Double, _ g: Double, _ b: Double) {
        self.r = r; self.g = g; self.b = b
    }

    public static let white = RGB(1, 1, 1)
    public var array: [Double] { [r, g, b] }
}

/// A labelled moment of a mission (`events[]`).
public struct MissionEvent: Sendable, Hashable {
    /// Position in the mission's time-ordered event list.
    public let index: Int
    /// Hours from launch.
    public let timeHours: Double
    public let name: String
    public let detail: String
    /// Whether the front-end shows a 3D label for it (within ``Mission/labelWindowHours``).
    public let showLabel: Bool

    public init(index: Int, timeHours: Double, name: String, detail: String, showLabel: Bool) {
        self.index = index
        self.timeHours = timeHours
        self.name = name
        self.detail = detail
        self.showLabel = showLabel
    }
}

/// One hand-authored point of a vehicle's path, as written in the data (before anchor resolution
/// and the Moon-aligned rotation; ``MissionEngine`` holds the resolved points).
public struct Waypoint: Sendable, Hashable {
    /// Hours from launch.
    public let timeHours: Double
    /// km (geocentric, Moon-aligned frame) or AU (heliocentric, ecliptic J2000).
    public let position: Vector3
    /// Snap to the Moon's true direction at its semi-major-axis distance (geocentric only).
    public let anchorMoon: Bool
    /// Snap to this body's heliocentric position at `timeHours` (heliocentric only).
    public let anchorBody: BodyID?

    public init(timeHours: Double, position: Vector3, anchorMoon: Bool = false, anchorBody: BodyID? = nil) {
        self.timeHours = timeHours
        self.position = position
        self.anchorMoon = anchorMoon
        self.anchorBody = anchorBody
    }
}

/// A window of circular motion around the Moon (`moonOrbit`, `moonOrbitReturn`) for the scene
/// marker: the seeds' enlarged, decorative circle (25,000 km, 4 h for Apollo 11). Telemetry
/// comes from ``Mission/physics``.
public struct MoonOrbitPhase: Sendable, Hashable {
    public let startHours: Double
    public let endHours: Double
    public let periodHours: Double
    public let radiusKm: Double

    public init(startHours: Double, endHours: Double, periodHours: Double, radiusKm: Double) {
        self.startHours = startHours
        self.endHours = endHours
        self.periodHours = periodHours
        self.radiusKm = radiusKm
    }

    /// Half-open: the phase owns `start ..< end`, so back-to-back phases never overlap.
    public func contains(_ t: Double) -> Bool { t >= startHours && t < endHours }
}

/// A window on the lunar surface (`moonLanding`): the marker sits on the rendered Moon.
public struct MoonLandingPhase: Sendable, Hashable {
    public let startHours: Double
    public let endHours: Double

    public init(startHours: Double, endHours: Double) {
        self.startHours = startHours
        self.endHours = endHours
    }

    public func contains(_ t: Double) -> Bool { t >= startHours && t < endHours }
}

/// What a vehicle is doing at a moment.
public enum VehiclePhase: String, Sendable, Hashable, CaseIterable {
    /// Following its interpolated waypoint curve.
    case trajectory
    case moonOrbit
    case moonLanding
    case moonOrbitReturn
}

/// One spacecraft (or stage) of a mission.
public struct Vehicle: Sendable, Hashable {
    public let id: String
    public let name: String
    public let color: RGB
    /// The vehicle the telemetry panel follows.
    public let primary: Bool
    public let autoTrajectory: AutoTrajectory?
    public let moonOrbit: MoonOrbitPhase?
    public let moonLanding: MoonLandingPhase?
    public let moonOrbitReturn: MoonOrbitPhase?
    /// At least two, strictly increasing in time (validated at load).
    public let waypoints: [Waypoint]

    public init(
        id: String, name: String, color: RGB, primary: Bool, autoTrajectory: AutoTrajectory? = nil,
        moonOrbit: MoonOrbitPhase? = nil, moonLanding: MoonLandingPhase? = nil, moonOrbitReturn: MoonOrbitPhase? = nil,
        waypoints: [Waypoint]
    ) {
        self.id = id
        self.name = name
        self.color = color
        self.primary = primary
        self.autoTrajectory = autoTrajectory
        self.moonOrbit = moonOrbit
        self.moonLanding = moonLanding
        self.moonOrbitReturn = moonOrbitReturn
        self.waypoints = waypoints
    }

    /// Hours from launch of the first and last waypoints: the vehicle exists only inside.
    public var spanHours: ClosedRange<Double> {
        (waypoints.first?.timeHours ?? 0)...(waypoints.last?.timeHours ?? 0)
    }

    /// The runtime phase at `t` (landing wins over the orbits, the return orbit over the first).
    public func phase(at t: Double) -> VehiclePhase {
        if let p = moonLanding, p.contains(t) { return .moonLanding }
        if let p = moonOrbitReturn, p.contains(t) { return .moonOrbitReturn }
        if let p = moonOrbit, p.contains(t) { return .moonOrbit }
        return .trajectory
    }
}

/// One mission of `missions.json`, validated.
public struct Mission: Sendable, Hashable {
    public let id: String
    public let name: String
    public let subtitle: String
    /// The launch date exactly as written (`1969-07-16T13:32:00.000Z`).
    public let launchDate: String
    /// The launch as an instant; mission time t (hours) is `launch.addingTT(seconds: t * 3600) (elapsed TT)`.
    public let launch: Instant
    public let durationHours: Double
    /// The hour the geocentric waypoints' +X axis points at the Moon (geocentric missions).
    public let flybyTimeHours: Double?
    public let referenceFrame: ReferenceFrame
    public let autoTrajectory: AutoTrajectory?
    /// Sorted by time (stable for equal times).
    public let events: [MissionEvent]
    public let vehicles: [Vehicle]
    /// The real lunar orbit, flyby or landing telemetry is computed from (geocentric missions).
    public let physics: LunarPhysics?

    public init(
        id: String, name: String, subtitle: String, launchDate: String, launch: Instant, durationHours: Double,
        flybyTimeHours: Double?, referenceFrame: ReferenceFrame, autoTrajectory: AutoTrajectory? = nil,
        events: [MissionEvent], vehicles: [Vehicle], physics: LunarPhysics? = nil
    ) {
        self.id = id
        self.name = name
        self.subtitle = subtitle
        self.launchDate = launchDate
        self.launch = launch
        self.durationHours = durationHours
        self.flybyTimeHours = flybyTimeHours
        self.referenceFrame = referenceFrame
        self.autoTrajectory = autoTrajectory
        self.events = events
        self.vehicles = vehicles
        self.physics = physics
    }

    /// Where a replay stops: the later of `durationHours`, the last event and the last waypoint,
    /// so no event is ever skipped (Apollo 11's splashdown is at 195.3 h of a 195 h mission).
    public var replayEndHours: Double {
        let lastEvent = events.map(\.timeHours).max() ?? 0
        let lastWaypoint = vehicles.compactMap { $0.waypoints.last?.timeHours }.max() ?? 0
        return max(durationHours, lastEvent, lastWaypoint)
    }

    /// The primary vehicle (the first flagged one, else the first vehicle).
    public var primaryVehicle: Vehicle? { vehicles.first(where: \.primary) ?? vehicles.first }

    public func vehicle(_ id: String) -> Vehicle? { vehicles.first { $0.id == id } }

    /// The instant `t` hours after launch.
    public func instant(atHours t: Double) -> Instant { launch.addingTT(seconds: t * 3600) }

    /// Mission time (hours from launch, TT seconds / 3600) of an instant: for `?date=` queries.
    public func hours(at instant: Instant) -> Double { instant.seconds(since: launch) / 3600 }

    /// Half-width of the event-label window (``MissionClock/labelWindowHours(durationHours:)``).
    public var labelWindowHours: Double { MissionClock.labelWindowHours(durationHours: durationHours) }

    /// The replay speed a client should start at (``MissionClock/autoTimeScale(durationHours:)``).
    public var autoTimeScale: Double { MissionClock.autoTimeScale(durationHours: durationHours) }
}
