import Ephemeris

/// The frame a mission reports in and draws from.
///
/// - `geocentric`: kilometres from the Earth's centre, ecliptic J2000; the scene draws the
///   mission around the Earth's scene position (lunar missions).
/// - `heliocentric`: AU from the Sun's centre, ecliptic J2000; the scene draws it from the Sun.
public enum ReferenceFrame: String, Sendable, Hashable, CaseIterable, Codable {
    case geocentric, heliocentric

    /// The unit positions are given in.
    public var unit: String { self == .geocentric ? "km" : "AU" }
    /// The body the frame is centred on.
    public var center: BodyID { self == .geocentric ? .earth : .sun }
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

/// A published figure an event states — a closest approach, an altitude, a speed — with its
/// source, so that what the server serves can be put beside it (`scripts/mission-facts.py`).
public struct MissionFact: Sendable, Hashable {
    /// The body the distance or altitude is measured from.
    public let body: BodyID?
    /// From the body's centre, km.
    public let distanceKm: Double?
    /// Above the body's mean radius (as the catalogue gives it), km.
    public let altitudeKm: Double?
    /// Speed relative to `body` (or to the mission frame's centre without one), km/s.
    public let speedKmS: Double?
    /// Where the figures (and the event's time) come from: document and address.
    public let source: String
    /// What the figures mean where that needs saying ("altitude above the 1-bar level").
    public let note: String

    public init(body: BodyID?, distanceKm: Double?, altitudeKm: Double?, speedKmS: Double?, source: String, note: String = "") {
        self.body = body
        self.distanceKm = distanceKm
        self.altitudeKm = altitudeKm
        self.speedKmS = speedKmS
        self.source = source
        self.note = note
    }
}

/// A dated moment of a mission (`events[]`).
public struct MissionEvent: Sendable, Hashable {
    /// Position in the mission's time-ordered event list.
    public let index: Int
    /// Optional stable name the kernel generator and the facts script refer to (`"neptune-ca"`).
    public let key: String?
    /// Hours from launch (TT).
    public let timeHours: Double
    /// The instant, UTC as written.
    public let date: Instant
    public let name: String
    public let detail: String
    /// Whether a front-end shows a 3D label for it (within ``Mission/labelWindowHours``).
    public let showLabel: Bool
    /// The figures it states, with their source.
    public let fact: MissionFact?
    /// The sources give only the day: the time is the vehicle's closest approach to the fact's
    /// body within a day of `date`, found in the trajectory (``MissionEngine`` sets it).
    public let timeFromClosestApproach: Bool

    public init(index: Int, key: String? = nil, timeHours: Double, date: Instant, name: String, detail: String, showLabel: Bool, fact: MissionFact? = nil,
                timeFromClosestApproach: Bool = false) {
        self.index = index
        self.key = key
        self.timeHours = timeHours
        self.date = date
        self.name = name
        self.detail = detail
        self.showLabel = showLabel
        self.fact = fact
        self.timeFromClosestApproach = timeFromClosestApproach
    }

    /// The same event at another time (and index).
    public func with(index: Int, timeHours: Double, date: Instant) -> MissionEvent {
        MissionEvent(index: index, key: key, timeHours: timeHours, date: date, name: name, detail: detail, showLabel: showLabel, fact: fact,
                     timeFromClosestApproach: timeFromClosestApproach)
    }
}

/// A named stretch of a vehicle's flight (`phases[]`): what telemetry reports as `phase`, and
/// whether the vehicle is under thrust or drag then (a burn, the ascent, an atmospheric entry)
/// or resting on a surface — the two cases the physics checks exempt.
public struct VehiclePhase: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// Moving under gravity alone.
        case ballistic
        /// Under thrust or atmospheric drag: speed may change faster than gravity allows.
        case powered
        /// On a body's surface.
        case landed
    }

    public let name: String
    public let kind: Kind
    /// Hours from launch; the phase holds `start ..< end`.
    public let startHours: Double
    public let endHours: Double
    /// A body a landed vehicle rests on (may be below its mean radius).
    public let body: BodyID?
    /// Where its times come from (a published timeline, or the source data themselves), when
    /// the mission's events do not say.
    public let source: String?

    public init(name: String, kind: Kind, startHours: Double, endHours: Double, body: BodyID? = nil, source: String? = nil) {
        self.name = name
        self.kind = kind
        self.startHours = startHours
        self.endHours = endHours
        self.body = body
        self.source = source
    }

    public func contains(_ t: Double) -> Bool { t >= startHours && t < endHours }
}

/// Where a vehicle still flying is carried beyond its data: a two-body arc about this centre
/// from the last state the kernels give.
public enum ExtrapolationCenter: Sendable, Hashable {
    /// The solar-system barycentre with the mass of the whole system (deep space).
    case solarSystemBarycenter
    case body(BodyID)

    public var naifID: Int {
        switch self {
        case .solarSystemBarycenter: 0
        case let .body(b): NAIFBody.id(b)
        }
    }
}

/// One spacecraft (or lander, or probe) of a mission.
public struct Vehicle: Sendable, Hashable {
    public let id: String
    public let name: String
    /// The body id the kernels know it by (NAIF's, or the server's own for vehicles that have
    /// none, such as Apollo's: `−1969011`).
    public let naifID: Int
    public let color: RGB
    /// The vehicle the telemetry panel follows.
    public let primary: Bool
    /// Hours from launch the vehicle exists from and until (nil: it flies on, see
    /// ``Mission/end``).
    public let startHours: Double
    public let endHours: Double?
    /// In time order, not overlapping.
    public let phases: [VehiclePhase]
    /// Where a vehicle still flying goes beyond its data (nil: it does not fly beyond them).
    public let extrapolation: ExtrapolationCenter?
    /// Hours from launch from which its path follows a published plan rather than data or the
    /// published events (BepiColombo after its last flyby): the answers say `planned` there.
    public let plannedFromHours: Double?

    public init(id: String, name: String, naifID: Int, color: RGB, primary: Bool, startHours: Double, endHours: Double?,
                phases: [VehiclePhase] = [], extrapolation: ExtrapolationCenter? = nil, plannedFromHours: Double? = nil) {
        self.plannedFromHours = plannedFromHours
        self.id = id
        self.name = name
        self.naifID = naifID
        self.color = color
        self.primary = primary
        self.startHours = startHours
        self.endHours = endHours
        self.phases = phases
        self.extrapolation = extrapolation
    }

    public func exists(at t: Double) -> Bool { t >= startHours && (endHours.map { t <= $0 } ?? true) }

    /// Whether its path at `t` follows a published plan (``plannedFromHours``).
    public func isPlanned(at t: Double) -> Bool { plannedFromHours.map { t >= $0 } ?? false }

    /// The listed phase holding `t`, if any.
    public func phase(at t: Double) -> VehiclePhase? { phases.first { $0.contains(t) } }
}

/// One mission of `missions.json`, validated.
public struct Mission: Sendable, Hashable {
    public let id: String
    public let name: String
    public let subtitle: String
    /// The launch date exactly as written (`1969-07-16T13:32:00Z`).
    public let launchDate: String
    /// The launch as an instant; mission time t (hours) is TT elapsed since it.
    public let launch: Instant
    /// Where the mission ends (splashdown, atmospheric entry, end of data); nil while it flies on:
    /// its answers then run to the present, carried beyond the data by ``Vehicle/extrapolation``.
    public let end: Instant?
    public let referenceFrame: ReferenceFrame
    /// The SPK files its vehicles come from, relative to the missions' kernel directory.
    public let kernels: [String]
    /// Where the trajectory comes from, in a sentence or two (README and docs).
    public let trajectorySummary: String
    /// Sorted by time (stable for equal times).
    public let events: [MissionEvent]
    public let vehicles: [Vehicle]

    /// The same mission with other events (sorted by time here, indices renumbered).
    public func with(events list: [MissionEvent]) -> Mission {
        let sorted = list.enumerated().sorted { ($0.element.timeHours, $0.offset) < ($1.element.timeHours, $1.offset) }
            .enumerated().map { n, pair in pair.element.with(index: n, timeHours: pair.element.timeHours, date: pair.element.date) }
        return Mission(id: id, name: name, subtitle: subtitle, launchDate: launchDate, launch: launch, end: end, referenceFrame: referenceFrame,
                       kernels: kernels, trajectorySummary: trajectorySummary, events: sorted, vehicles: vehicles)
    }

    public init(
        id: String, name: String, subtitle: String, launchDate: String, launch: Instant, end: Instant?, referenceFrame: ReferenceFrame,
        kernels: [String], trajectorySummary: String, events: [MissionEvent], vehicles: [Vehicle]
    ) {
        self.id = id
        self.name = name
        self.subtitle = subtitle
        self.launchDate = launchDate
        self.launch = launch
        self.end = end
        self.referenceFrame = referenceFrame
        self.kernels = kernels
        self.trajectorySummary = trajectorySummary
        self.events = events
        self.vehicles = vehicles
    }

    /// Whether the mission flies on (no end): its replay runs to the present.
    public var isOngoing: Bool { end == nil }

    /// Hours from launch to the mission's end (nil while it flies on).
    public var endHours: Double? { end.map(hours(at:)) }

    /// Where a replay stops: the end, or for a mission that flies on, `now` (hours from launch of
    /// the present), never before the last event so no event is skipped.
    public func replayEndHours(nowHours: Double) -> Double {
        let lastEvent = events.map(\.timeHours).max() ?? 0
        return max(endHours ?? nowHours, lastEvent)
    }

    /// The span the replay-speed and label-window rules read: launch to the end, or to the last
    /// event for a mission that flies on (so they do not change from one day to the next).
    public var durationHours: Double {
        max(endHours ?? 0, events.map(\.timeHours).max() ?? 0, 1)
    }

    /// The primary vehicle (the first flagged one, else the first vehicle).
    public var primaryVehicle: Vehicle? { vehicles.first(where: \.primary) ?? vehicles.first }

    public func vehicle(_ id: String) -> Vehicle? { vehicles.first { $0.id == id } }

    /// The instant `t` hours after launch.
    public func instant(atHours t: Double) -> Instant { launch.addingTT(seconds: t * 3600) }

    /// Mission time (hours from launch, TT seconds / 3600) of an instant.
    public func hours(at instant: Instant) -> Double { instant.seconds(since: launch) / 3600 }

    /// The TDB seconds past J2000 (the kernels' time argument) of mission time `t`: TT elapsed
    /// from launch, then TDB − TT there. Exact to the microsecond and free of calendar work,
    /// for every telemetry tick.
    public func tdbSeconds(atHours t: Double) -> Double {
        let launchTT = (launch.ttWhole - Constants.jdJ2000 + launch.ttFraction) * Constants.secondsPerDay
        let tt = launchTT + t * 3600
        return tt + TimeScale.tdbMinusTTSeconds(daysSinceJ2000: tt / Constants.secondsPerDay)
    }

    /// Half-width of the event-label window (``MissionClock/labelWindowHours(durationHours:)``).
    public var labelWindowHours: Double { MissionClock.labelWindowHours(durationHours: durationHours) }

    /// The replay speed a client should start at (``MissionClock/autoTimeScale(durationHours:)``).
    public var autoTimeScale: Double { MissionClock.autoTimeScale(durationHours: durationHours) }
}
