/// The JSON shape of `missions.json`, field for field. Kept apart from the domain types so the file
/// can grow fields without touching them (the seeds' MissionJSON / VehicleJSON / WaypointJSON).
/// Optionals may be missing or `null` (the export writes `null` for absent anchors, phases and
/// flyby times; `subtitle`, `detail`, `showLabel`, `primary` default to empty/false); anything
/// else missing, null or of the wrong type stops the load with a ``MissionDataError``.
struct MissionDTO: Decodable {
    let id: String
    let name: String
    let subtitle: String?
    let launchDate: String
    let durationHours: Double
    let flybyTimeHours: Double?
    let referenceFrame: String
    let autoTrajectory: String?
    let events: [EventDTO]
    let vehicles: [VehicleDTO]
    /// Not in the seeds' schema: the real lunar orbit, flyby or landing behind telemetry.
    let physics: PhysicsDTO?
}

struct PhysicsDTO: Decodable {
    let source: String
    let lunarOrbit: LunarOrbitDTO?
    let lunarFlyby: LunarFlybyDTO?
    let lunarLanding: LunarLandingDTO?
}

struct LunarOrbitDTO: Decodable {
    let startTime: Double
    let endTime: Double
    let altitudeKm: Double
}

struct LunarFlybyDTO: Decodable {
    let time: Double
    let altitudeKm: Double
}

struct LunarLandingDTO: Decodable {
    let vehicle: String
    let startTime: Double
    let endTime: Double
    let latitudeDeg: Double
    let longitudeDeg: Double
    let descentMinutes: Double
    let ascentMinutes: Double
}

struct EventDTO: Decodable {
    let t: Double
    let name: String
    let detail: String?
    let showLabel: Bool?
}

struct VehicleDTO: Decodable {
    let id: String
    let name: String
    let color: [Double]
    let primary: Bool?
    let autoTrajectory: String?
    let moonOrbit: MoonOrbitDTO?
    let moonLanding: MoonLandingDTO?
    let moonOrbitReturn: MoonOrbitDTO?
    let waypoints: [WaypointDTO]
}

struct WaypointDTO: Decodable {
    let t: Double
    let x: Double
    let y: Double
    let z: Double
    let anchorMoon: Bool?
    let anchorBody: String?
}

struct MoonOrbitDTO: Decodable {
    let startTime: Double
    let endTime: Double
    let periodHours: Double
    let radiusKm: Double
}

struct MoonLandingDTO: Decodable {
    let startTime: Double
    let endTime: Double
}

/// First pass over a malformed file: only the ids, so a decoding error deep inside mission 7 can
/// be reported as `mission "cassini"` instead of `index 7`.
struct MissionIDProbe: Decodable {
    let id: String?

    init(from decoder: any Decoder) throws {
        let c = try? decoder.container(keyedBy: Key.self)
        id = (try? c?.decodeIfPresent(String.self, forKey: .id)) ?? nil
    }

    enum Key: String, CodingKey { case id }
}
