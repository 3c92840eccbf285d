import Astrodynamics
import Ephemeris
import Missions

/// Artemis II as flown: JPL Horizons' 5-minute geocentric positions of Orion, given velocities
/// by solving, for every pair of neighbouring samples, the two-point boundary problem under the
/// Earth's (J2–J4), the Moon's and the Sun's gravity (each node's velocity the mean of the two
/// intervals meeting there); the path between samples blended from forward and backward
/// integrations (``HorizonsPath``). Before the data: the ascent, the initial orbit and the
/// apogee-raise burn; after it: the entry flown to the splashdown time.
///
/// The stages: the samples and their velocities (``Track``, `ArtemisRecipe+Track.swift`), the
/// orbits before the data (`ArtemisRecipe+Departure.swift`), the data's segments and the burns
/// bridged between them, and the entry.
public struct ArtemisRecipe: MissionRecipe {
    public let missionID = "artemis2"
    public let vehicleID = "orion"
    public let file = "horizons-artemis2-geocentric-5m.txt"
    /// The initial orbit (after the perigee raise), km above the Earth: 185 × 2,223 (Horizons header).
    public let initialOrbitKm = (perigee: 185.0, apogee: 2_223.0)
    public var entry = EntryModel.orion

    public init() {}

    public var sources: [String] { [file] }

    public func paths(_ c: BuildContext) throws -> [VehiclePath] {
        let eph = c.ephemeris
        let vehicle = try c.vehicle(vehicleID)
        let data = try HorizonsVectors.read(text: try c.source(file), name: file)
        let model = try Self.gravity(eph)
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: data.naifID ?? vehicle.naifID, sources: [file])
        var track = Track(file: file, positionsKm: data.positionsKm, seconds: data.seconds, burns: Self.burns(of: vehicle, c, within: data.seconds), model: model)
        track.leaveOutBurns(&provenance)
        let seams = try track.leaveOutSeams(powered: { s in
            vehicle.phases.contains { $0.kind == .powered && c.seconds(hours: $0.startHours) <= s && c.seconds(hours: $0.endHours) >= s }
        }, provenance: &provenance)
        let (samples, worstJump) = track.nodes()
        let path = try HorizonsPath(samples: samples, frame: .geocentric, ephemeris: eph,
                                    burns: track.burns.map { ($0.lowerBound + $0.upperBound) / 2 })
        let helio = Self.heliocentric(eph)
        let t = track.seconds
        let last = t[t.count - 1]
        var pieces: [PathPiece] = []
        var notes = ["Source: \(file) (JPL Horizons, Orion -1024, positions every 5 minutes, Earth-centred ecliptic J2000, TDB).",
                     "Largest velocity disagreement between neighbouring intervals' boundary solutions: \(Int((worstJump.kmS * 1000).rounded())) m/s at \(TimeScale.instant(tdbSecondsPastJ2000: worstJump.seconds).iso8601) (the burns)."]
        let bridges = try Self.bridges(track.burns, samples: samples, vehicle: vehicle, c, notes: &notes)
        let blended = try Self.restateSeams(seams, in: &provenance, samples: data, path: path)
        notes.append("Seams: \(seams.count) samples in \(blended.stretches) stretches left out where the velocity kinks more than \(String(format: "%.1f", Track.seamLimitKmS2 * 1e6)) mm/s² and no listed burn explains it (the file merges trajectory solutions); the path passes within \(blended.farthestKm) km of each (the provenance file lists them).")
        pieces += try departure(c, vehicle: vehicle, firstSample: samples[0], model: model, notes: &notes)
        pieces += Self.dataPieces(path: path, seconds: t, bridges: bridges, helio: helio)
        // After the data: the entry.
        let splash = c.seconds(hours: c.mission.endHours ?? 0)
        let flight = try entry.fly(from: samples[samples.count - 1], landingSeconds: splash, ephemeris: eph)
        let table = try StateTable(flight.states)
        notes.append("Entry from the last sample (\(TimeScale.instant(tdbSecondsPastJ2000: last).iso8601)): lands at \((flight.landingLatitudeDeg * 100).rounded() / 100)°, \((flight.landingLongitudeDeg * 100).rounded() / 100)° (no published coordinates).")
        pieces.append(PathPiece(name: "Entry and parachute descent (modelled)", notes: ["Three-degree-of-freedom entry (drag and lift in an exponential atmosphere), then parachutes."],
                                startSeconds: last, endSeconds: splash, center: 399, maxStepSeconds: 20, state: { helio(table.state(at: $0)) }))
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes, provenance: provenance)]
    }

    /// The force model of every integration here: the Earth (J2–J4), the Sun, the Moon and the
    /// planets that pull most.
    static func gravity(_ eph: Ephemeris) throws -> GravityModel {
        try GravityModel(ephemeris: eph, center: .earth, perturbers: [.sun, .moon, .venus, .mars, .jupiter, .saturn], zonalDegree: 4)
    }

    /// The listed powered phases strictly inside the data (trans-lunar injection), TDB seconds.
    static func burns(of vehicle: Vehicle, _ c: BuildContext, within t: [Double]) -> [ClosedRange<Double>] {
        vehicle.phases.filter { $0.kind == .powered }
            .map { c.seconds(hours: $0.startHours)...c.seconds(hours: $0.endHours) }
            .filter { $0.lowerBound > t[0] && $0.upperBound < t[t.count - 1] }
    }

    /// A geocentric state made heliocentric (DE440's Earth).
    static func heliocentric(_ eph: Ephemeris) -> (OrbitalState) -> OrbitalState {
        let earth: (Double) -> (positionKm: Vector3, velocityKmS: Vector3) = { s in eph.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: s)) ?? (.zero, .zero) }
        return { g in
            let e = earth(g.seconds)
            return OrbitalState(seconds: g.seconds, positionKm: g.positionKm + e.positionKm, velocityKmS: g.velocityKmS + e.velocityKmS)
        }
    }

    /// Each listed burn between two samples flown over its published window: coasts from the
    /// samples either side, a powered blend between them (no impulse outside the window).
    static func bridges(_ burns: [ClosedRange<Double>], samples: [OrbitalState], vehicle: Vehicle, _ c: BuildContext,
                        notes: inout [String]) throws -> [(index: Int, bridge: BurnBridge, name: String)] {
        var bridges: [(index: Int, bridge: BurnBridge, name: String)] = []
        for burn in burns {
            guard let i = samples.lastIndex(where: { $0.seconds <= burn.lowerBound }), i + 1 < samples.count, samples[i + 1].seconds >= burn.upperBound else { continue }
            let bridge = try BurnBridge(before: samples[i], after: samples[i + 1], window: burn, frame: .geocentric, ephemeris: c.ephemeris)
            let name = vehicle.phases.first { c.seconds(hours: $0.startHours) == burn.lowerBound }?.name ?? "burn"
            bridges.append((i, bridge, name))
            notes.append("\(name): \(Int((bridge.deltaVKmS * 1000).rounded())) m/s between the coasts either side of its window (\(TimeScale.instant(tdbSecondsPastJ2000: burn.lowerBound).iso8601) to \(TimeScale.instant(tdbSecondsPastJ2000: burn.upperBound).iso8601)); the samples during it are left out.")
        }
        return bridges
    }

    /// The data's segments: the samples between burns, and each bridged burn (its coasts and its window apart).
    static func dataPieces(path: HorizonsPath, seconds t: [Double], bridges: [(index: Int, bridge: BurnBridge, name: String)],
                           helio: @escaping (OrbitalState) -> OrbitalState) -> [PathPiece] {
        var pieces: [PathPiece] = []
        var from = 0
        let stops: [(index: Int, bridge: BurnBridge?, name: String)] = bridges.map { ($0.index, $0.bridge, $0.name) } + [(t.count - 1, nil, "")]
        for b in stops {
            if b.index > from {
                let required = Array(t[from...b.index])
                pieces.append(PathPiece(name: "JPL Horizons -1024 5-min", notes: [
                    "Horizons positions kept exactly; velocities from the boundary problems; between samples forward and backward integrations, blended."],
                                        startSeconds: t[from], endSeconds: t[b.index], center: 399, requiredSeconds: required, maxStepSeconds: 3600,
                                        state: { helio(try path.state(at: $0)) }))
            }
            guard let bridge = b.bridge else { break }
            pieces += bridge.pieces(name: b.name, center: 399, maxStepSeconds: 60)
            from = b.index + 1
        }
        return pieces
    }
}
