import Glibc
import Ephemeris

public struct TrajectorySample: Sendable, Hashable {
    /// Hours from launch.
    public let timeHours: Double
    public let position: Vector3
    public let color: RGB

    public init(timeHours: Double, position: Vector3, color: RGB) {
        self.timeHours = timeHours
        self.position = position
        self.color = color
    }
}

/// A vehicle's trajectory line over its span.
public struct Trajectory: Sendable {
    public let missionID: String
    public let vehicleID: String
    public let referenceFrame: ReferenceFrame
    /// `km` or `AU` (the mission's frame), or what the caller's positions are in (`scene`).
    public let unit: String
    public let samples: [TrajectorySample]
}

extension MissionEngine {
    /// Accepted sample counts.
    public static let sampleCountRange = 2...20_000

    /// A count outside ``sampleCountRange`` is refused, naming the range.
    public static func checkSampleCount(_ count: Int) throws(MissionQueryError) {
        guard sampleCountRange.contains(count) else { throw .sampleCountOutOfRange(count: count, accepted: sampleCountRange) }
    }

    /// The span a line covers: the vehicle's start to its end, or for one that flies on to the
    /// end of its data (the line is immutable; telemetry carries the vehicle on from there).
    public func lineSpanHours(_ track: VehicleTrack) -> ClosedRange<Double> {
        track.startHours...(track.endHours ?? track.dataEndHours)
    }

    /// Samples `count` points of a vehicle's line in the mission's frame (geocentric ecliptic
    /// J2000 km, or heliocentric AU). Deterministic: the same kernels, mission data,
    /// ``MissionEngine/engineVersion``, vehicle and count give the same bytes.
    public func sample(_ vehicleID: String, count: Int) throws(MissionQueryError) -> Trajectory {
        try Self.checkSampleCount(count)
        return try sample(try track(vehicleID), count: count)
    }

    /// Share of the samples spread evenly in time; the rest follow the path's turning, so a
    /// flyby or an orbit gets the samples that draw it (49 years of Voyager 2 in 500 samples
    /// would otherwise put one point in each month and cut every flyby).
    static let evenShare = 0.35

    /// The shortest pilot interval the sampler halves (a minute).
    static let refineLimitHours = 1.0 / 60

    public func sample(_ track: VehicleTrack, count: Int) throws(MissionQueryError) -> Trajectory {
        try sample(track, count: count, unit: mission.referenceFrame.unit) { t throws(MissionQueryError) in
            let s = try frameRelativeState(track, atHours: t, velocity: false)
            return mission.referenceFrame == .geocentric ? s.positionKm : s.positionKm / Constants.auKm
        }
    }

    /// The line's times (``sampleTimes(_:count:)``) with each point placed by `position` (hours
    /// from launch → coordinates in `unit`): the mission's frame, or a drawing's.
    public func sample(_ track: VehicleTrack, count: Int, unit: String,
                       position: (Double) throws(MissionQueryError) -> Vector3) throws(MissionQueryError) -> Trajectory {
        let times = try sampleTimes(track, count: count)
        let span = lineSpanHours(track)
        var samples: [TrajectorySample] = []
        samples.reserveCapacity(count)
        for t in times {
            let p = try position(t)
            let f = span.upperBound > span.lowerBound ? (t - span.lowerBound) / (span.upperBound - span.lowerBound) : 0
            samples.append(TrajectorySample(timeHours: t, position: p, color: TrajectoryColor.color(base: track.vehicle.color, fraction: f, flybyFraction: nil)))
        }
        return Trajectory(missionID: mission.id, vehicleID: track.vehicle.id, referenceFrame: mission.referenceFrame, unit: unit, samples: samples)
    }

    /// `count` times over the line's span, first and last on its ends: a pilot pass over the
    /// kernels' velocities measures how fast the path turns (halving the intervals that turn
    /// more than one sample's share), and the times are spread so each interval carries the
    /// same share of (time + turning).
    func sampleTimes(_ track: VehicleTrack, count: Int) throws(MissionQueryError) -> [Double] {
        let span = lineSpanHours(track)
        let (t0, t1) = (span.lowerBound, span.upperBound)
        guard t1 > t0 else { return [Double](repeating: t0, count: count) }
        let pilot = max(64, min(2_048, count))
        let orbits = sampledOrbits(track)
        let bound = orbitSpans(track)
        func direction(_ t: Double) throws(MissionQueryError) -> Vector3 {
            // In orbit about a planet (``orbitSpans(_:)``: Cassini's tour, a Mars orbiter's daily
            // samples), the line follows the planet it circles: its revolutions, which a line
            // cannot draw and drawings leave out, would draw the samples into the refinement.
            if let o = bound.first(where: { $0.hours.contains(t) }), let c = ephemeris.naifState(NAIFBody.id(o.body), at: instant(atHours: t)) {
                let frame = mission.referenceFrame == .geocentric ? ephemeris.naifState(NAIFBody.id(.earth), at: instant(atHours: t))?.velocityKmS ?? .zero : .zero
                return (c.velocityKmS - frame).normalized
            }
            // Turning relative to the frame's centre: the Earth for lunar missions, else the Sun.
            return try frameRelativeState(track, atHours: t).velocityKmS.normalized
        }
        func angle(_ a: Vector3, _ b: Vector3) -> Double { acos(max(-1, min(1, a.dot(b)))) }
        var coarse: [(t: Double, d: Vector3)] = []
        coarse.reserveCapacity(pilot + 1)
        for k in 0...pilot {
            let t = k == pilot ? t1 : t0 + (t1 - t0) * Double(k) / Double(pilot)
            coarse.append((t, try direction(t)))
        }
        // A flyby turns the path within hours, a pilot interval may span weeks: where one turns
        // through more than a turning sample's share, it is halved (down to a minute) so the
        // samples go to the hours that turn, not across the whole interval, where a line drawn
        // through them would cut the magnified planet.
        let coarseTurn = zip(coarse, coarse.dropFirst()).reduce(0) { $0 + angle($1.0.d, $1.1.d) }
        let share = coarseTurn / (Double(count) * (1 - Self.evenShare))
        var evaluations = 0
        let maxEvaluations = 8 * (count + pilot)
        var grid: [Double] = [t0]
        var directions: [Vector3] = [coarse[0].d]
        grid.reserveCapacity(pilot + 1)
        directions.reserveCapacity(pilot + 1)
        func fill(_ a: (t: Double, d: Vector3), _ b: (t: Double, d: Vector3)) throws(MissionQueryError) {
            if share > 0, angle(a.d, b.d) > share, b.t - a.t > Self.refineLimitHours, evaluations < maxEvaluations {
                let m = (t: (a.t + b.t) / 2, d: try direction((a.t + b.t) / 2))
                evaluations += 1
                try fill(a, m)
                try fill(m, b)
            } else {
                grid.append(b.t)
                directions.append(b.d)
            }
        }
        for k in 1..<coarse.count { try fill(coarse[k - 1], coarse[k]) }
        var turning: [Double] = [0]
        for k in 1..<grid.count {
            let c = max(-1, min(1, directions[k - 1].dot(directions[k])))
            turning.append(turning[k - 1] + acos(c))
        }
        let totalTurn = turning[turning.count - 1]
        // Cumulative weight: time share plus turning share.
        var weight: [Double] = []
        weight.reserveCapacity(grid.count)
        for k in 0..<grid.count {
            let timeShare = (grid[k] - t0) / (t1 - t0)
            let turnShare = totalTurn > 0 ? turning[k] / totalTurn : timeShare
            weight.append(Self.evenShare * timeShare + (1 - Self.evenShare) * turnShare)
        }
        var out: [Double] = []
        out.reserveCapacity(count)
        var j = 0
        for k in 0..<count {
            if k == 0 { out.append(t0); continue }
            if k == count - 1 { out.append(t1); continue }
            let target = Double(k) / Double(count - 1) * weight[weight.count - 1]
            while j < weight.count - 2, weight[j + 1] < target { j += 1 }
            let a = weight[j], b = weight[j + 1]
            let f = b > a ? (target - a) / (b - a) : 0
            var t = grid[j] + (grid[j + 1] - grid[j]) * f
            // In a sampled orbit, the nearest sample: a state the kernel holds, not a day integrated.
            if let o = orbits.first(where: { $0.span.contains(t) }) {
                t = mission.hours(at: TimeScale.instant(tdbSecondsPastJ2000: o.path.samples[o.path.nearestSample(to: mission.tdbSeconds(atHours: t))].seconds))
            }
            out.append(t)
        }
        return out
    }

    /// Where the vehicle's path is a sampled orbit (a Mars orbiter's daily samples, integrated
    /// between them about the body): the spans in mission hours and the body circled. A line
    /// through the samples draws chords between days there, not the orbit flown.
    public func sampledOrbitSpans(_ track: VehicleTrack) -> [(span: ClosedRange<Double>, body: BodyID)] {
        sampledOrbits(track).map { ($0.span, $0.path.body) }
    }

    /// The vehicle's sampled orbits (``SampledOrbitPath``) and their spans in mission hours.
    func sampledOrbits(_ track: VehicleTrack) -> [(span: ClosedRange<Double>, path: SampledOrbitPath)] {
        kernels.segments(of: track.vehicle.naifID).compactMap { e in
            guard let path = kernels.path(of: e) as? SampledOrbitPath else { return nil }
            let a = mission.hours(at: TimeScale.instant(tdbSecondsPastJ2000: e.startSeconds))
            let b = mission.hours(at: TimeScale.instant(tdbSecondsPastJ2000: e.endSeconds))
            return (a...b, path)
        }
    }
}
