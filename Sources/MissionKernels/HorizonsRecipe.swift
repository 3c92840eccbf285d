import Ephemeris
import Missions

/// A mission whose trajectory JPL Horizons publishes (Voyager 1 and 2, Cassini, Juno,
/// OSIRIS-REx): the vectors between the first and last samples (``HorizonsPath``), the ascent
/// and escape before the first sample, and — for a mission that ends after the last sample —
/// an integration on to its end.
public struct HorizonsRecipe: MissionRecipe {
    public let missionID: String
    public let vehicleID: String
    /// Files and the sampling they hold (`1-day`, `30-min`): the segments are named by it.
    public let files: [(name: String, sampling: String)]
    public let pad: SurfaceSite

    public init(missionID: String, vehicleID: String, files: [(name: String, sampling: String)], pad: SurfaceSite) {
        self.missionID = missionID
        self.vehicleID = vehicleID
        self.files = files
        self.pad = pad
    }

    public var sources: [String] { files.map(\.name) }

    public func paths(_ context: BuildContext) throws -> [VehiclePath] {
        let eph = context.ephemeris
        let vehicle = try context.vehicle(vehicleID)
        // Samples with the sampling of the file each came from. Where a finer file covers a
        // span, the coarser files' samples inside it are left out: one sampling per stretch.
        var read: [(vectors: HorizonsVectors, sampling: String, step: Double)] = []
        var naif: Int?
        for f in files {
            let v = try HorizonsVectors.read(json: try context.source(f.name), name: f.name, ephemeris: eph)
            naif = naif ?? v.naifID
            let step = v.seconds.count > 1 ? (v.seconds[v.seconds.count - 1] - v.seconds[0]) / Double(v.seconds.count - 1) : 0
            read.append((v, f.sampling, step))
        }
        var labelled: [(state: OrbitalState, sampling: String, step: Double)] = []
        for r in read {
            let finer = read.filter { $0.step < r.step }.map { $0.vectors.seconds[0]...$0.vectors.seconds[$0.vectors.seconds.count - 1] }
            labelled += r.vectors.states.filter { s in !finer.contains { $0.contains(s.seconds) } }.map { ($0, r.sampling, r.step) }
        }
        labelled.sort { ($0.state.seconds, $0.step) < ($1.state.seconds, $1.step) }
        var merged: [(state: OrbitalState, sampling: String)] = []
        for s in labelled {
            if let last = merged.last, s.state.seconds - last.state.seconds < 1 { continue }
            merged.append((s.state, s.sampling))
        }
        let samples = merged.map(\.state)
        let first = samples[0].seconds, last = samples[samples.count - 1].seconds
        // Short burns between samples are impulses at their middle; longer ones span samples
        // and are left to the blend (their phases are listed as powered).
        var burns: [Double] = []
        for p in vehicle.phases where p.kind == .powered {
            let a = context.seconds(hours: p.startHours), b = context.seconds(hours: p.endHours)
            guard a > first, b < last else { continue }
            let inside = samples.filter { $0.seconds > a && $0.seconds < b }
            if inside.isEmpty { burns.append((a + b) / 2) }
        }
        let path = try HorizonsPath(samples: samples, frame: .heliocentric, ephemeris: eph, burns: burns)
        let id = naif ?? vehicle.naifID
        var pieces: [PathPiece] = []

        // Before the data: the pad, the ascent, the escape hyperbola back from the first sample.
        let launch = context.seconds(hours: 0)
        if first > launch + 60 {
            let escape = try EscapeArc(first: samples[0], launchSeconds: launch, ephemeris: eph)
            let injection = escape.injectionSeconds
            pieces.append(PathPiece(
                name: "Ascent and injection (modelled)", notes: [
                    "Launch from \(pad.latitudeDeg) N \(pad.longitudeDeg) E at the published time to the escape hyperbola's lowest point; a powered blend (direction along a great circle, distance smoothstep) between the turning pad and the hyperbola."],
                startSeconds: launch, endSeconds: injection, center: 399, maxStepSeconds: 30,
                state: { t in try PoweredBlend(center: .earth, start: launch, end: injection, ephemeris: eph,
                                               from: { pad.state(at: $0, ephemeris: eph) }, to: { try escape.state(at: $0) }).state(at: t) }))
            pieces.append(PathPiece(
                name: "Escape before JPL Horizons \(id)", notes: ["Integrated back from the first Horizons sample under the Earth's (J2-J4), the Moon's and the Sun's gravity."],
                startSeconds: injection, endSeconds: first, center: 399, maxStepSeconds: 600, state: { try escape.state(at: $0) }))
        }

        // The data, one segment per sampling.
        var start = 0
        while start < merged.count - 1 {
            var end = start
            while end + 1 < merged.count - 1, merged[end + 1].sampling == merged[start].sampling { end += 1 }
            let a = samples[start].seconds, b = samples[end + 1].seconds
            let required = samples[start...(end + 1)].map(\.seconds)
            pieces.append(PathPiece(
                name: "JPL Horizons \(id) \(merged[start].sampling)", notes: [
                    "JPL Horizons state vectors (ICRF, solar-system barycentre) every \(merged[start].sampling), kept exactly; between them forward and backward integrations from the neighbouring samples, blended."],
                startSeconds: a, endSeconds: b, center: 10, requiredSeconds: required, maxStepSeconds: 20 * 86_400, state: { try path.state(at: $0) }))
            start = end + 1
        }

        // After the data, when the mission ends later: integrated on from the last sample.
        if let endHours = context.mission.endHours, context.seconds(hours: endHours) > last + 1 {
            let stop = context.seconds(hours: endHours)
            let tail = try ForwardArc(from: samples[samples.count - 1], to: stop, ephemeris: eph)
            pieces.append(PathPiece(
                name: "Integrated from JPL Horizons \(id)", notes: ["Integrated on from the last Horizons sample to the mission's end under the gravity of the body it is near."],
                startSeconds: last, endSeconds: stop, center: 10, maxStepSeconds: 300, state: { try tail.state(at: $0) }))
        }
        let worst = try path.mismatches().max { $0.km < $1.km }
        var notes = ["Sources: \(files.map(\.name).joined(separator: ", ")) (JPL Horizons, retrieved 2026-01-29)."]
        if let worst {
            notes.append("Largest gap between the forward and backward integrations of one interval: \(Int(worst.km.rounded())) km (about \(worst.center.rawValue), \(TimeScale.instant(tdbSecondsPastJ2000: worst.seconds).iso8601)).")
        }
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes)]
    }
}
