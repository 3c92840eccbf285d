import Glibc
import Astrodynamics
import Ephemeris

/// One vehicle made concrete against the kernels: how far they cover it, and how it is
/// carried beyond them if it flies on.
public struct VehicleTrack: Sendable {
    public let vehicle: Vehicle
    /// Hours from launch the kernels cover the vehicle to, continuously from its start.
    public let dataEndHours: Double
    /// The kernels' span that covers the vehicle from its start, TDB seconds past J2000.
    let dataSeconds: ClosedRange<Double>
    /// Beyond ``dataEndHours``: a two-body arc about the centre from the last covered state.
    let extrapolation: Extrapolation?

    struct Extrapolation: Sendable {
        let center: ExtrapolationCenter
        /// Relative to the centre, epoch at ``VehicleTrack/dataEndHours``.
        let arc: KeplerArc
        let source: String
    }

    public var startHours: Double { vehicle.startHours }
    /// Nil for a vehicle that flies on.
    public var endHours: Double? { vehicle.endHours }

    public func exists(at t: Double) -> Bool { vehicle.exists(at: t) }
}

/// Where a vehicle is at one mission time: heliocentric ecliptic J2000, km and km/s, with
/// what placed it there.
public struct VehicleState: Sendable {
    public let timeHours: Double
    public let instant: Instant
    public let heliocentricKm: Vector3
    public let velocityKmS: Vector3
    /// The kernel segment's name ("JPL Horizons -32 30-min") and file, or the extrapolation.
    public let source: String
    /// Beyond the vehicle's data: carried on by two-body motion.
    public let extrapolated: Bool
    /// On the part of its path that follows a published plan (``Vehicle/plannedFromHours``),
    /// not data or published events; with ``extrapolated``, the plan's last orbit carried on.
    public let planned: Bool
}

/// One mission made concrete against the kernels and the ephemeris. Built once per mission
/// at start-up; every query on it is deterministic and thread-safe.
///
/// ```swift
/// let engine = try MissionEngine(mission: catalogue["voyager2"]!, ephemeris: eph, kernels: bodies)
/// let tm = try engine.telemetry(at: 105_000)          // Voyager 2 beyond Neptune
/// let line = try engine.sample("voyager2", count: 500)             // heliocentric AU
/// ```
public struct MissionEngine: Sendable {
    /// The mission, with the times of events the sources give only the day of found in the
    /// trajectory (``MissionEvent/timeFromClosestApproach``).
    public private(set) var mission: Mission
    public let ephemeris: Ephemeris
    public let kernels: KernelBodies
    /// In `mission.vehicles` order.
    public let tracks: [VehicleTrack]
    /// The vehicles' orbit spans once found (``orbitSpans(_:)``).
    let orbitCache = OrbitSpanCache()

    public init(mission: Mission, ephemeris: Ephemeris, kernels: KernelBodies) throws(MissionDataError) {
        self.mission = mission
        self.ephemeris = ephemeris
        self.kernels = kernels
        var tracks: [VehicleTrack] = []
        for (i, v) in mission.vehicles.enumerated() {
            tracks.append(try Self.track(v, field: "vehicles[\(i)]", mission: mission, kernels: kernels, ephemeris: ephemeris))
        }
        self.tracks = tracks
        if mission.events.contains(where: \.timeFromClosestApproach) {
            self.mission = mission.with(events: mission.events.map { e in
                guard e.timeFromClosestApproach, let t = closestApproachHours(e) else { return e }
                return e.with(index: e.index, timeHours: t, date: instant(atHours: t))
            })
        }
    }

    /// Where the primary vehicle passes closest to an event's body within a day either side of
    /// its date: a 20-minute scan, then golden-section search to the second. Nil when the
    /// vehicle does not exist then.
    func closestApproachHours(_ e: MissionEvent) -> Double? {
        guard let body = e.fact?.body, let track = tracks.first(where: { $0.vehicle.primary }) ?? tracks.first else { return nil }
        func distance(_ t: Double) -> Double {
            guard track.exists(at: t), let s = try? state(track, atHours: t),
                  let b = ephemeris.naifState(NAIFBody.id(body), at: s.instant) else { return .infinity }
            return (s.heliocentricKm - b.positionKm).length
        }
        return ClosestApproachSearch.minimum(near: e.timeHours, distance: distance)
    }

    /// One engine per mission, keyed by id. Throws the first mission whose vehicles the kernels
    /// do not cover.
    public static func all(_ catalogue: MissionCatalogue, ephemeris: Ephemeris, kernels: KernelBodies) throws(MissionDataError) -> [String: MissionEngine] {
        var out: [String: MissionEngine] = [:]
        for m in catalogue.missions {
            out[m.id] = try MissionEngine(mission: m, ephemeris: ephemeris, kernels: kernels)
        }
        return out
    }

    /// Checks that the kernels cover the vehicle from its start (to its end, if it has one) and
    /// builds the extrapolation of one that flies on.
    static func track(_ v: Vehicle, field: String, mission: Mission, kernels: KernelBodies,
                      ephemeris: Ephemeris) throws(MissionDataError) -> VehicleTrack {
        func fail(_ problem: String) -> MissionDataError { MissionDataError(mission: mission.id, field: field, problem: problem) }
        let spans = kernels.coverage(of: v.naifID)
        let start = mission.tdbSeconds(atHours: v.startHours)
        // A second's slack: the kernels' epochs and the data's dates are rounded differently.
        guard let span = spans.first(where: { $0.lowerBound <= start + edgeSlackSeconds && $0.upperBound >= start }) else {
            throw fail("vehicle \"\(v.id)\" (NAIF \(v.naifID)) is not in the kernels at its start, \(KernelBodyError.date(start)); they cover it \(KernelBodyError.list(spans)) (mission kernels: \(mission.kernels.joined(separator: ", ")))")
        }
        let dataEndHours = mission.hours(at: TimeScale.instant(tdbSecondsPastJ2000: span.upperBound))
        if let end = v.endHours, dataEndHours < end - edgeSlackSeconds / 3600 {
            throw fail("vehicle \"\(v.id)\" (NAIF \(v.naifID)) is in the kernels only to \(KernelBodyError.date(span.upperBound)), before its end \(KernelBodyError.date(mission.tdbSeconds(atHours: end))); covered: \(KernelBodyError.list(spans))")
        }
        guard v.endHours == nil, let about = v.extrapolation else {
            return VehicleTrack(vehicle: v, dataEndHours: min(dataEndHours, v.endHours ?? dataEndHours), dataSeconds: span, extrapolation: nil)
        }
        // The last covered state, relative to the centre, starts the two-body arc.
        let t = TimeScale.instant(tdbSecondsPastJ2000: span.upperBound)
        let state: KernelBodies.State
        let center: (positionKm: Vector3, velocityKmS: Vector3)
        do {
            state = try kernels.state(v.naifID, at: t, ephemeris: ephemeris)
            center = try Self.centerState(about, at: t, ephemeris: ephemeris)
        } catch {
            throw fail("vehicle \"\(v.id)\" cannot be placed at the end of its data, \(t.iso8601): \(error)")
        }
        let arc = KeplerArc(mu: Self.gm(about), position: state.positionKm - center.positionKm, velocity: state.velocityKmS - center.velocityKmS,
                            epochHours: dataEndHours)
        let name = about == .solarSystemBarycenter ? "the solar-system barycentre" : NAIFBody.name(about.naifID)
        let source = "two-body extrapolation about \(name) from the last state of \(state.segment.name) (\(t.iso8601))"
        return VehicleTrack(vehicle: v, dataEndHours: dataEndHours, dataSeconds: span, extrapolation: .init(center: about, arc: arc, source: source))
    }

    /// GM of an extrapolation centre: the whole solar system's for its barycentre.
    static func gm(_ c: ExtrapolationCenter) -> Double {
        switch c {
        case .solarSystemBarycenter:
            return GravityConstants.sunGM + BodyID.heliocentric.reduce(0) { $0 + ($1 == .earth ? GravityConstants.earthGM + GravityConstants.moonGM : GravityConstants.gm($1)) }
        case let .body(b):
            return GravityConstants.gm(b)
        }
    }

    static func centerState(_ c: ExtrapolationCenter, at t: Instant, ephemeris: Ephemeris) throws -> (positionKm: Vector3, velocityKmS: Vector3) {
        guard let s = ephemeris.naifState(c.naifID, at: t) else { throw KernelBodyError.unknown(id: c.naifID) }
        return s
    }

    // MARK: - Queries

    /// The mission's vehicle ids in data order (for "valid vehicles" messages).
    public var vehicleIDs: [String] { tracks.map(\.vehicle.id) }

    public func track(_ id: String) throws(MissionQueryError) -> VehicleTrack {
        guard let t = tracks.first(where: { $0.vehicle.id == id }) else {
            throw .unknownVehicle(mission: mission.id, id: id, valid: vehicleIDs)
        }
        return t
    }

    /// The instant `t` hours of TT after launch (mission time: ``Mission/hours(at:)``).
    public func instant(atHours t: Double) -> Instant {
        TimeScale.instant(tdbSecondsPastJ2000: mission.tdbSeconds(atHours: t))
    }

    /// Where `track`'s vehicle is at `t` (inside its span: the caller checks ``VehicleTrack/exists(at:)``).
    public func state(_ track: VehicleTrack, atHours t: Double) throws(MissionQueryError) -> VehicleState {
        let at = instant(atHours: t)
        if let x = track.extrapolation, t > track.dataEndHours {
            let s = x.arc.state(atHours: t)
            let c: (positionKm: Vector3, velocityKmS: Vector3)
            do { c = try Self.centerState(x.center, at: at, ephemeris: ephemeris) } catch {
                throw .notCovered(mission: mission.id, vehicle: track.vehicle.id, detail: "\(error)")
            }
            return VehicleState(timeHours: t, instant: at, heliocentricKm: c.positionKm + s.position, velocityKmS: c.velocityKmS + s.velocity,
                                source: x.source, extrapolated: true, planned: track.vehicle.isPlanned(at: t))
        }
        do {
            let s = try kernels.state(track.vehicle.naifID, at: Self.dataInstant(track, seconds: at.daysSinceJ2000TDB * Constants.secondsPerDay) ?? at, ephemeris: ephemeris)
            return VehicleState(timeHours: t, instant: at, heliocentricKm: s.positionKm, velocityKmS: s.velocityKmS,
                                source: s.segment.label, extrapolated: false, planned: track.vehicle.isPlanned(at: t))
        } catch {
            throw .notCovered(mission: mission.id, vehicle: track.vehicle.id, detail: "\(error)")
        }
    }

    /// Where `track`'s vehicle is relative to the centre of the mission's frame (the Earth's or
    /// the Sun's), ecliptic J2000 km and km/s: ``state(_:atHours:)`` less the centre's state,
    /// read down the kernels' chain of centres, which mostly reaches the centre (through the
    /// Moon for a lunar mission) without placing a planet in the solar system at all. `velocity: false`: positions only, where the kernels allow (the
    /// velocity is then zero or whatever came with the position).
    func frameRelativeState(_ track: VehicleTrack, atHours t: Double, velocity: Bool = true) throws(MissionQueryError) -> (positionKm: Vector3, velocityKmS: Vector3) {
        let earth = NAIFBody.id(.earth)
        let origin = mission.referenceFrame == .geocentric ? earth : NAIFBody.id(.sun)
        guard track.extrapolation == nil || t <= track.dataEndHours else {
            let s = try state(track, atHours: t)
            guard mission.referenceFrame == .geocentric else { return (s.heliocentricKm, s.velocityKmS) }
            let c = ephemeris.naifState(earth, at: s.instant) ?? (.zero, .zero)
            return (s.heliocentricKm - c.positionKm, s.velocityKmS - c.velocityKmS)
        }
        let seconds = mission.tdbSeconds(atHours: t)
        do {
            let s = try kernels.state(track.vehicle.naifID, relativeTo: origin, tdbSecondsPastJ2000: Self.dataSeconds(track, seconds: seconds) ?? seconds,
                                      ephemeris: ephemeris, velocity: velocity)
            return (s.positionKm, s.velocityKmS)
        } catch {
            throw .notCovered(mission: mission.id, vehicle: track.vehicle.id, detail: "\(error)")
        }
    }

    /// Where to read the kernels for an instant at most ``edgeSlackSeconds`` outside the
    /// vehicle's data (nil: inside it, or truly outside). A vehicle starts and ends where its
    /// data do, but hours → seconds → instant → seconds lands an ulp or two (1e-7 s) either side
    /// of those edges, and ``track(_:field:mission:kernels:ephemeris:)`` allows a
    /// second between the data's edges and the dates: such instants are read a microsecond
    /// inside the data (an ulp-safe margin, centimetres at orbital speeds).
    static func dataInstant(_ track: VehicleTrack, seconds: Double) -> Instant? {
        dataSeconds(track, seconds: seconds).map { TimeScale.instant(tdbSecondsPastJ2000: $0) }
    }

    /// ``dataInstant(_:seconds:)`` as TDB seconds past J2000.
    static func dataSeconds(_ track: VehicleTrack, seconds: Double) -> Double? {
        let span = track.dataSeconds, margin = 1e-6
        guard seconds < span.lowerBound + margin || seconds > span.upperBound - margin,
              seconds > span.lowerBound - edgeSlackSeconds, seconds < span.upperBound + edgeSlackSeconds,
              span.upperBound - span.lowerBound > 2 * margin else { return nil }
        return min(max(seconds, span.lowerBound + margin), span.upperBound - margin)
    }

    /// How far a vehicle's start or end may lie outside its data (the kernels' epochs and the
    /// data's dates are rounded differently).
    static let edgeSlackSeconds = 1.0
}
