import Astrodynamics
import Ephemeris
import Missions

extension HorizonsRecipe {
    /// A first sample this long after the launch leaves room for the ascent and escape before
    /// it, seconds.
    static let shortestPrefixSeconds = 60.0

    /// Before the data: the pad, the ascent, the escape hyperbola back from the first sample.
    func launchPieces(before firstSample: OrbitalState, _ context: BuildContext, naifID id: Int) throws -> [PathPiece] {
        let eph = context.ephemeris, launch = context.seconds(hours: 0), first = firstSample.seconds
        guard first > launch + Self.shortestPrefixSeconds else { return [] }
        let escape = try EscapeArc(first: firstSample, launchSeconds: launch, ephemeris: eph)
        let injection = escape.injectionSeconds
        return [
            PathPiece(
                name: "Ascent and injection (modelled)", notes: [
                    "Launch from \(pad.latitudeDeg) N \(pad.longitudeDeg) E at the published time to the escape hyperbola's lowest point; a powered blend (direction along a great circle, distance smoothstep) between the turning pad and the hyperbola."],
                startSeconds: launch, endSeconds: injection, center: 399, maxStepSeconds: 30,
                state: { t in try PoweredBlend(center: .earth, start: launch, end: injection, ephemeris: eph,
                                               from: { [terrestrial = context.terrestrial] in pad.state(at: $0, ephemeris: eph, terrestrial: terrestrial) }, to: { try escape.state(at: $0) }).state(at: t) }),
            PathPiece(
                name: "Escape before JPL Horizons \(id)", notes: ["Integrated back from the first Horizons sample under the Earth's (J2-J4), the Moon's and the Sun's gravity."],
                startSeconds: injection, endSeconds: first, center: 399, maxStepSeconds: 600, state: { try escape.state(at: $0) }),
        ]
    }

    /// The data, one segment per sampling, and three per listed burn between two samples (``BurnBridge/pieces(name:center:maxStepSeconds:)``).
    static func dataPieces(_ track: Track, path: HorizonsPath, bridgeWindows: [BridgeWindow], naifID id: Int, ephemeris eph: Ephemeris,
                           notes: inout [String]) throws -> [PathPiece] {
        let samples = track.states, sampling = track.samplings
        var pieces: [PathPiece] = []
        var start = 0
        while start < samples.count - 1 {
            if let w = bridge(start, samples, bridgeWindows) {
                let bridge = try BurnBridge(before: samples[start], after: samples[start + 1], window: w.window, frame: .heliocentric, ephemeris: eph)
                notes.append("\(w.name): \(Int((bridge.deltaVKmS * 1000).rounded())) m/s between the coasts either side of its window (\(iso(w.window.lowerBound)) to \(iso(w.window.upperBound))).")
                pieces += bridge.pieces(name: w.name, center: 10, maxStepSeconds: 600)
                start += 1
                continue
            }
            var end = start
            while end + 1 < samples.count - 1, sampling[end + 1] == sampling[start], bridge(end + 1, samples, bridgeWindows) == nil { end += 1 }
            let a = samples[start].seconds, b = samples[end + 1].seconds
            let required = samples[start...(end + 1)].map(\.seconds)
            pieces.append(PathPiece(
                name: "JPL Horizons \(id) \(sampling[start])", notes: [
                    "JPL Horizons state vectors (ICRF, solar-system barycentre) every \(sampling[start]), kept exactly; between them forward and backward integrations from the neighbouring samples, blended."],
                startSeconds: a, endSeconds: b, center: 10, requiredSeconds: required, maxStepSeconds: 20 * 86_400, state: { try path.state(at: $0) }))
            start = end + 1
        }
        return pieces
    }

    /// A mission that ends less than this after the last sample has no integration after it, seconds.
    static let shortestTailSeconds = 1.0

    /// After the data, when the mission ends later: integrated on from the last sample.
    static func tailPieces(after lastSample: OrbitalState, _ context: BuildContext, naifID id: Int) throws -> [PathPiece] {
        let last = lastSample.seconds
        guard let endHours = context.mission.endHours, context.seconds(hours: endHours) > last + Self.shortestTailSeconds else { return [] }
        let stop = context.seconds(hours: endHours)
        let tail = try ForwardArc(from: lastSample, to: stop, ephemeris: context.ephemeris)
        return [PathPiece(
            name: "Integrated from JPL Horizons \(id)", notes: ["Integrated on from the last Horizons sample to the mission's end under the gravity of the body it is near."],
            startSeconds: last, endSeconds: stop, center: 10, maxStepSeconds: 300, state: { try tail.state(at: $0) })]
    }

    /// How many of the largest gaps the notes list.
    static let listedGaps = 12

    /// The samples left out, and how well the physics joins the samples kept.
    static func gapNotes(excluded: [(seconds: Double, reason: String)], gaps mismatches: [(seconds: Double, center: BodyID, km: Double)]) -> [String] {
        var notes: [String] = []
        for e in excluded { notes.append("EXCLUDED \(iso(e.seconds)): \(e.reason)") }
        let sorted = mismatches.sorted { $0.km > $1.km }
        if let worst = sorted.first {
            notes.append("Largest gap between the forward and backward integrations of one interval: \(Int(worst.km.rounded())) km (about \(worst.center.rawValue), \(iso(worst.seconds))).")
        }
        let median = mismatches.map(\.km).sorted()[mismatches.count / 2]
        notes.append("Median gap: \(median < 1 ? "\(Int((median * 1000).rounded())) m" : "\(Int(median.rounded())) km") over \(mismatches.count) intervals.")
        for m in sorted.prefix(listedGaps) {
            notes.append("  gap \(Int(m.km.rounded())) km about \(m.center.rawValue) from \(iso(m.seconds))")
        }
        return notes
    }
}
