import Glibc
import Astrodynamics
import Ephemeris
import Missions

extension HorizonsRecipe {
    /// How far either side of an encounter's event its samples are fitted, seconds (clipped at
    /// the nearest listed burns).
    static let encounterWindowSeconds = 3 * 86_400.0

    /// Moves an encounter reconstructed against an older planetary ephemeris onto DE440's
    /// planet: fits the samples of the encounter's days, clear of any listed burn, and corrects
    /// every sample by the fit (``EncounterAnchor``).
    func reanchorEncounter(_ body: BodyID, at: Double, track: inout Track, vehicle: Vehicle, _ context: BuildContext) throws -> EncounterAnchor {
        var window = (at - Self.encounterWindowSeconds)...(at + Self.encounterWindowSeconds)
        for p in vehicle.phases where p.kind == .powered {
            let a = context.seconds(hours: p.startHours), b = context.seconds(hours: p.endHours)
            if b < at, b > window.lowerBound { window = b...window.upperBound }
            if a > at, a < window.upperBound { window = window.lowerBound...a }
        }
        guard let anchor = try EncounterAnchor.fit(body, samples: track.states, within: window, ephemeris: context.ephemeris) else {
            throw RecipeError(description: "\(missionID): the \(body) encounter could not be re-anchored (too few samples within a day of closest approach, or no better fit)")
        }
        track.map(anchor.corrected)
        return anchor
    }

    /// What a re-anchored encounter came to.
    static func note(_ anchor: EncounterAnchor) -> String {
        let o = anchor.offsetKm, body = anchor.body
        let span = (anchor.taperFrom == anchor.fullFrom ? "from the seam at \(iso(anchor.fullFrom))" : "tapering in from \(iso(anchor.taperFrom)) (full at \(iso(anchor.fullFrom)))")
            + (anchor.taperTo == anchor.fullTo ? " to the seam at \(iso(anchor.fullTo))" : " to \(iso(anchor.fullTo)), tapering out to \(iso(anchor.taperTo))")
        return "Re-anchored: the \(body) encounter (closest \(iso(anchor.closestSeconds))) fits DE440's gravity only with \(body) moved by \(Int(o.length.rounded())) km (\(Int(o.x.rounded())), \(Int(o.y.rounded())), \(Int(o.z.rounded())) km ecliptic): the samples follow the planet ephemeris of their reconstruction. Fit residuals \(String(format: "%.1f", anchor.rmsBeforeKm)) km before, \(String(format: "%.2f", anchor.rmsAfterKm)) km after; the samples are moved by the offset \(span)."
    }

    /// How long after the launch the first samples may still be in powered flight, seconds.
    static let launchSpanSeconds = 2 * 86_400.0
    /// A first sample lower than this above the Earth's equatorial radius is still in the
    /// ascent, km.
    static let ascentFloorKm = 50.0
    /// Two samples whose gap is below this need no burn between them, km.
    static let joinedGapKm = 5.0
    /// A burn explains the first interval when it leaves less than this part of its gap.
    static let launchBurnResidual = 0.2

    /// The launch: Horizons' first samples may still be in powered flight (an upper stage or a
    /// kick motor fires after them). Interval by interval from the first sample, a gap one burn
    /// explains becomes an impulsive burn there (its time returned); one it does not (several
    /// burns, a sample below the ground) drops the earlier sample.
    ///
    /// The last such interval usually reaches past the launch phase's end (into the next day's
    /// sample). What one impulse leaves of its gap would then be blended across the whole
    /// interval, hours of unexplained acceleration near the Earth; instead that interval is
    /// returned as a bridge (``BurnBridge``): the burn and its remainder flown as a powered blend
    /// from the interval's first sample to the phase's end, a coast from there.
    func launchBurns(_ track: inout Track, powered: PoweredPhases, _ context: BuildContext, notes: inout [String],
                     provenance: inout SourceProvenance) throws -> (burns: [Double], bridge: BridgeWindow?) {
        let eph = context.ephemeris, launch = context.seconds(hours: 0)
        var burns: [Double] = []
        var last: (interval: Int, phase: VehiclePhase, residualKm: Double)?
        var dropped = 0
        var k = 0
        while k + 2 < track.states.count, track.states[k].seconds < launch + Self.launchSpanSeconds {
            let samples = track.states
            let earthR = eph.naifState(399, at: TimeScale.instant(tdbSecondsPastJ2000: samples[k].seconds)).map { (samples[k].positionKm - $0.positionKm).length } ?? 1e9
            if k == 0, earthR < Constants.earthEquatorialRadiusKm + Self.ascentFloorKm {
                provenance.exclude(samples[0].seconds, "below 50 km: still in the ascent")
                track.remove(at: 0); dropped += 1; continue
            }
            let b = try HorizonsPath.bestBurn(between: samples[k], and: samples[k + 1], frame: .heliocentric, ephemeris: eph)
            if b.gapKm < Self.joinedGapKm { break }
            if b.residualKm < Self.launchBurnResidual * b.gapKm || k > 0 {
                guard let phase = powered.holding(b.seconds) else {
                    throw RecipeError(description: "\(missionID): the data show a burn of \(Int((b.deltaVKmS * 1000).rounded())) m/s at \(Self.iso(b.seconds)) (interval \(k), gap \(Int(b.gapKm.rounded())) km, \(Int(b.residualKm.rounded())) km left), in no powered phase of \(powered.vehicle.id); list it")
                }
                burns.append(b.seconds)
                last = (k, phase, b.residualKm)
                notes.append("Launch: the data need a burn of \(Int((b.deltaVKmS * 1000).rounded())) m/s at \(Self.iso(b.seconds)) (found where one burn best joins two samples; \(Int(b.residualKm.rounded())) km left to the blend).")
                k += 1
                continue
            }
            provenance.exclude(samples[0].seconds, "in powered flight: no single burn joins it to the next sample")
            track.remove(at: 0); dropped += 1
        }
        if dropped > 0 { notes.append("Launch: the first \(dropped) Horizons sample(s) lie in powered flight (below 50 km, or between burns) and are not used.") }
        guard let last else { return (burns, nil) }
        let from = track.states[last.interval].seconds, end = context.seconds(hours: last.phase.endHours)
        guard end > from, end < track.states[last.interval + 1].seconds else { return (burns, nil) }
        burns.removeLast()
        notes.append("Launch: the last burn's interval is flown as a powered blend from its first sample (\(Self.iso(from))) to the end of \(last.phase.name) (\(Self.iso(end))), the \(Int(last.residualKm.rounded())) km one impulse leaves inside it, and as a coast back from the next sample after it.")
        return (burns, (from...end, last.phase.name))
    }

    /// A listed burn after the launch, between the first and last samples: its window and name.
    typealias BridgeWindow = (window: ClosedRange<Double>, name: String)

    /// Listed burns after the launch: the samples taken while the engine fired are left out, and
    /// the interval that then holds the burn is flown as coasts either side of the published
    /// window with a powered blend across it (``BurnBridge``).
    static func leaveOutListedBurns(_ track: inout Track, vehicle: Vehicle, _ context: BuildContext, excluded: inout [(seconds: Double, reason: String)],
                                    provenance: inout SourceProvenance) -> [BridgeWindow] {
        let first = track.states[0].seconds, last = track.states[track.states.count - 1].seconds
        var bridgeWindows: [BridgeWindow] = []
        for p in vehicle.phases where p.kind == .powered {
            let a = context.seconds(hours: p.startHours), b = context.seconds(hours: p.endHours)
            guard a > first, b < last else { continue }
            while let k = track.states.firstIndex(where: { $0.seconds >= a && $0.seconds <= b }) {
                provenance.exclude(track.states[k].seconds, "in powered flight (\(p.name))")
                excluded.append((track.states[k].seconds, "in powered flight (\(p.name))"))
                track.remove(at: k)
            }
            bridgeWindows.append((a...b, p.name))
        }
        return bridgeWindows
    }

    /// The listed burn within the interval from sample i to i + 1, if any.
    static func bridge(_ i: Int, _ samples: [OrbitalState], _ windows: [BridgeWindow]) -> BridgeWindow? {
        windows.first { samples[i].seconds <= $0.window.lowerBound && $0.window.upperBound <= samples[i + 1].seconds }
    }
}
