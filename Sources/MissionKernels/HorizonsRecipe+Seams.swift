import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension HorizonsRecipe {
    /// Largest extra acceleration with which the blend may bridge an interval's gap (6·gap/Δt²),
    /// km/s² (0.05 m/s²): beyond it the gap is a burn or a seam.
    static let seamLimitKmS2 = 5e-5
    /// About the Sun a gap over this that one burn explains is a burn, however gently the blend
    /// could bridge it; near a planet a smaller gap is a seam unless a listed burn holds it, km.
    static let cruiseBurnKm = 500.0
    /// A gap under this is never examined, km (about Mars, ``smallestMarsGapKm``).
    static let smallestGapKm = 1.0
    /// About Mars a gap under this is never examined, km: 10 m, which a 10-minute interval's
    /// blend bridges with 0.2 mm/s² (a kilometre's floor let MAVEN's 0.7 km after orbit insertion
    /// through, bridged with 11 mm/s²).
    static let smallestMarsGapKm = 0.01
    /// One burn explains a gap when it leaves less than this part of it.
    static let burnResidual = 0.1

    /// About Mars the blend bridges a seam with at most this, km/s² (0.7 mm/s²: the walk test
    /// found 1.1 mm/s² beside Odyssey's orbit insertion at 1 mm/s²): there the force
    /// model (DE440's Mars, its J2…J6, the Sun and planets) explains an orbiter's 10-minute
    /// samples to metres wherever they are one solution, so a jump is the source's seam, and it
    /// is spread as gently as the walk test asks. Not inside powered phases (aerobraking's drag
    /// passes are no seams), nor near the giant planets, whose moons' theories and older
    /// reconstructions leave more than a seam.
    static let marsSeamLimitKmS2 = 0.7e-6

    /// A seam about the Sun (two solutions joined in cruise, Voyager 1's 65,090 km of
    /// 1980-12-31) is spread until the blend needs at most this, km/s² (1 mm/s²), by the gap
    /// across it (a stray sample, once left out, leaves none): there no planet's field or moon
    /// leaves the path in doubt, and a week of daily samples takes it.
    static let cruiseSeamLimitKmS2 = 1e-6

    /// A seam this soon after a listed burn's window is the burn's own (about Mars), seconds.
    static let afterBurnSeconds = 3600.0

    /// The extra acceleration with which the blend bridges a gap of `km` over `seconds`, km/s².
    static func spreadAcceleration(_ km: Double, over seconds: Double) -> Double { 6 * km / (seconds * seconds) }

    /// Every interval whose gap the blend could only bridge with more than ``seamLimitKmS2`` is
    /// a burn or a seam: a burn (one impulse explains it) must be in a listed powered phase; a
    /// seam (a jump no burn explains) is spread over more time by leaving out the samples after
    /// it until the blend needs less than that (about the Sun, less than
    /// ``cruiseSeamLimitKmS2``). Returns the path through the samples left and
    /// its intervals' gaps.
    func spreadSeams(_ track: inout Track, burns: [Double], bridgeWindows: [BridgeWindow], powered: PoweredPhases, _ context: BuildContext,
                     excluded: inout [(seconds: Double, reason: String)], notes: inout [String],
                     provenance: inout SourceProvenance) throws -> (path: HorizonsPath, gaps: [(seconds: Double, center: BodyID, km: Double)]) {
        let eph = context.ephemeris, launch = context.seconds(hours: 0)
        var scan = try HorizonsPath(samples: track.states, frame: .heliocentric, ephemeris: eph, burns: burns)
        var i = 0
        var unlisted: [String] = []
        var gaps = try scan.mismatches()
        /// Leaves out the samples `r` for `reason` and scans the path through the rest again.
        func leaveOut(_ r: Range<Int>, _ reason: String) throws {
            for k in r {
                excluded.append((track.states[k].seconds, reason))
                provenance.exclude(track.states[k].seconds, reason)
            }
            track.removeSubrange(r)
            scan = try HorizonsPath(samples: track.states, frame: .heliocentric, ephemeris: eph, burns: burns)
            gaps = try scan.mismatches()
        }
        while i < gaps.count {
            let g = gaps[i], samples = track.states
            if Self.bridge(i, samples, bridgeWindows) != nil { i += 1; continue }
            let dt = samples[i + 1].seconds - samples[i].seconds
            let aboutMars = g.center == .mars && powered.holding(samples[i].seconds) == nil && powered.holding(samples[i + 1].seconds) == nil
            let limit = aboutMars ? Self.marsSeamLimitKmS2 : Self.seamLimitKmS2
            // Near a body the force model's own errors (a moon's position, a planet's field) leave
            // gaps of tens to thousands of km that a day spreads gently; only a jump beyond a
            // thousand km that the blend would have to bridge hard is examined.
            // In cruise about the Sun the physics is good to kilometres a day, so a gap over 500 km
            // there that one burn explains is a burn, however gently the blend could bridge it.
            let cruiseBurn = g.center == .sun && g.km > Self.cruiseBurnKm && powered.holding(samples[i].seconds) == nil
            guard samples[i].seconds > launch + Self.launchSpanSeconds, cruiseBurn || (g.km > (aboutMars ? Self.smallestMarsGapKm : Self.smallestGapKm) && Self.spreadAcceleration(g.km, over: dt) > limit) else { i += 1; continue }
            let b = try HorizonsPath.bestBurn(between: samples[i], and: samples[i + 1], frame: .heliocentric, ephemeris: eph)
            if cruiseBurn, b.residualKm >= Self.burnResidual * b.gapKm, Self.spreadAcceleration(g.km, over: dt) <= limit { i += 1; continue }
            // Near a planet a small gap (under 500 km) is the source's own inconsistency more
            // often than a burn: there it is a seam unless a listed burn holds it.
            if b.residualKm < Self.burnResidual * b.gapKm, g.center == .sun || g.km > Self.cruiseBurnKm || powered.holding(b.seconds) != nil {
                if powered.holding(b.seconds) == nil {
                    unlisted.append("a burn of \(Int((b.deltaVKmS * 1000).rounded())) m/s at \(Self.iso(b.seconds)) (a \(Int(b.gapKm.rounded())) km gap)")
                }
                i += 1
                continue
            }
            // A seam about Mars within an hour of a listed burn's end is the burn's reconstruction
            // meeting the next orbit solution: the samples between the burn and the seam are
            // left out, and the burn's bridge absorbs the difference inside its powered window.
            if aboutMars,
               let w = bridgeWindows.first(where: { $0.window.upperBound <= samples[i].seconds && samples[i].seconds - $0.window.upperBound <= Self.afterBurnSeconds }),
               let k = samples.lastIndex(where: { $0.seconds < w.window.lowerBound }), k + 1 <= i {
                notes.append("Seam: \(i - k) sample(s) after \(w.name) disagree with the next by \(Int(g.km.rounded())) km, which no burn explains; they are left out, and the burn's bridge runs to \(Self.iso(samples[i + 1].seconds)).")
                try leaveOut((k + 1)..<(i + 1), "after \(w.name): the source's samples up to \(Self.iso(samples[i].seconds)) disagree with the next by \(Int(g.km.rounded())) km (the burn's reconstruction meeting the next solution); the burn's bridge takes the difference")
                i = k
                continue
            }
            // A seam — two solutions joined in the source, or its own interpolation near a
            // closest approach, inconsistent with gravity by more than one interval can absorb
            // gently: the samples after it are left out until the spread is gentle enough, and
            // the interval is examined again. (`pow` here, as the loop always had it: x·x would
            // be the same formula but not always the same last bit.)
            var j = i + 1
            while j + 1 < samples.count, 6 * g.km / pow(samples[j].seconds - samples[i].seconds, 2) > limit { j += 1 }
            // About the Sun a jump that stays (two solutions, not one stray sample) is spread
            // further, until the interval across it needs less than ``cruiseSeamLimitKmS2`` by
            // its own gap.
            if g.center == .sun {
                while j + 1 < samples.count {
                    let across = try HorizonsPath(samples: [samples[i], samples[j]], frame: .heliocentric, ephemeris: eph).mismatches()[0].km
                    guard 6 * across / pow(samples[j].seconds - samples[i].seconds, 2) > Self.cruiseSeamLimitKmS2 else { break }
                    j += 1
                }
            }
            guard j > i + 1 else { i += 1; continue }
            let after = Self.iso(samples[i].seconds)
            notes.append("Seam: from \(after) the source's next sample is \(Int(g.km.rounded())) km from where gravity carries the previous one, which no burn explains; the \(j - i - 1) sample(s) after it are left out and the difference is spread to \(Self.iso(samples[j].seconds)).")
            try leaveOut((i + 1)..<j, "the source disagrees with gravity by \(Int(g.km.rounded())) km over the interval from \(after) (a seam between solutions, or the source's interpolation near a closest approach)")
        }
        guard unlisted.isEmpty else {
            throw RecipeError(description: "\(missionID): the data show burns in no powered phase of \(powered.vehicle.id); list them:\n  " + unlisted.joined(separator: "\n  "))
        }
        return (scan, gaps)
    }
}
