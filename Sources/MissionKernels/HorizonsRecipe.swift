import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A mission whose trajectory JPL Horizons publishes (Voyager 1 and 2, Cassini, Juno,
/// OSIRIS-REx): the vectors between the first and last samples (``HorizonsPath``), the ascent
/// and escape before the first sample, and — for a mission that ends after the last sample —
/// an integration on to its end.
///
/// The stages: reading the files and ordering their samples (``Track``), re-anchoring the
/// encounters, the launch's first samples and the listed burns, the seams between solutions
/// (`HorizonsRecipe+Samples.swift`), and the kernel's segments: the launch before the data,
/// the data, the integration after it (`HorizonsRecipe+Pieces.swift`).
public struct HorizonsRecipe: MissionRecipe {
    public let missionID: String
    public let vehicleID: String
    /// Files and the sampling they hold (`1-day`, `30-min`): the segments are named by it.
    public let files: [(name: String, sampling: String)]
    public let pad: SurfaceSite
    /// Encounters (a planet, and the mission event that dates it) whose samples are re-anchored
    /// on DE440's planet (``EncounterAnchor``): the Voyagers' giant planets, reconstructed
    /// against older ephemerides, and the Earth flybys the 10-minute files hold.
    public let reanchor: [(body: BodyID, event: String)]
    /// An orbiter whose orbit is too tight for a kernel to follow (Mars orbiters: 2–4.5 hours):
    /// from the first daily sample after the powered phase `after` (orbit insertion), the
    /// samples about `body` are written as they are, and the server integrates between them
    /// (``SampledOrbitPath``).
    public let orbit: (body: BodyID, after: String)?
    /// Whether the giant planets' moons are moved where the samples say they were
    /// (``MoonEncounterFit``), integrated against there, and written to the kernel.
    public let fitsMoons: Bool
    /// Whether each re-anchored encounter's closest hours are flown as one arc fitted to the
    /// samples (``EncounterArc``) rather than through them.
    public let fitsEncounterArcs: Bool
    /// Burns near a planet (the planet, and the burn's powered phase) whose hours before and
    /// after are flown as one arc each fitted to the samples (``BurnArc``): an orbit insertion,
    /// the end of a launch, a manoeuvre.
    public let burnArcs: [(body: BodyID, phase: String)]

    public init(missionID: String, vehicleID: String, files: [(name: String, sampling: String)], pad: SurfaceSite, reanchor: [(body: BodyID, event: String)] = [],
                orbit: (body: BodyID, after: String)? = nil, fitsMoons: Bool = false, fitsEncounterArcs: Bool = false,
                burnArcs: [(body: BodyID, phase: String)] = []) {
        self.missionID = missionID
        self.vehicleID = vehicleID
        self.files = files
        self.pad = pad
        self.reanchor = reanchor
        self.orbit = orbit
        self.fitsMoons = fitsMoons
        self.fitsEncounterArcs = fitsEncounterArcs
        self.burnArcs = burnArcs
    }

    public var sources: [String] { files.map(\.name) }

    public func paths(_ context: BuildContext) throws -> [VehiclePath] {
        let vehicle = try context.vehicle(vehicleID)
        let (read, naif) = try readSources(context)
        var track = Self.merge(read)
        var notes = ["Sources: \(files.map(\.name).joined(separator: ", ")) (JPL Horizons, retrieved 2026-01-29)."]
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: naif ?? vehicle.naifID, sources: files.map(\.name))
        var anchors: [EncounterAnchor] = []
        for (body, event) in reanchor {
            let anchor = try reanchorEncounter(body, at: try context.event(event), track: &track, vehicle: vehicle, context)
            anchors.append(anchor)
            provenance.anchors.append(.init(anchor))
            notes.append(Self.note(anchor))
        }
        let orbitSamples = try splitOrbit(&track, vehicle: vehicle, context)
        let powered = PoweredPhases(vehicle: vehicle, context: context)
        let (burns, launchBridge) = try launchBurns(&track, powered: powered, context, notes: &notes, provenance: &provenance)
        let first = track.states[0].seconds
        guard let launchPhase = powered.holding(first - 1), context.seconds(hours: launchPhase.endHours) >= first - 1 else {
            throw RecipeError(description: "\(missionID): the first usable sample (\(Self.iso(first))) must end a powered launch phase")
        }
        var excluded: [(seconds: Double, reason: String)] = []
        let bridgeWindows = (launchBridge.map { [$0] } ?? []) + Self.leaveOutListedBurns(&track, vehicle: vehicle, context, excluded: &excluded, provenance: &provenance)
        let moonFits = fitsMoons ? try fitMoons(track, burns: burns, bridgeWindows: bridgeWindows, powered: powered, context, notes: &notes) : []
        let context = moonFits.isEmpty ? context : context.replacing(ephemeris: Ephemeris(
            catalogue: context.ephemeris.catalogue, kernel: context.ephemeris.kernel, moonAnchors: moonFits.map(\.anchor)))
        let (path, gaps) = try spreadSeams(&track, burns: burns, bridgeWindows: bridgeWindows, powered: powered, context,
                                           excluded: &excluded, notes: &notes, provenance: &provenance)
        let id = naif ?? vehicle.naifID
        var pieces = try launchPieces(before: track.states[0], context, naifID: id)
        pieces += try Self.dataPieces(track, path: path, bridgeWindows: bridgeWindows, naifID: id, ephemeris: context.ephemeris, notes: &notes)
        if fitsEncounterArcs {
            let arcs = try anchors.compactMap { try encounterArc($0.body, near: $0.closestSeconds, samples: track.states, ephemeris: context.ephemeris) }
            // Where gravity already flies the samples (within a kilometre), the path stays on them.
            for arc in arcs where arc.rmsKm < Self.encounterArcMinimumRmsKm {
                notes.append("Encounter: about \(arc.body)'s closest approach (\(Self.iso(arc.closestSeconds))) one integration fits the samples within \(String(format: "%.2f", arc.rmsKm)) km rms: the path stays on them.")
            }
            let flown = try Self.flyEncounters(pieces, arcs: arcs.filter { $0.rmsKm >= Self.encounterArcMinimumRmsKm }, naifID: id)
            pieces = flown.pieces
            for arc in flown.leftOut {
                notes.append("Encounter: the arc about \(arc.body)'s closest approach (\(Self.iso(arc.closestSeconds))) is left out: the segments from \(Self.iso(arc.start)) to \(Self.iso(arc.end)) cannot take it, so the path there stays on the samples.")
            }
            for (arc, ease) in flown.arcs {
                notes.append(Self.note(arc, ease))
                Self.excludeInside(arc.start, arc.end, read: read, provenance: &provenance,
                                   "inside the \(arc.body) encounter arc (\(Self.iso(arc.start)) to \(Self.iso(arc.end))): the samples there are flown as one integration fitted to them, within \(String(format: "%.1f", arc.worstKm)) km")
            }
        }
        if !burnArcs.isEmpty {
            let arcs = try burnArcs.compactMap { body, phase -> BurnArc? in
                guard let w = bridgeWindows.first(where: { $0.name == phase }) else {
                    throw RecipeError(description: "\(missionID): no listed burn \"\(phase)\" inside the data for its arcs")
                }
                guard let arc = try burnArc(body, burn: w, samples: track.states, powered: powered, ephemeris: context.ephemeris) else {
                    notes.append("Burn arcs: none about \(phase): too few samples after it for an arc fitted to them, so the burn is flown by its bridge between the samples either side.")
                    return nil
                }
                return arc
            }
            let flown = try Self.flyBurns(pieces, arcs: arcs, naifID: id)
            pieces = flown.pieces
            for arc in flown.leftOut {
                notes.append("Burn arcs: those about \(arc.name) are left out: the segments from \(Self.iso(arc.start)) to \(Self.iso(arc.end)) cannot take them, so the burn is flown by its bridge between the samples either side.")
            }
            for (arc, ease) in flown.arcs {
                notes.append(Self.note(arc, ease))
                let worst = max(arc.approach?.worstKm ?? 0, arc.departure.worstKm)
                Self.excludeInside(arc.start, arc.end, read: read, provenance: &provenance,
                                   "inside the arcs about \(arc.name) (\(Self.iso(arc.start)) to \(Self.iso(arc.end))): the samples there are flown as integrations fitted to them, within \(String(format: "%.1f", worst)) km")
            }
        }
        if let orbitSamples, let orbit {
            pieces.append(Self.orbitPiece(orbitSamples, about: orbit.body, naifID: id))
            notes.append("From \(Self.iso(orbitSamples[0].seconds)): \(orbitSamples.count) samples about \(orbit.body) as they are (segment \"\(SampledOrbitPath.segmentName(naifID: id, about: orbit.body))\"); the server integrates between them about \(orbit.body) with its J2 and the Sun's pull. Alone, this segment interpolates between the samples by cubic Hermite and is right only at them.")
        } else {
            pieces += try Self.tailPieces(after: track.states[track.states.count - 1], context, naifID: id)
        }
        notes += Self.gapNotes(excluded: excluded, gaps: gaps)
        if !moonFits.isEmpty { provenance.moons = moonFits.map(SourceProvenance.Moon.init) }
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes, provenance: provenance,
                            bodyPieces: Self.moonPieces(moonFits, ephemeris: context.ephemeris, naifID: id))]
    }

    /// Every source's samples strictly between `start` and `end` (those the merge dropped for a
    /// finer file's too) listed as left out for `reason`, once each, in time order: a sample left
    /// out before keeps its reason (in powered flight) or has it said after the new one (a seam
    /// the arc now flies through).
    static func excludeInside(_ start: Double, _ end: Double, read: [Source], provenance: inout SourceProvenance, _ reason: String) {
        var before: [Double: String] = [:]
        provenance.excluded.removeAll { e in
            guard e.tdbSeconds > start && e.tdbSeconds < end else { return false }
            before[e.tdbSeconds] = e.reason
            return true
        }
        for t in Set(read.flatMap(\.vectors.seconds).filter { $0 > start && $0 < end }).union(before.keys).sorted() {
            provenance.exclude(t, before[t].map { $0.hasPrefix("in powered flight") ? $0 : "\(reason) (before them: \($0))" } ?? reason)
        }
    }

    /// One of ``files`` read, with the mean spacing of its samples, seconds.
    typealias Source = (vectors: HorizonsVectors, sampling: String, step: Double)

    /// The files read, in order, and the NAIF id the first that states one gives.
    func readSources(_ context: BuildContext) throws -> (read: [Source], naifID: Int?) {
        var read: [Source] = []
        var naif: Int?
        for f in files {
            let v = try HorizonsVectors.read(json: try context.source(f.name), name: f.name, ephemeris: context.ephemeris)
            naif = naif ?? v.naifID
            let step = v.seconds.count > 1 ? (v.seconds[v.seconds.count - 1] - v.seconds[0]) / Double(v.seconds.count - 1) : 0
            read.append((v, f.sampling, step))
        }
        return (read, naif)
    }

    /// The samples in time order, with the sampling of the file each came from, and index-aligned
    /// as samples are left out.
    struct Track {
        private(set) var states: [OrbitalState]
        private(set) var samplings: [String]

        init(states: [OrbitalState], samplings: [String]) {
            self.states = states
            self.samplings = samplings
        }

        mutating func remove(at k: Int) {
            states.remove(at: k)
            samplings.remove(at: k)
        }

        mutating func removeSubrange(_ r: Range<Int>) {
            states.removeSubrange(r)
            samplings.removeSubrange(r)
        }

        /// Every state moved by `correct` (a re-anchored encounter).
        mutating func map(_ correct: (OrbitalState) -> OrbitalState) { states = states.map(correct) }
    }

    /// Two samples closer than this are one, seconds: the finer file's is kept.
    static let sameSampleSeconds = 1.0

    /// The files' samples merged: where a finer file covers a span, the coarser files' samples
    /// inside it are left out (one sampling per stretch), and of samples within a second of each
    /// other the finer file's is kept.
    static func merge(_ read: [Source]) -> Track {
        var labelled: [(state: OrbitalState, sampling: String, step: Double)] = []
        for r in read {
            let finer = read.filter { $0.step < r.step }.map { $0.vectors.seconds[0]...$0.vectors.seconds[$0.vectors.seconds.count - 1] }
            labelled += r.vectors.states.filter { s in !finer.contains { $0.contains(s.seconds) } }.map { ($0, r.sampling, r.step) }
        }
        labelled.sort { ($0.state.seconds, $0.step) < ($1.state.seconds, $1.step) }
        var states: [OrbitalState] = [], samplings: [String] = []
        for s in labelled {
            if let last = states.last, s.state.seconds - last.seconds < sameSampleSeconds { continue }
            states.append(s.state)
            samplings.append(s.sampling)
        }
        return Track(states: states, samplings: samplings)
    }

    /// The vehicle's listed powered phases, in TDB seconds.
    struct PoweredPhases {
        let vehicle: Vehicle
        let context: BuildContext

        /// The powered phase holding `t`, if any.
        func holding(_ t: Double) -> VehiclePhase? {
            vehicle.phases.first { $0.kind == .powered && context.seconds(hours: $0.startHours) <= t && context.seconds(hours: $0.endHours) >= t }
        }
    }

    static func iso(_ t: Double) -> String { TimeScale.instant(tdbSecondsPastJ2000: t).iso8601 }
}
