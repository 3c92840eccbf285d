import Astrodynamics
import Ephemeris
import Missions

extension HorizonsRecipe {
    /// An encounter flown as one integrated arc: the hours about a re-anchored planet's closest
    /// approach where the samples, even moved onto DE440's planet, are not a path gravity flies.
    /// Old reconstructions (the Voyagers') were made with the planets' fields and moons of their
    /// day: each 30-minute interval's forward and backward integrations miss by kilometres at
    /// closest approach, which the blend bridges with accelerations of 10-40 mm/s².
    struct EncounterArc {
        let body: BodyID
        /// The closest sample to the planet, TDB seconds.
        let closestSeconds: Double
        /// The arc alone from `arcFrom` to `arcTo`; eased from the data before and onto it after.
        let arcFrom: Double, arcTo: Double
        let easeSeconds: Double
        /// Fit residuals over the samples fitted, km: root mean square and largest.
        let rmsKm: Double, worstKm: Double
        /// Heliocentric states on the arc.
        let state: (Double) throws -> OrbitalState
        var start: Double { arcFrom - easeSeconds }
        var end: Double { arcTo + easeSeconds }
    }

    /// An integration fitted to samples (``fitArc(model:center:reference:fitted:over:)``): its
    /// residuals over them, km, and its heliocentric states.
    struct FittedArc {
        let rmsKm: Double, worstKm: Double
        let state: (Double) throws -> OrbitalState
    }

    /// Half the span flown by the arc alone about closest approach, seconds.
    static let encounterArcHalfSeconds = 3 * 3_600.0
    /// The easing between the data and the arc on either side, seconds.
    static let encounterEaseSeconds = 9 * 3_600.0
    /// An encounter whose samples one integration fits better than this (root mean square, km)
    /// is flown through them as the rest of the data is.
    static let encounterArcMinimumRmsKm = 1.0

    /// The arc for the encounter with `body` whose re-anchored closest approach is near `near`:
    /// the state at the closest sample fitted by least squares (``Shooting/fit``; six unknowns,
    /// the position and velocity) so that the integration forward and back under the planet's
    /// gravity (``HorizonsPath/model(_:frame:ephemeris:)``: its zonal harmonics and moons, the
    /// Sun and planets pulling) passes through every sample within the arc and its easings.
    /// Nil when the samples there are too few.
    func encounterArc(_ body: BodyID, near: Double, samples: [OrbitalState], ephemeris eph: Ephemeris) throws -> EncounterArc? {
        let model = try HorizonsPath.model(body, frame: .heliocentric, ephemeris: eph)
        func center(_ t: Double) -> (positionKm: Vector3, velocityKmS: Vector3) {
            HorizonsPath.centerState(body, model: model, frame: .heliocentric, seconds: t, ephemeris: eph)
        }
        let around = samples.filter { abs($0.seconds - near) < 86_400 }
        func distance(_ s: OrbitalState) -> Double { (s.positionKm - center(s.seconds).positionKm).length }
        guard let k = around.indices.min(by: { distance(around[$0]) < distance(around[$1]) }) else { return nil }
        let closest = around[k]
        // The arc's ends fall halfway between samples: a piece that starts on a sample would
        // hold it twice, as its start and as a required epoch.
        let spacing = k + 1 < around.count ? around[k + 1].seconds - closest.seconds : closest.seconds - around[max(k - 1, 0)].seconds
        let tc = closest.seconds, h = Self.encounterArcHalfSeconds + spacing / 2, e = Self.encounterEaseSeconds
        let fitted = samples.filter { abs($0.seconds - tc) <= h + e }
        guard fitted.count >= 8 else { return nil }
        let arc = try Self.fitArc(model: model, center: center, reference: closest, fitted: fitted, over: (tc - h - e)...(tc + h + e))
        return EncounterArc(body: body, closestSeconds: tc, arcFrom: tc - h, arcTo: tc + h, easeSeconds: e, rmsKm: arc.rmsKm, worstKm: arc.worstKm, state: arc.state)
    }

    /// One integration under `model` (about `center`'s body), fitted by least squares
    /// (``Shooting/fit``; six unknowns, the position and velocity at `reference`) so that it
    /// passes through every sample of `fitted`; it runs forward and back from `reference` over
    /// `span`. Heliocentric states, with the fit's residuals, km.
    static func fitArc(model: GravityModel, center: @escaping (Double) -> (positionKm: Vector3, velocityKmS: Vector3), reference sample: OrbitalState,
                       fitted: [OrbitalState], over span: ClosedRange<Double>) throws -> FittedArc {
        let tc = sample.seconds, c0 = center(tc)
        let reference = OrbitalState(seconds: tc, positionKm: sample.positionKm - c0.positionKm, velocityKmS: sample.velocityKmS - c0.velocityKmS)
        let integrator = DormandPrince853()
        func arcs(_ x: [Double]) throws -> (forward: PropagatedArc, backward: PropagatedArc) {
            let s = OrbitalState(seconds: tc, positionKm: reference.positionKm + Vector3(x[0], x[1], x[2]),
                                 velocityKmS: reference.velocityKmS + Vector3(x[3], x[4], x[5]) * 1e-3)
            return (try integrator.propagate(s, to: span.upperBound, model: model), try integrator.propagate(s, to: span.lowerBound, model: model))
        }
        func local(_ a: (forward: PropagatedArc, backward: PropagatedArc), _ t: Double) throws -> OrbitalState {
            try (t >= tc ? a.forward : a.backward).state(at: t)
        }
        func residuals(_ x: [Double]) throws -> [Double] {
            let a = try arcs(x)
            return try fitted.flatMap { s -> [Double] in
                let d = try local(a, s.seconds).positionKm + center(s.seconds).positionKm - s.positionKm
                return [d.x, d.y, d.z]
            }
        }
        let solved = try Shooting.fit([0, 0, 0, 0, 0, 0], steps: [0.001, 0.001, 0.001, 0.001, 0.001, 0.001],
                                      tolerance: Array(repeating: 1e-3, count: 3 * fitted.count), maxIterations: 20, residuals)
        let best = try arcs(solved.x)
        let misses = stride(from: 0, to: solved.residual.count, by: 3).map { Vector3(solved.residual[$0], solved.residual[$0 + 1], solved.residual[$0 + 2]).length }
        let rms = (misses.reduce(0) { $0 + $1 * $1 } / Double(misses.count)).squareRoot()
        return FittedArc(rmsKm: rms, worstKm: misses.max() ?? 0) { t in
            let s = try local(best, t), c = center(t)
            return OrbitalState(seconds: t, positionKm: s.positionKm + c.positionKm, velocityKmS: s.velocityKmS + c.velocityKmS)
        }
    }

    /// `pieces` with each encounter's stretch replaced: eased from the data onto the arc, the
    /// arc, eased back onto the data (quintic weights, ``BlendedPair``). Returns the pieces,
    /// each arc flown with its easings measured (the larger of the two sides) and those left out.
    static func flyEncounters(_ pieces: [PathPiece], arcs: [EncounterArc], naifID id: Int) throws -> Flown<EncounterArc> {
        try fly(pieces, arcs, span: { ($0.start, $0.end, $0.easeSeconds) }) { arc, data in
            let e = arc.easeSeconds
            let before = try FlybyRecipe.easeDifference(from: arc.start, direction: 1, span: e, { try arc.state($0) }, { try data.state(at: $0) })
            let after = try FlybyRecipe.easeDifference(from: arc.arcTo, direction: 1, span: e, { try arc.state($0) }, { try data.state(at: $0) })
            let easeIn = BlendedPair(start: arc.start, span: e, first: { try data.state(at: $0) }, second: { try arc.state($0) })
            let easeOut = BlendedPair(start: arc.arcTo, span: e, first: { try arc.state($0) }, second: { try data.state(at: $0) })
            let name = arc.body.rawValue.prefix(1).uppercased() + arc.body.rawValue.dropFirst()
            return ([
                arcPiece("\(name) encounter eased in", "JPL Horizons \(id) eased onto the arc fitted to its encounter samples (quintic weight over \(Int(e / 3_600)) h).",
                         arc.start, arc.arcFrom, step: 1_800) { try easeIn.state(at: $0) },
                arcPiece("\(name) encounter (integrated)", "One arc under \(name)'s gravity (zonal harmonics, moons, the Sun and planets pulling) fitted to the Horizons samples about closest approach.",
                         arc.arcFrom, arc.arcTo, step: 1_800, arc.state),
                arcPiece("\(name) encounter eased out", "The arc fitted to the encounter samples eased back onto JPL Horizons \(id) (quintic weight over \(Int(e / 3_600)) h).",
                         arc.arcTo, arc.end, step: 1_800) { try easeOut.state(at: $0) },
            ], (km: max(before.km, after.km), kmS: max(before.kmS, after.kmS)))
        }
    }

    /// `pieces` with each arc's stretch (`span`: its start, end and easing, seconds) replaced by
    /// what `build` makes of it against the path so far: the stretch's pieces and the largest
    /// difference its easings bridge. Returns the pieces, each arc flown with its easings
    /// measured, and the arcs left out (those whose stretch the pieces cannot take).
    static func fly<Arc>(_ pieces: [PathPiece], _ arcs: [Arc], span: (Arc) -> (start: Double, end: Double, ease: Double),
                         build: (Arc, PiecewisePath) throws -> (middle: [PathPiece], difference: (km: Double, kmS: Double))) throws -> Flown<Arc> {
        var result = pieces
        var flown: [(arc: Arc, ease: FlybyRecipe.Ease)] = []
        var leftOut: [Arc] = []
        for arc in arcs.sorted(by: { span($0).start < span($1).start }) {
            let (middle, d) = try build(arc, PiecewisePath(pieces: result))
            let s = span(arc)
            guard let spliced = result.splicing(middle, from: s.start, to: s.end) else { leftOut.append(arc); continue }
            result = spliced
            flown.append((arc, FlybyRecipe.Ease(seconds: s.ease, difference: d, peakKmS2: FlybyRecipe.peak(d, s.ease))))
        }
        return Flown(pieces: result, arcs: flown, leftOut: leftOut)
    }

    /// What ``fly(_:_:span:build:)`` made of the arcs: the pieces, each arc flown with its
    /// easings measured, and the arcs the pieces could not take.
    struct Flown<Arc> {
        let pieces: [PathPiece]
        let arcs: [(arc: Arc, ease: FlybyRecipe.Ease)]
        let leftOut: [Arc]
    }

    /// One piece of an arc's stretch (heliocentric, its states from `state`).
    static func arcPiece(_ name: String, _ note: String, _ from: Double, _ to: Double, step: Double, _ state: @escaping (Double) throws -> OrbitalState) -> PathPiece {
        PathPiece(name: name, notes: [note], startSeconds: from, endSeconds: to, center: 10, maxStepSeconds: step, state: state)
    }

    /// What an encounter arc came to.
    static func note(_ arc: EncounterArc, _ ease: FlybyRecipe.Ease) -> String {
        "Encounter arc: from \(iso(arc.arcFrom)) to \(iso(arc.arcTo)) about \(arc.body)'s closest approach (\(iso(arc.closestSeconds))) the path is one integration under \(arc.body)'s gravity, fitted to the samples within \(Int((arc.closestSeconds - arc.start) / 3_600)) h (residuals \(String(format: "%.2f", arc.rmsKm)) km rms, \(String(format: "%.2f", arc.worstKm)) km at most); eased from and onto the samples over \(Int(arc.easeSeconds / 3_600)) h either side (up to \(String(format: "%.2f", ease.difference.km)) km and \(String(format: "%.2f", ease.difference.kmS * 1000)) m/s apart; at most \(String(format: "%.2f", ease.peakKmS2 * 1e6)) mm/s² extra). The samples in between are left out: the Horizons reconstruction there is not a path this gravity flies."
    }
}
