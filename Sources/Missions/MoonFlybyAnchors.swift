import Ephemeris

/// The moon anchors (``MoonAnchor``) of the missions' published close moon flybys: for every
/// event whose fact gives a distance or altitude from a moon the engine places by a theory,
/// the smallest offset of the moon that puts the vehicle at the published distance at the
/// event's time, that time its closest approach. Found once per set of kernels, from the
/// vehicles' kernels and the theories alone; the ephemeris built with them serves every answer.
///
/// ```swift
/// let anchors = MoonFlybyAnchors.find(catalogue, kernels: bodies, ephemeris: plain)
/// let served = Ephemeris(catalogue: cat, kernel: de440, satellites: bodies, moonAnchors: anchors)
/// ```
public enum MoonFlybyAnchors {
    public static func find(_ catalogue: MissionCatalogue, kernels: KernelBodies, ephemeris: Ephemeris) -> [MoonAnchor] {
        catalogue.missions.flatMap { m in m.events.compactMap { anchor(m, $0, kernels: kernels, ephemeris: ephemeris) } }
    }

    /// The anchor of one event, nil when it names no theory-placed moon and distance, when a
    /// kernel serves the moon then, or when the kernels do not place the vehicle then.
    static func anchor(_ m: Mission, _ e: MissionEvent, kernels: KernelBodies, ephemeris: Ephemeris) -> MoonAnchor? {
        guard let fact = e.fact, let moon = fact.body, SatelliteKernels.replaceable.contains(moon),
              let vehicle = m.primaryVehicle, vehicle.exists(at: e.timeHours) else { return nil }
        guard fact.distanceKm != nil || fact.altitudeKm != nil else { return nil }
        let hours = e.timeFromClosestApproach ? closestApproach(m, vehicle, moon, near: e.timeHours, kernels: kernels, ephemeris: ephemeris) : e.timeHours
        guard let hours, let rel = relative(m, vehicle, moon, hours: hours, kernels: kernels, ephemeris: ephemeris) else { return nil }
        let seconds = m.tdbSeconds(atHours: hours)
        // An altitude is above the moon's spheroid (as telemetry reports it), whose radius in the
        // vehicle's direction stands in for the radius under its closest approach.
        let t = TimeScale.instant(tdbSecondsPastJ2000: seconds)
        let axes = ephemeris.orientation(moon, at: t).bodyToEcliptic
        let radius = BodyShape.of(moon).map { rel.positionKm.length - $0.altitudeKm(of: rel.positionKm, pole: Vector3(axes.r0.z, axes.r1.z, axes.r2.z)) }
            ?? ephemeris.catalogue[moon].radiusKm
        guard let distance = fact.distanceKm ?? fact.altitudeKm.map({ $0 + radius }) else { return nil }
        if ephemeris.satelliteKernels?.covers(moon, seconds: seconds) == true { return nil }
        let offset = MoonAnchor.offset(relative: rel.positionKm, velocity: rel.velocityKmS, distanceKm: distance)
        let published = fact.distanceKm.map { "\(Int($0)) km from the centre" } ?? "\(Int(fact.altitudeKm ?? 0)) km up"
        return MoonAnchor(body: moon, epochSeconds: seconds, offsetKm: offset,
                          source: "\(m.name)'s \(e.name) \(m.instant(atHours: hours).iso8601), \(published) published")
    }

    /// The vehicle relative to the moon (km, km/s) at mission hours, from the kernels and the
    /// moon's theory; nil where the kernels do not place the vehicle.
    static func relative(_ m: Mission, _ v: Vehicle, _ moon: BodyID, hours: Double, kernels: KernelBodies,
                         ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3)? {
        let t = TimeScale.instant(tdbSecondsPastJ2000: m.tdbSeconds(atHours: hours))
        guard let craft = try? kernels.state(v.naifID, at: t, ephemeris: ephemeris),
              let body = ephemeris.naifState(NAIFBody.id(moon), at: t) else { return nil }
        return (craft.positionKm - body.positionKm, craft.velocityKmS - body.velocityKmS)
    }

    /// The closest approach within a day of `hours` (``ClosestApproachSearch``).
    static func closestApproach(_ m: Mission, _ v: Vehicle, _ moon: BodyID, near hours: Double, kernels: KernelBodies,
                                ephemeris: Ephemeris) -> Double? {
        ClosestApproachSearch.minimum(near: hours) { t in
            relative(m, v, moon, hours: t, kernels: kernels, ephemeris: ephemeris)?.positionKm.length ?? .infinity
        }
    }
}
