/// The JSON shape of `missions.json`, field for field. Kept apart from the domain types so the file
/// can grow fields without touching them. Optionals may be missing or `null`; anything else
/// missing, null or of the wrong type stops the load with a ``MissionDataError``. Fields the
/// server does not read (the kernel generator's `build` recipe) are ignored.
struct MissionDTO: Decodable {
    let id: String
    let name: String
    let subtitle: String?
    let launchDate: String
    /// An ISO 8601 UTC date, or `ongoing`.
    let end: String
    let referenceFrame: String
    let kernels: [String]
    let trajectorySummary: String?
    let events: [EventDTO]
    let vehicles: [VehicleDTO]
}

struct EventDTO: Decodable {
    let key: String?
    let date: String
    /// `closest-approach`: the date is a day (the sources give no time); the time is where the
    /// vehicle passes closest to the fact's body within a day of it.
    let timeFrom: String?
    let name: String
    let detail: String?
    let showLabel: Bool?
    let fact: FactDTO?
}

struct FactDTO: Decodable {
    let body: String?
    let distanceKm: Double?
    let altitudeKm: Double?
    let speedKmS: Double?
    let source: String
    let note: String?
}

struct VehicleDTO: Decodable {
    let id: String
    let name: String
    let naifId: Int
    let color: [Double]
    let primary: Bool?
    let from: String?
    let to: String?
    let phases: [PhaseDTO]?
    /// `ssb` or a body id.
    let extrapolateAbout: String?
    /// From when the path follows a published plan (ISO 8601 UTC).
    let plannedFrom: String?
}

struct PhaseDTO: Decodable {
    let name: String
    let kind: String
    let from: String
    let to: String
    let body: String?
    let source: String?
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
