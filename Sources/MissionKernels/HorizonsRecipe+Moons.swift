import Astrodynamics
import Ephemeris
import Missions

extension HorizonsRecipe {
    /// The moons moved where the samples say they were (``MoonEncounterFit``): every close
    /// approach to a giant planet's moon in an interval clear of burns, in time order (the
    /// strongest pull first within an interval), each fitted with the moons already moved.
    func fitMoons(_ track: Track, burns: [Double], bridgeWindows: [BridgeWindow], powered: PoweredPhases, _ context: BuildContext,
                  notes: inout [String]) throws -> [MoonEncounterFit] {
        let eph = context.ephemeris, samples = track.states
        func clear(_ i: Int) -> Bool {
            let span = samples[i].seconds...samples[i + 1].seconds
            return Self.bridge(i, samples, bridgeWindows) == nil && powered.holding(span.lowerBound) == nil && powered.holding(span.upperBound) == nil
                && !burns.contains { span.contains($0) }
        }
        let scan = try HorizonsPath(samples: samples, frame: .heliocentric, ephemeris: eph, burns: burns)
        let gaps = try scan.mismatches()
        let found = try MoonEncounterFit.approaches(scan, gaps: gaps, examine: clear)
        // Within a day, the strongest pull first: a weak moon fitted before would take the gap
        // a strong one makes.
        let approaches = found.sorted { a, b in
            let day = { (s: Double) in (s / 86_400).rounded(.down) }
            if day(a.seconds) != day(b.seconds) { return a.seconds < b.seconds }
            return GravityConstants.gm(a.moon) / (a.distanceKm * a.distanceKm) > GravityConstants.gm(b.moon) / (b.distanceKm * b.distanceKm)
        }
        var fits: [MoonEncounterFit] = []
        for a in approaches {
            let w = MoonEncounterFit.windowSeconds
            guard !fits.contains(where: { $0.anchor.body == a.moon && abs($0.anchor.epochSeconds - a.seconds) < w }) else { continue }
            let near = (0..<(samples.count - 1)).filter { samples[$0 + 1].seconds > a.seconds - w && samples[$0].seconds < a.seconds + w }
            guard !near.isEmpty, near.allSatisfy(clear) else { continue }
            let source = "\(missionID): fitted to JPL Horizons samples about the \(Self.iso(a.seconds)) approach"
            switch try MoonEncounterFit.fit(a, intervals: near.map { (samples[$0], samples[$0 + 1]) }, fitted: fits.map(\.anchor),
                                            ephemeris: eph, source: source) {
            case let .moved(f):
                fits.append(f)
                notes.append("\(a.moon.rawValue.capitalized) moved \(Int(f.anchor.offsetKm.length.rounded())) km from its theory about \(Self.iso(f.closestSeconds)), where the samples either side put it (they disagreed with gravity by \(Int(f.rmsBeforeKm.rounded())) km rms, now \(Int(f.rmsAfterKm.rounded()))): closest approach \(Int(f.closestAfterKm.rounded())) km from its centre (the theory's: \(Int(f.closestBeforeKm.rounded())) km).")
            case let .kept(reason):
                notes.append("\(a.moon.rawValue.capitalized) kept on its theory at the \(Self.iso(a.seconds)) approach (\(Int(a.distanceKm.rounded())) km from its centre): \(reason).")
            }
        }
        return fits
    }

    /// The moved moons as segments (about their planet's barycentre, as NAIF's satellite
    /// kernels give them): one per stretch where anchors move a moon, so the server serves the
    /// moon from the kernel there.
    static func moonPieces(_ fits: [MoonEncounterFit], ephemeris eph: Ephemeris, naifID id: Int) -> [(naifID: Int, piece: PathPiece)] {
        var out: [(naifID: Int, piece: PathPiece)] = []
        for moon in SatelliteKernels.replaceable {
            let merged = KernelBodies.merge(fits.filter { $0.anchor.body == moon }.map(\.anchor.spanSeconds))
            guard let planet = moon.parent, let center = NAIFBody.planetaryKernelID(planet) else { continue }
            let naif = NAIFBody.id(moon)
            for span in merged {
                let theory = eph.theory(moon, at: TimeScale.instant(tdbSecondsPastJ2000: span.lowerBound)).name
                out.append((naif, PathPiece(
                    name: String("\(moon.rawValue.capitalized) fitted to Horizons \(id)".prefix(40)), notes: [
                        "\(moon.rawValue.capitalized) (\(theory)) moved where JPL Horizons' samples of NAIF \(id) either side of a close flyby put it: the offset holds for two hours either side of the closest approach and fades with a smootherstep beyond."],
                    startSeconds: span.lowerBound, endSeconds: span.upperBound, center: center, maxStepSeconds: 6 * 3_600,
                    state: { t in
                        // The velocity as the derivative of the positions the segment holds, by
                        // the five-point difference (the Galilean theory's own velocities are
                        // central differences over 2.5 minutes, which a Hermite fit to metres
                        // cannot reconcile with its positions; steps of a minute keep the
                        // theories' centimetre roughness out).
                        func at(_ t: Double) throws -> Vector3 {
                            guard let s = eph.naifState(naif, at: TimeScale.instant(tdbSecondsPastJ2000: t)) else {
                                throw RecipeError(description: "the engine does not place \(moon)")
                            }
                            return s.positionKm
                        }
                        let h = 60.0
                        let rate = (try at(t - 2 * h) - at(t + 2 * h) + (try at(t + h) - at(t - h)) * 8) / (12 * h)
                        return OrbitalState(seconds: t, positionKm: try at(t), velocityKmS: rate)
                    })))
            }
        }
        return out
    }
}
