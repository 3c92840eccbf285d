import Astrodynamics
import Ephemeris
import Missions

extension HorizonsRecipe {
    /// A listed burn near a planet flown with an integration either side: one fitted to the
    /// samples before it (unless powered flight precedes it: a launch), one to those after it,
    /// joined inside the burn's powered phase, where the engine fires. Juno's 10-minute samples
    /// about Jupiter orbit insertion, OSIRIS-REx's after its separation and about its divert
    /// manoeuvre at the sample return are not a path this gravity flies: each interval's
    /// forward and backward integrations miss by up to kilometres, which the blend bridged
    /// with 3–64 mm/s² that gravity does not explain.
    struct BurnArc {
        let body: BodyID
        /// The burn's window, TDB seconds (the powered phase, or the launch's last interval),
        /// and its name.
        let burn: ClosedRange<Double>, name: String
        /// Where the path leaves the data's: the approach arc's start, or, with no approach,
        /// the burn's (halfway to its end where that is a sample, which a piece must not start on).
        let blendFrom: Double
        /// The approach arc alone from `arcFrom` to the burn (eased from the data before it),
        /// the departure arc alone from the burn to `arcTo` (eased onto the data after it).
        let arcFrom: Double, arcTo: Double
        let easeSeconds: Double
        let approach: FittedArc?, departure: FittedArc
        var start: Double { approach == nil ? blendFrom : arcFrom - easeSeconds }
        var end: Double { arcTo + easeSeconds }
    }

    /// Samples closer than this are a finer file's (10- or 30-minute), seconds.
    static let fineSpacingSeconds = 3_600.0

    /// The arcs about the burn `w` at `body`: the departure fitted to the samples within
    /// ``encounterArcHalfSeconds`` and ``encounterEaseSeconds`` after the burn, the approach to
    /// those as long before it where no powered flight is among them (`powered`)
    /// (``fitArc(model:center:reference:fitted:over:)``, each from the sample nearest the burn).
    /// Nil when the departure has too few samples.
    func burnArc(_ body: BodyID, burn w: BridgeWindow, samples: [OrbitalState], powered: PoweredPhases, ephemeris eph: Ephemeris) throws -> BurnArc? {
        let model = try HorizonsPath.model(body, frame: .heliocentric, ephemeris: eph)
        func center(_ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
            HorizonsPath.centerState(body, model: model, frame: .heliocentric, seconds: t, ephemeris: eph)
        }
        guard let k = samples.firstIndex(where: { $0.seconds > w.window.upperBound }) else { return nil }
        // The arcs' ends fall halfway between samples (a piece that starts on a sample would hold
        // it twice, as its start and as a required epoch).
        func halfway(_ t: Double) -> Double {
            guard let j = samples.lastIndex(where: { $0.seconds <= t }), j + 1 < samples.count else { return t }
            return (samples[j].seconds + samples[j + 1].seconds) / 2
        }
        let e = Self.encounterEaseSeconds
        // The departure flies alone for ``encounterArcHalfSeconds``, or to the last interval
        // of the finer samples after the burn where they end sooner (OSIRIS-REx's launch file
        // runs 2 hours past separation): eased onto a day's interval, the arc would part from
        // the data by hundreds of km.
        var j = k
        while j + 2 < samples.count, samples[j + 1].seconds < samples[k].seconds + Self.encounterArcHalfSeconds,
              samples[j + 2].seconds - samples[j + 1].seconds <= Self.fineSpacingSeconds { j += 1 }
        let first = samples[k], arcTo = (samples[j].seconds + samples[j + 1].seconds) / 2
        let after = samples.filter { $0.seconds >= first.seconds && $0.seconds <= arcTo + e }
        guard after.count >= 8 else { return nil }
        let departure = try Self.fitArc(model: model, center: center, reference: first, fitted: after, over: w.window.lowerBound...(arcTo + e))
        var approach: FittedArc?
        var arcFrom = w.window.lowerBound
        if let last = samples.last(where: { $0.seconds < w.window.lowerBound }) {
            let from = halfway(last.seconds - Self.encounterArcHalfSeconds)
            let before = samples.filter { $0.seconds >= from - e && $0.seconds <= last.seconds }
            if before.count >= 8, before.allSatisfy({ powered.holding($0.seconds) == nil }) {
                approach = try Self.fitArc(model: model, center: center, reference: last, fitted: before, over: (from - e)...w.window.upperBound)
                arcFrom = from
            }
        }
        let onSample = samples.contains { abs($0.seconds - w.window.lowerBound) < Self.sameSampleSeconds }
        let blendFrom = approach == nil && onSample ? (w.window.lowerBound + w.window.upperBound) / 2 : w.window.lowerBound
        return BurnArc(body: body, burn: w.window, name: w.name, blendFrom: blendFrom, arcFrom: arcFrom, arcTo: arcTo, easeSeconds: e,
                       approach: approach, departure: departure)
    }

    /// `pieces` with each burn's stretch replaced: eased from the data onto the approach arc
    /// and the approach (where there is one), the burn (the approach, or the data, blended into
    /// the departure over the rest of the powered window, quintic weights), the departure,
    /// eased back onto the data. Returns the pieces, each burn flown with its easings measured
    /// (the larger of the two sides) and those left out.
    static func flyBurns(_ pieces: [PathPiece], arcs: [BurnArc], naifID id: Int) throws -> Flown<BurnArc> {
        try fly(pieces, arcs, span: { ($0.start, $0.end, $0.easeSeconds) }) { arc, data in
            let dataState: (Double) throws -> OrbitalState = { try data.state(at: $0) }
            let e = arc.easeSeconds, b = arc.departure.state
            let name = arc.body.rawValue.prefix(1).uppercased() + arc.body.rawValue.dropFirst()
            let hours = Int(e / 3_600)
            var middle: [PathPiece] = []
            var d = try FlybyRecipe.easeDifference(from: arc.arcTo, direction: 1, span: e, b, dataState)
            let a: (Double) throws -> OrbitalState
            if let approach = arc.approach {
                let before = try FlybyRecipe.easeDifference(from: arc.start, direction: 1, span: e, approach.state, dataState)
                d = (max(d.km, before.km), max(d.kmS, before.kmS))
                let easeIn = BlendedPair(start: arc.start, span: e, first: dataState, second: approach.state)
                a = approach.state
                middle += [
                    arcPiece("\(name) approach eased in", "JPL Horizons \(id) eased onto the arc fitted to its samples before \(arc.name) (quintic weight over \(hours) h).",
                             arc.start, arc.arcFrom, step: 1_800) { try easeIn.state(at: $0) },
                    arcPiece("\(name) approach (integrated)", "One arc under \(name)'s gravity (zonal harmonics, moons, the Sun and planets pulling) fitted to the Horizons samples before \(arc.name).",
                             arc.arcFrom, arc.burn.lowerBound, step: 600, approach.state),
                ]
            } else {
                a = dataState
            }
            let burn = BlendedPair(start: arc.blendFrom, span: arc.burn.upperBound - arc.blendFrom, first: a, second: b)
            let easeOut = BlendedPair(start: arc.arcTo, span: e, first: b, second: dataState)
            middle += [
                arcPiece(arc.name, "\(arc.approach == nil ? "JPL Horizons \(id)" : "The approach arc") blended into the departure arc over the burn (quintic weight).",
                         arc.blendFrom, arc.burn.upperBound, step: 300) { try burn.state(at: $0) },
                arcPiece("\(name) departure (integrated)", "One arc under \(name)'s gravity (zonal harmonics, moons, the Sun and planets pulling) fitted to the Horizons samples after \(arc.name).",
                         arc.burn.upperBound, arc.arcTo, step: 600, b),
                arcPiece("\(name) departure eased out", "The arc fitted to the samples after \(arc.name) eased back onto JPL Horizons \(id) (quintic weight over \(hours) h).",
                         arc.arcTo, arc.end, step: 1_800) { try easeOut.state(at: $0) },
            ]
            return (middle, d)
        }
    }

    /// What a burn's arcs came to.
    static func note(_ arc: BurnArc, _ ease: FlybyRecipe.Ease) -> String {
        func km(_ x: Double) -> String { String(format: "%.2f", x) }
        let approach = arc.approach.map {
            "from \(iso(arc.arcFrom)) to \(iso(arc.burn.lowerBound)) the path is one integration under \(arc.body)'s gravity fitted to the samples within \(Int((arc.burn.lowerBound - arc.start) / 3_600)) h before \(arc.name) (residuals \(km($0.rmsKm)) km rms, \(km($0.worstKm)) km at most), blended over the burn into another "
        } ?? "the path is blended over \(arc.name), from \(iso(arc.blendFrom)), into one integration under \(arc.body)'s gravity "
        return "Burn arcs: \(approach)fitted to the samples within \(Int((arc.end - arc.burn.upperBound) / 3_600)) h after it (residuals \(km(arc.departure.rmsKm)) km rms, \(km(arc.departure.worstKm)) km at most), flown alone to \(iso(arc.arcTo)); eased from and onto the samples over \(Int(arc.easeSeconds / 3_600)) h (up to \(km(ease.difference.km)) km and \(km(ease.difference.kmS * 1000)) m/s apart; at most \(km(ease.peakKmS2 * 1e6)) mm/s² extra). The samples in between are left out."
    }
}
