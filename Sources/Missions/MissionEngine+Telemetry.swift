import Glibc
import Ephemeris

/// The body a vehicle is closest to (by distance from its centre) and how it moves against it.
public struct NearestBody: Sendable, Hashable {
    public let body: BodyID
    /// From the body's centre (Jupiter's and Saturn's own centres, not their systems'
    /// barycentres), km.
    public let distanceKm: Double
    /// Above the body's reference spheroid (``BodyShape``: IAU equatorial and polar radii,
    /// about its IAU pole), km; negative below it.
    public let altitudeKm: Double
    /// Relative to the body, km/s.
    public let speedKmS: Double
}

/// One active vehicle at one mission time.
public struct VehicleTelemetry: Sendable {
    public let id: String
    public let name: String
    public let primary: Bool
    /// The listed phase at `t` (``Vehicle/phases``), else `coast`.
    public let phase: String
    public let phaseKind: VehiclePhase.Kind
    public let frame: ReferenceFrame
    /// From the frame's centre, ecliptic J2000: km (geocentric) or AU (heliocentric).
    public let position: Vector3
    /// Relative to the frame's centre, ecliptic J2000, km/s.
    public let velocityKmS: Vector3
    /// The heliocentric state it was made from (where a drawing places the vehicle).
    public let state: VehicleState
    /// From the frame's centre (the Earth or the Sun), in km …
    public let distanceKm: Double
    /// … and the same distance in AU.
    public let distanceAU: Double
    /// Relative to the frame's centre, km/s.
    public let speedKmS: Double
    public let nearest: NearestBody
    /// One-way light time from the vehicle to the Earth's centre, seconds.
    public let lightTimeToEarthSeconds: Double
    /// What placed it: the kernel segment (and file), or the extrapolation.
    public let source: String
    /// Beyond its data, carried on by two-body motion.
    public let extrapolated: Bool
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
    /// The vehicles existing at `t`, in data order.
    public let vehicles: [VehicleTelemetry]
    public let lastEvent: MissionEvent?
    public let nextEvent: MissionEvent?
    public let visibleLabels: [MissionEvent]
    /// Heliocentric AU of the planets at `instant` (``Ephemeris/planetPositionsAU(at:)``), nil
    /// when no vehicle is active.
    public let planetsAU: [Vector3]?
}

extension MissionEngine {
    /// Telemetry at `t` hours from launch (within ±1e8 h; before launch and after the end no
    /// vehicle is active).
    public func telemetry(at t: Double) throws(MissionQueryError) -> MissionTelemetry {
        guard t.isFinite, abs(t) < 100_000_000 else { throw .invalidTime(hours: t) }
        let status = mission.eventStatus(at: t)
        let at = instant(atHours: t)
        var list: [VehicleTelemetry] = []
        var planets: [Vector3]?
        for track in tracks where track.exists(at: t) {
            let s = try state(track, atHours: t)
            let p = planets ?? ephemeris.planetPositionsAU(at: s.instant)
            planets = p
            list.append(telemetry(track, s, planetsAU: p))
        }
        return MissionTelemetry(
            missionID: mission.id, timeHours: t, instant: at, met: MissionClock.met(hours: t),
            vehicles: list, lastEvent: status.lastEvent, nextEvent: status.nextEvent, visibleLabels: status.visibleLabels, planetsAU: planets
        )
    }

    func telemetry(_ track: VehicleTrack, _ s: VehicleState, planetsAU: [Vector3]) -> VehicleTelemetry {
        let v = track.vehicle
        let nearest = nearestBody(s, planetsAU: planetsAU)
        let phase = v.phase(at: s.timeHours) ?? Self.resting(s, nearest)
        let earthKm = planetsAU[BodyID.earth.index] * Constants.auKm
        let frameCenter: (positionKm: Vector3, velocityKmS: Vector3)
        switch mission.referenceFrame {
        case .geocentric: frameCenter = ephemeris.naifState(399, at: s.instant) ?? (earthKm, .zero)
        case .heliocentric: frameCenter = (.zero, .zero)
        }
        let rel = s.heliocentricKm - frameCenter.positionKm
        let relV = s.velocityKmS - frameCenter.velocityKmS
        let distance = rel.length
        return VehicleTelemetry(
            id: v.id, name: v.name, primary: v.primary, phase: phase?.name ?? (s.extrapolated ? "extrapolated" : "coast"),
            phaseKind: phase?.kind ?? .ballistic, frame: mission.referenceFrame,
            position: mission.referenceFrame == .geocentric ? rel : rel / Constants.auKm, velocityKmS: relV,
            state: s, distanceKm: distance, distanceAU: distance / Constants.auKm,
            speedKmS: relV.length, nearest: nearest,
            lightTimeToEarthSeconds: (s.heliocentricKm - earthKm).length / Constants.speedOfLightKmPerSecond,
            source: s.source, extrapolated: s.extrapolated)
    }

    /// Outside its listed phases, a vehicle at rest on a surface (a capsule in the ocean after
    /// splashdown: within ``restingAltitudeKm`` of the body's spheroid, moving with it slower than
    /// ``restingSpeedKmS``) is `landed` there, not coasting.
    static func resting(_ s: VehicleState, _ nearest: NearestBody) -> VehiclePhase? {
        guard !s.extrapolated, abs(nearest.altitudeKm) < restingAltitudeKm, nearest.speedKmS < restingSpeedKmS else { return nil }
        return VehiclePhase(name: "landed", kind: .landed, startHours: s.timeHours, endHours: s.timeHours, body: nearest.body)
    }

    /// A capsule floats at sea level; the spheroid is not the geoid (up to 0.1 km off).
    static let restingAltitudeKm = 1.0
    /// The Earth's surface turns at 0.465 km/s at the equator: rest is relative to the body's
    /// centre here, so the bound allows for that.
    static let restingSpeedKmS = 0.5

    /// The body whose centre is nearest: the Sun, the planets and Pluto, the Moon, and the moons
    /// of a planet whose Hill sphere the vehicle is in. Jupiter and Saturn (and their moons)
    /// from the planet's own centre.
    public func nearestBody(_ s: VehicleState, planetsAU: [Vector3]? = nil) -> NearestBody {
        let planets = planetsAU ?? ephemeris.planetPositionsAU(at: s.instant)
        let p = s.heliocentricKm
        var best = (body: BodyID.sun, distance: p.length)
        for b in BodyID.heliocentric + [.moon] {
            let d = (p - planets[b.index] * Constants.auKm).length
            if d < best.distance { best = (b, d) }
        }
        // Moons of the planet the vehicle is near (one run of their theory).
        let planet = best.body == .moon ? BodyID.earth : best.body
        var moons: [(body: BodyID, km: Vector3)] = []
        if planet != .sun, planet != .earth, !ephemeris.catalogue[planet].moons.isEmpty {
            let q = planets[planet.index] * Constants.auKm
            let hill = Self.hillRadiusKm(planet, heliocentricKm: q.length)
            if (p - q).length < hill {
                moons = ephemeris.satellitePositionsKm(of: planet, at: s.instant)
                if let m = ephemeris.nearestMoon(of: planet, to: p, planetBarycenterKm: q, moonsKm: moons), m.distanceKm < best.distance {
                    best = (m.body, m.distanceKm)
                }
            }
        }
        let id = NAIFBody.id(best.body)
        // A giant planet's centre or moon from the moons' positions already at hand; anything
        // else as the ephemeris gives it.
        let body = (moons.isEmpty ? nil : ephemeris.systemMemberState(best.body, of: planet, moonsKm: moons, at: s.instant))
            ?? ephemeris.naifState(id, at: s.instant) ?? (planets[best.body.index] * Constants.auKm, .zero)
        let relative = p - body.positionKm
        return NearestBody(body: best.body, distanceKm: relative.length, altitudeKm: altitudeKm(relative, above: best.body, at: s.instant),
                           speedKmS: (s.velocityKmS - body.velocityKmS).length)
    }

    /// Height above `body`'s reference spheroid of a point `relative` km from its centre
    /// (ecliptic J2000), the spheroid turned by the body's orientation at `t`; above the
    /// catalogue's mean radius for a body without one.
    func altitudeKm(_ relative: Vector3, above body: BodyID, at t: Instant) -> Double {
        guard let shape = BodyShape.of(body) else { return relative.length - ephemeris.catalogue[body].radiusKm }
        let m = ephemeris.orientation(body, at: t).bodyToEcliptic
        return shape.altitudeKm(of: relative, pole: Vector3(m.r0.z, m.r1.z, m.r2.z))
    }

    /// `a·(m / 3M☉)^(1/3)` at the planet's present distance from the Sun.
    static func hillRadiusKm(_ planet: BodyID, heliocentricKm r: Double) -> Double {
        r * pow(GravityConstants.gm(planet) / (3 * GravityConstants.sunGM), 1.0 / 3)
    }
}
