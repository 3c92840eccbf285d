import Glibc
import Astrodynamics
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
    /// Encounters (a planet, and the mission event that dates it) whose samples are re-anchored
    /// on DE440's planet (``EncounterAnchor``): the Voyagers' giant planets, reconstructed
    /// against older ephemerides, and the Earth flybys the 10-minute files hold.
    public let reanchor: [(body: BodyID, event: String)]

    public init(missionID: String, vehicleID: String, files: [(name: String, sampling: String)], pad: SurfaceSite, reanchor: [(body: BodyID, event: String)] = []) {
        self.missionID = missionID
        self.vehicleID = vehicleID
        self.files = files
        self.pad = pad
        self.reanchor = reanchor
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
        // (samples and merged stay index-aligned below)
        for s in labelled {
            if let last = merged.last, s.state.seconds - last.state.seconds < 1 { continue }
            merged.append((s.state, s.sampling))
        }
        var samples = merged.map(\.state)
        var notes = ["Sources: \(files.map(\.name).joined(separator: ", ")) (JPL Horizons, retrieved 2026-01-29)."]
        var provenance = SourceProvenance(vehicle: vehicle.id, naifID: naif ?? vehicle.naifID, sources: files.map(\.name))
        // Encounters reconstructed against older planetary ephemerides, moved onto DE440's planet.
        for (body, event) in reanchor {
            // The encounter's days, clear of any listed burn.
            let at = try context.event(event)
            var window = (at - 3 * 86_400)...(at + 3 * 86_400)
            for p in vehicle.phases where p.kind == .powered {
                let a = context.seconds(hours: p.startHours), b = context.seconds(hours: p.endHours)
                if b < at, b > window.lowerBound { window = b...window.upperBound }
                if a > at, a < window.upperBound { window = window.lowerBound...a }
            }
            guard let anchor = try EncounterAnchor.fit(body, samples: samples, within: window, ephemeris: eph) else {
                throw RecipeError(description: "\(missionID): the \(body) encounter could not be re-anchored (too few samples within a day of closest approach, or no better fit)")
            }
            samples = samples.map(anchor.corrected)
            for k in merged.indices { merged[k].state = samples[k] }
            provenance.anchors.append(.init(anchor))
            let o = anchor.offsetKm
            func iso(_ t: Double) -> String { TimeScale.instant(tdbSecondsPastJ2000: t).iso8601 }
            let span = (anchor.taperFrom == anchor.fullFrom ? "from the seam at \(iso(anchor.fullFrom))" : "tapering in from \(iso(anchor.taperFrom)) (full at \(iso(anchor.fullFrom)))")
                + (anchor.taperTo == anchor.fullTo ? " to the seam at \(iso(anchor.fullTo))" : " to \(iso(anchor.fullTo)), tapering out to \(iso(anchor.taperTo))")
            notes.append("Re-anchored: the \(body) encounter (closest \(iso(anchor.closestSeconds))) fits DE440's gravity only with \(body) moved by \(Int(o.length.rounded())) km (\(Int(o.x.rounded())), \(Int(o.y.rounded())), \(Int(o.z.rounded())) km ecliptic): the samples follow the planet ephemeris of their reconstruction. Fit residuals \(String(format: "%.1f", anchor.rmsBeforeKm)) km before, \(String(format: "%.2f", anchor.rmsAfterKm)) km after; the samples are moved by the offset \(span).")
        }
        let launch = context.seconds(hours: 0)
        func phaseHolding(_ t: Double) -> VehiclePhase? {
            vehicle.phases.first { $0.kind == .powered && context.seconds(hours: $0.startHours) <= t && context.seconds(hours: $0.endHours) >= t }
        }
        // The launch: Horizons' first samples may still be in powered flight (an upper stage
        // or a kick motor fires after them). Interval by interval from the first sample, a gap
        // one burn explains becomes an impulsive burn there; one it does not (several burns, a
        // sample below the ground) drops the earlier sample.
        var burns: [Double] = []
        var dropped = 0
        var k = 0
        while k + 2 < samples.count, samples[k].seconds < launch + 2 * 86_400 {
            let earthR = eph.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: samples[k].seconds)).map { (samples[k].positionKm - $0.positionKm).length } ?? 1e9
            if k == 0, earthR < 6_378.137 + 50 {
                provenance.exclude(samples[0].seconds, "below 50 km: still in the ascent")
                samples.removeFirst(); merged.removeFirst(); dropped += 1; continue
            }
            let b = try HorizonsPath.bestBurn(between: samples[k], and: samples[k + 1], frame: .heliocentric, ephemeris: eph)
            if b.gapKm < 5 { break }
            if b.residualKm < 0.2 * b.gapKm || k > 0 {
                guard phaseHolding(b.seconds) != nil else {
                    throw RecipeError(description: "\(missionID): the data show a burn of \(Int((b.deltaVKmS * 1000).rounded())) m/s at \(TimeScale.instant(tdbSecondsPastJ2000: b.seconds).iso8601), in no powered phase of \(vehicle.id); list it")
                }
                burns.append(b.seconds)
                notes.append("Launch: the data need a burn of \(Int((b.deltaVKmS * 1000).rounded())) m/s at \(TimeScale.instant(tdbSecondsPastJ2000: b.seconds).iso8601) (found where one burn best joins two samples; \(Int(b.residualKm.rounded())) km left to the blend).")
                k += 1
                continue
            }
            provenance.exclude(samples[0].seconds, "in powered flight: no single burn joins it to the next sample")
            samples.removeFirst(); merged.removeFirst(); dropped += 1
        }
        if dropped > 0 { notes.append("Launch: the first \(dropped) Horizons sample(s) lie in powered flight (below 50 km, or between burns) and are not used.") }
        let first = samples[0].seconds, last = samples[samples.count - 1].seconds
        guard let launchPhase = phaseHolding(first - 1), context.seconds(hours: launchPhase.endHours) >= first - 1 else {
            throw RecipeError(description: "\(missionID): the first usable sample (\(TimeScale.instant(tdbSecondsPastJ2000: first).iso8601)) must end a powered launch phase")
        }
        var excluded: [(seconds: Double, reason: String)] = []
        // Listed burns after the launch: the samples taken while the engine fired are left out,
        // and the interval that then holds the burn is flown as coasts either side of the
        // published window with a powered blend across it (``BurnBridge``).
        var bridgeWindows: [(window: ClosedRange<Double>, name: String)] = []
        for p in vehicle.phases where p.kind == .powered {
            let a = context.seconds(hours: p.startHours), b = context.seconds(hours: p.endHours)
            guard a > first, b < last else { continue }
            while let k = samples.firstIndex(where: { $0.seconds >= a && $0.seconds <= b }) {
                provenance.exclude(samples[k].seconds, "in powered flight (\(p.name))")
                excluded.append((samples[k].seconds, "in powered flight (\(p.name))"))
                samples.remove(at: k)
                merged.remove(at: k)
            }
            bridgeWindows.append((a...b, p.name))
        }
        /// Whether the interval from sample i to i + 1 holds a listed burn.
        func holdsBurn(_ i: Int) -> Bool { bridgeWindows.contains { samples[i].seconds <= $0.window.lowerBound && $0.window.upperBound <= samples[i + 1].seconds } }
        // Every interval whose gap the blend could only bridge with more than 0.05 m/s²
        // (6·gap/Δt²) is a burn or a seam: a burn (one impulse explains it) must be in a listed
        // powered phase; a seam (a jump no burn explains) is spread over more time by leaving
        // out the samples after it until the blend needs less than that.
        let limit = 5e-5 // km/s²
        var scan = try HorizonsPath(samples: samples, frame: .heliocentric, ephemeris: eph, burns: burns)
        var i = 0
        var unlisted: [String] = []
        var gaps = try scan.mismatches()
        while i < gaps.count {
            let g = gaps[i]
            if holdsBurn(i) { i += 1; continue }
            let dt = samples[i + 1].seconds - samples[i].seconds
            // Near a body the force model's own errors (a moon's position, a planet's field) leave
            // gaps of tens to thousands of km that a day spreads gently; only a jump beyond a
            // thousand km that the blend would have to bridge hard is examined.
            // In cruise about the Sun the physics is good to kilometres a day, so a gap over 500 km
            // there that one burn explains is a burn, however gently the blend could bridge it.
            let cruiseBurn = g.center == .sun && g.km > 500 && phaseHolding(samples[i].seconds) == nil
            guard samples[i].seconds > launch + 2 * 86_400, cruiseBurn || (g.km > 1 && 6 * g.km / (dt * dt) > limit) else { i += 1; continue }
            let b = try HorizonsPath.bestBurn(between: samples[i], and: samples[i + 1], frame: .heliocentric, ephemeris: eph)
            if cruiseBurn, b.residualKm >= 0.1 * b.gapKm, 6 * g.km / (dt * dt) <= limit { i += 1; continue }
            // Near a planet a small gap (under 500 km) is the source's own inconsistency more
            // often than a burn: there it is a seam unless a listed burn holds it.
            if b.residualKm < 0.1 * b.gapKm, g.center == .sun || g.km > 500 || phaseHolding(b.seconds) != nil {
                if phaseHolding(b.seconds) == nil {
                    unlisted.append("a burn of \(Int((b.deltaVKmS * 1000).rounded())) m/s at \(TimeScale.instant(tdbSecondsPastJ2000: b.seconds).iso8601) (a \(Int(b.gapKm.rounded())) km gap)")
                }
                i += 1
                continue
            }
            // A seam — two solutions joined in the source, or its own interpolation near a
            // closest approach, inconsistent with gravity by more than one interval can absorb
            // gently: the samples after it are left out until the spread is gentle enough, and
            // the interval is examined again.
            var j = i + 1
            while j + 1 < samples.count, 6 * g.km / pow(samples[j].seconds - samples[i].seconds, 2) > limit { j += 1 }
            guard j > i + 1 else { i += 1; continue }
            let after = TimeScale.instant(tdbSecondsPastJ2000: samples[i].seconds).iso8601
            for k in (i + 1)..<j {
                excluded.append((samples[k].seconds, "the source disagrees with gravity by \(Int(g.km.rounded())) km over the interval from \(after) (a seam between solutions, or the source's interpolation near a closest approach)"))
                provenance.exclude(samples[k].seconds, excluded[excluded.count - 1].reason)
            }
            notes.append("Seam: from \(after) the source's next sample is \(Int(g.km.rounded())) km from where gravity carries the previous one, which no burn explains; the \(j - i - 1) sample(s) after it are left out and the difference is spread to \(TimeScale.instant(tdbSecondsPastJ2000: samples[j].seconds).iso8601).")
            samples.removeSubrange((i + 1)..<j)
            merged.removeSubrange((i + 1)..<j)
            scan = try HorizonsPath(samples: samples, frame: .heliocentric, ephemeris: eph, burns: burns)
            gaps = try scan.mismatches()
        }
        guard unlisted.isEmpty else {
            throw RecipeError(description: "\(missionID): the data show burns in no powered phase of \(vehicle.id); list them:\n  " + unlisted.joined(separator: "\n  "))
        }
        let path = scan
        let id = naif ?? vehicle.naifID
        var pieces: [PathPiece] = []

        // Before the data: the pad, the ascent, the escape hyperbola back from the first sample.
        if first > launch + 60 {
            let escape = try EscapeArc(first: samples[0], launchSeconds: launch, ephemeris: eph)
            let injection = escape.injectionSeconds
            pieces.append(PathPiece(
                name: "Ascent and injection (modelled)", notes: [
                    "Launch from \(pad.latitudeDeg) N \(pad.longitudeDeg) E at the published time to the escape hyperbola's lowest point; a powered blend (direction along a great circle, distance smoothstep) between the turning pad and the hyperbola."],
                startSeconds: launch, endSeconds: injection, center: 399, maxStepSeconds: 30,
                state: { t in try PoweredBlend(center: .earth, start: launch, end: injection, ephemeris: eph,
                                               from: { [terrestrial = context.terrestrial] in pad.state(at: $0, ephemeris: eph, terrestrial: terrestrial) }, to: { try escape.state(at: $0) }).state(at: t) }))
            pieces.append(PathPiece(
                name: "Escape before JPL Horizons \(id)", notes: ["Integrated back from the first Horizons sample under the Earth's (J2-J4), the Moon's and the Sun's gravity."],
                startSeconds: injection, endSeconds: first, center: 399, maxStepSeconds: 600, state: { try escape.state(at: $0) }))
        }

        // The data, one segment per sampling, and one per listed burn between two samples.
        var start = 0
        while start < merged.count - 1 {
            if holdsBurn(start), let w = bridgeWindows.first(where: { samples[start].seconds <= $0.window.lowerBound && $0.window.upperBound <= samples[start + 1].seconds }) {
                let bridge = try BurnBridge(before: samples[start], after: samples[start + 1], window: w.window, frame: .heliocentric, ephemeris: eph)
                notes.append("\(w.name): \(Int((bridge.deltaVKmS * 1000).rounded())) m/s between the coasts either side of its window (\(TimeScale.instant(tdbSecondsPastJ2000: w.window.lowerBound).iso8601) to \(TimeScale.instant(tdbSecondsPastJ2000: w.window.upperBound).iso8601)).")
                pieces.append(PathPiece(
                    name: String("\(w.name) (modelled)".prefix(40)), notes: [
                        "Between the Horizons samples either side: coasts integrated from them to the burn's window, a powered blend across it."],
                    startSeconds: samples[start].seconds, endSeconds: samples[start + 1].seconds, center: 10,
                    requiredSeconds: [samples[start].seconds, samples[start + 1].seconds], maxStepSeconds: 600, state: { try bridge.state(at: $0) }))
                start += 1
                continue
            }
            var end = start
            while end + 1 < merged.count - 1, merged[end + 1].sampling == merged[start].sampling, !holdsBurn(end + 1) { end += 1 }
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
        let mismatches = gaps
        for e in excluded { notes.append("EXCLUDED \(TimeScale.instant(tdbSecondsPastJ2000: e.seconds).iso8601): \(e.reason)") }
        let sorted = mismatches.sorted { $0.km > $1.km }
        if let worst = sorted.first {
            notes.append("Largest gap between the forward and backward integrations of one interval: \(Int(worst.km.rounded())) km (about \(worst.center.rawValue), \(TimeScale.instant(tdbSecondsPastJ2000: worst.seconds).iso8601)).")
        }
        let median = mismatches.map(\.km).sorted()[mismatches.count / 2]
        notes.append("Median gap: \(median < 1 ? "\(Int((median * 1000).rounded())) m" : "\(Int(median.rounded())) km") over \(mismatches.count) intervals.")
        for m in sorted.prefix(12) {
            notes.append("  gap \(Int(m.km.rounded())) km about \(m.center.rawValue) from \(TimeScale.instant(tdbSecondsPastJ2000: m.seconds).iso8601)")
        }
        return [VehiclePath(vehicle: vehicle, pieces: pieces, notes: notes, provenance: provenance)]
    }
}
