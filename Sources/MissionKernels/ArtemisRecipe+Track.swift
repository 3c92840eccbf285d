import Astrodynamics
import Ephemeris
import Missions

extension ArtemisRecipe {
    /// Horizons' positions of Orion and the velocities the two-point boundary problems between
    /// neighbouring samples give them; the samples in a listed burn or at a seam between the
    /// source's trajectory solutions are left out.
    struct Track {
        let file: String
        private(set) var positionsKm: [Vector3]
        private(set) var seconds: [Double]
        /// The listed powered phases inside the data, TDB seconds.
        let burns: [ClosedRange<Double>]
        let model: GravityModel
        let dop = DormandPrince853()
        /// One interval's boundary solution: the velocities at its start and its end.
        private(set) var arcs: [(start: Vector3, end: Vector3)] = []

        /// Largest velocity kink (km/s² over the two half-intervals about a sample) the blend may
        /// spread at a sample no listed burn explains: more is a seam. The blend's acceleration
        /// peaks at about twice this (the mission walk measured 0.6 mm/s² with it), below
        /// the 1 mm/s² the walk allows outside listed burns.
        static let seamLimitKmS2 = 0.3e-6
        /// The boundary problem's finite-difference steps (km/s) and miss tolerance (km).
        static let boundaryStepKmS = 1e-7, boundaryToleranceKm = 1e-6

        init(file: String, positionsKm: [Vector3], seconds: [Double], burns: [ClosedRange<Double>], model: GravityModel) {
            self.file = file
            self.positionsKm = positionsKm
            self.seconds = seconds
            self.burns = burns
            self.model = model
        }

        /// Whether the interval from sample i to i + 1 holds a burn.
        func holdsBurn(_ i: Int) -> Bool { burns.contains { $0.lowerBound >= seconds[i] && $0.upperBound <= seconds[i + 1] } }

        /// Leaves out the samples taken while the engine fired (trans-lunar injection): the
        /// interval that then holds the whole burn is flown as coasts either side of it.
        mutating func leaveOutBurns(_ provenance: inout SourceProvenance) {
            for burn in burns {
                while let k = seconds.firstIndex(where: { burn.contains($0) }) {
                    provenance.exclude(seconds[k], "in powered flight (a listed burn from \(TimeScale.instant(tdbSecondsPastJ2000: burn.lowerBound).iso8601) to \(TimeScale.instant(tdbSecondsPastJ2000: burn.upperBound).iso8601))")
                    positionsKm.remove(at: k)
                    seconds.remove(at: k)
                }
            }
        }

        /// The two-point boundary problem from sample i to sample j: the velocities at both ends
        /// of the arc joining their positions (differential correction from the two-body arc).
        func boundary(_ i: Int, _ j: Int) throws -> (start: Vector3, end: Vector3) {
            let p = positionsKm, t = seconds
            let dt = t[j] - t[i]
            guard let guess = KeplerArc.lambert(mu: GravityConstants.earthGM, from: p[i], to: p[j], seconds: dt, longWay: false) else {
                throw RecipeError(description: "\(file): no two-body arc from \(TimeScale.instant(tdbSecondsPastJ2000: t[i]).iso8601) to the next sample")
            }
            let step = Self.boundaryStepKmS, tolerance = Self.boundaryToleranceKm
            let v = try Shooting.solve([guess.v1.x, guess.v1.y, guess.v1.z], steps: [step, step, step], tolerance: [tolerance, tolerance, tolerance]) { x in
                let end = try dop.propagate(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: Vector3(x[0], x[1], x[2])), to: t[j], model: model).end
                let miss = end.positionKm - p[j]
                return [miss.x, miss.y, miss.z]
            }.x
            let v0 = Vector3(v[0], v[1], v[2])
            return (v0, try dop.propagate(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: v0), to: t[j], model: model).end.velocityKmS)
        }

        /// The velocity kink at sample i, km/s² over the two half-intervals meeting there.
        func kink(_ i: Int) -> Double {
            (arcs[i - 1].end - arcs[i].start).length / ((seconds[i + 1] - seconds[i - 1]) / 2)
        }

        /// Solves every interval's boundary problem, then leaves out the seams: the file merges
        /// several trajectory solutions, and where one hands over to the next the positions jump
        /// (by up to 165 km within a few samples) where no burn was made. A sample whose two
        /// intervals meet with a kink over ``seamLimitKmS2`` that no listed burn explains
        /// (`powered`) is left out, the worst first, until none is left: the jump is spread over
        /// the samples' wider spacing. Returns the samples left out (TDB seconds).
        mutating func leaveOutSeams(powered: (Double) -> Bool, provenance: inout SourceProvenance) throws -> Set<Double> {
            arcs = try (0..<(positionsKm.count - 1)).map { try boundary($0, $0 + 1) }
            var leftOut: Set<Double> = []
            while true {
                var worst: (index: Int, accel: Double)?
                for i in 1..<(positionsKm.count - 1) where !powered(seconds[i]) && !holdsBurn(i - 1) && !holdsBurn(i) {
                    let accel = kink(i)
                    if accel > Self.seamLimitKmS2, accel > worst?.accel ?? 0 { worst = (i, accel) }
                }
                guard let w = worst else { break }
                provenance.exclude(seconds[w.index], "a seam between trajectory solutions in the source (a velocity kink of \(String(format: "%.2f", (arcs[w.index - 1].end - arcs[w.index].start).length * 1000)) m/s that no listed burn explains)")
                leftOut.insert(seconds[w.index])
                positionsKm.remove(at: w.index)
                seconds.remove(at: w.index)
                arcs.replaceSubrange((w.index - 1)...w.index, with: [try boundary(w.index - 1, w.index)])
            }
            return leftOut
        }

        /// The samples with their velocities: at a node the two intervals' weighted by the other's length,
        /// beside a burn the velocity of the coast on the sample's other side; and the largest
        /// disagreement of two intervals at a node.
        func nodes() -> (samples: [OrbitalState], worstJump: (seconds: Double, kmS: Double)) {
            let p = positionsKm, t = seconds
            var samples: [OrbitalState] = []
            var worstJump = (seconds: 0.0, kmS: 0.0)
            for i in 0..<p.count {
                let v: Vector3
                if i == 0 || (i < p.count - 1 && holdsBurn(i - 1)) { v = arcs[i].start } else if i == p.count - 1 || holdsBurn(i) { v = arcs[i - 1].end } else {
                    // Weighted so that each interval's blend takes the share of the kink its
                    // length can bear: the same acceleration on both sides.
                    let before = t[i] - t[i - 1], after = t[i + 1] - t[i]
                    v = (arcs[i - 1].end * after + arcs[i].start * before) / (before + after)
                    let jump = (arcs[i - 1].end - arcs[i].start).length
                    if jump > worstJump.kmS { worstJump = (t[i], jump) }
                }
                samples.append(OrbitalState(seconds: t[i], positionKm: p[i], velocityKmS: v))
            }
            return (samples, worstJump)
        }
    }

    /// The samples left out at seams (`seams`, TDB seconds, as ``Track/leaveOutSeams(powered:provenance:)``
    /// returns them), restated in the provenance once the path is built: each run of them (no
    /// sample kept between) as a stretch the path blends across, and how near it passes every
    /// sample of the run (rounded up to 0.1 km), so the left-out samples stay checked.
    /// Returns how many stretches there are and the farthest of them, km.
    static func restateSeams(_ seams: Set<Double>, in provenance: inout SourceProvenance, samples: HorizonsVectors, path: HorizonsPath) throws -> (stretches: Int, farthestKm: Double) {
        let seam = Dictionary(uniqueKeysWithValues: provenance.excluded.enumerated()
            .filter { seams.contains($0.element.tdbSeconds) }.map { ($0.element.tdbSeconds, $0.offset) })
        var runs: [[Int]] = [], run: [Int] = []
        for k in samples.seconds.indices {
            if seam[samples.seconds[k]] != nil { run.append(k); continue }
            if !run.isEmpty { runs.append(run); run = [] }
        }
        if !run.isEmpty { runs.append(run) }
        var farthest = 0.0
        for r in runs {
            let km = try r.map { (try path.state(at: samples.seconds[$0]).positionKm - samples.positionsKm[$0]).length }.max() ?? 0
            let bound = (km * 10).rounded(.up) / 10
            farthest = max(farthest, bound)
            let from = TimeScale.instant(tdbSecondsPastJ2000: samples.seconds[r[0]]).iso8601, to = TimeScale.instant(tdbSecondsPastJ2000: samples.seconds[r[r.count - 1]]).iso8601
            for k in r {
                let i = seam[samples.seconds[k]]!, e = provenance.excluded[i]
                provenance.excluded[i] = SourceProvenance.Excluded(tdbSeconds: e.tdbSeconds, utc: e.utc, reason:
                    "inside the stretch blended across \(e.reason) (\(r.count) sample(s), \(from) to \(to)): the path passes within \(String(format: "%.1f", bound)) km of them")
            }
        }
        return (runs.count, farthest)
    }
}
