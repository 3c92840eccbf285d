/// The bodies of a set of SPK kernels — spacecraft, landers, asteroids, anything with a NAIF id —
/// placed the way SPICE places them: for a body at an instant, the highest-priority segment
/// that covers it (kernels loaded later outrank earlier ones, later segments in a file outrank
/// earlier ones) gives its state relative to the segment's centre, and the centre is placed the
/// same way, down to a body the engine places itself (the Sun, the planets, the Moon, the
/// solar-system barycentre, …: ``NAIFBody/known(_:)``).
///
/// Frames: J2000 (ICRF) and ECLIPJ2000 segments are used directly; segments in a NAIF built-in
/// IAU body-fixed frame (IAU_MARS, 10014) are turned by the engine's own IAU rotation of that
/// body; a segment in any other frame is refused — not used, and listed in ``refusals`` with
/// the reason — so a kernel that also carries, say, a spacecraft-frame offset still serves
/// its other bodies. A segment type the reader does not evaluate makes the whole file an
/// error: its coverage would silently be missing.
///
/// ```swift
/// let bodies = try KernelBodies([voyager, m2020Surface])       // precedence: later wins
/// let s = try bodies.state(-32, at: t, ephemeris: eph)          // heliocentric, ecliptic J2000
/// s.positionKm; s.segment.name                                  // "JPL Horizons -32 1-day"
/// ```
/// A path a higher module computes between the stored states of one kernel segment, where the
/// segment's own interpolation cannot follow the body: a Mars orbiter's daily states, which fix
/// its 2-hour orbit once a day and must be integrated (Mars's J2) in between. States relative to
/// the segment's centre, on ecliptic J2000 axes, km and km/s; nil where it does not answer (the
/// segment's own interpolation is then used).
public protocol SegmentPath: Sendable {
    func state(secondsPastJ2000 seconds: Double, ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3)?
}

public final class KernelBodies: Sendable {
    /// One usable segment, in the order a lookup tries them.
    public struct Entry: Sendable, Hashable {
        /// Index into ``kernels``.
        public let kernel: Int
        /// Index into that kernel's `segments`.
        public let segment: Int
        public let target: Int
        public let center: Int
        public let frame: NAIFBody.Frame
        public let startSeconds: Double
        public let endSeconds: Double
        /// The segment's name (SPK segment identifier, up to 40 characters).
        public let name: String
        /// The file the segment came from.
        public let file: String
        /// "name (file name)", e.g. "JPL Horizons -32 30-min (voyager2.bsp)": what telemetry
        /// reports as a state's `source`, made once here rather than at every state.
        public let label: String

        init(kernel: Int, segment: Int, target: Int, center: Int, frame: NAIFBody.Frame, startSeconds: Double, endSeconds: Double,
             name: String, file: String, fileName: String) {
            self.kernel = kernel
            self.segment = segment
            self.target = target
            self.center = center
            self.frame = frame
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.name = name
            self.file = file
            label = "\(name) (\(fileName))"
        }

        @inline(__always) func covers(_ s: Double) -> Bool { s >= startSeconds && s <= endSeconds }

        /// The key of a segment's computed path.
        static func pathKey(kernel: Int, segment: Int) -> Int { kernel << 32 | segment }
        var pathKey: Int { Self.pathKey(kernel: kernel, segment: segment) }
    }

    /// A segment that is not used, and why.
    public struct Refusal: Sendable, Hashable, CustomStringConvertible {
        public let file: String
        /// 1-based, in file order.
        public let segmentNumber: Int
        public let target: Int
        public let center: Int
        public let reason: String

        public var description: String {
            "\(file): segment \(segmentNumber) (\(target) from \(center)) is not used: \(reason)"
        }
    }

    /// A body's state, heliocentric ecliptic J2000, with the segment that placed the body itself.
    public struct State: Sendable {
        public let positionKm: Vector3
        public let velocityKmS: Vector3
        public let segment: Entry
    }

    /// The SPK types ``SPKKernel`` evaluates, for messages.
    static let typesRead = "1, 2, 3, 8, 9, 12, 13, 18, 19 and 21"

    public let kernels: [SPKKernel]
    public let refusals: [Refusal]
    /// The computed paths, by ``Entry/pathKey``.
    let paths: [Int: any SegmentPath]
    /// What made ``paths`` (kept so a reload can make them again for new kernels).
    public let pathMaker: @Sendable (SPKKernel, Int) -> (any SegmentPath)?
    /// Per target, its usable segments, highest priority first.
    let entries: [Int: [Entry]]
    /// Every NAIF id with at least one usable segment, ascending.
    public let targets: [Int]

    /// `paths`: for a segment (a kernel and its segment index), the path computed between its
    /// states, if a higher module computes one (``SegmentPath``); none by default.
    public init(_ kernels: [SPKKernel], paths: @escaping @Sendable (SPKKernel, Int) -> (any SegmentPath)? = { _, _ in nil }) throws(SPKError) {
        self.kernels = kernels
        pathMaker = paths
        var byTarget: [Int: [Entry]] = [:]
        var refused: [Refusal] = []
        var computed: [Int: any SegmentPath] = [:]
        for (k, kernel) in kernels.enumerated() {
            for (i, s) in kernel.segments.enumerated() {
                guard s.isEvaluated else {
                    throw SPKError(.unsupported, file: kernel.file, "segment \(i + 1) (\(s.target) from \(s.center), \"\(s.name)\") is SPK type \(s.type); the types read are \(Self.typesRead)")
                }
                guard let frame = NAIFBody.frame(s.frame) else {
                    refused.append(Refusal(file: kernel.file, segmentNumber: i + 1, target: s.target, center: s.center,
                                           reason: "it is in \(NAIFBody.frameName(s.frame)), which the server cannot turn (it turns J2000, ECLIPJ2000 and the built-in IAU body-fixed frames of the bodies it knows)"))
                    continue
                }
                guard s.target != s.center else {
                    refused.append(Refusal(file: kernel.file, segmentNumber: i + 1, target: s.target, center: s.center, reason: "a body relative to itself"))
                    continue
                }
                byTarget[s.target, default: []].append(Entry(kernel: k, segment: i, target: s.target, center: s.center, frame: frame,
                                                             startSeconds: s.startSeconds, endSeconds: s.endSeconds, name: s.name, file: kernel.file, fileName: kernel.fileName))
                if let path = paths(kernel, i) { computed[Entry.pathKey(kernel: k, segment: i)] = path }
            }
        }
        // Later kernels, then later segments, first.
        entries = byTarget.mapValues { $0.sorted { ($0.kernel, $0.segment) > ($1.kernel, $1.segment) } }
        targets = byTarget.keys.sorted()
        refusals = refused
        self.paths = computed
    }

    /// The segments that may place `id`, highest priority first.
    public func segments(of id: Int) -> [Entry] { entries[id] ?? [] }

    /// The path computed for a segment (``SegmentPath``), if it has one.
    public func path(of entry: Entry) -> (any SegmentPath)? { paths[entry.pathKey] }

    /// Where `id`'s own segments cover, TDB seconds past J2000, merged into disjoint spans in
    /// time order (whether their centres can be placed there too is another matter).
    public func coverage(of id: Int) -> [ClosedRange<Double>] {
        Self.merge(segments(of: id).map { $0.startSeconds...$0.endSeconds })
    }

    /// Spans merged where they overlap or touch, in time order.
    public static func merge(_ spans: [ClosedRange<Double>]) -> [ClosedRange<Double>] {
        var out: [ClosedRange<Double>] = []
        for s in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, s.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, s.upperBound)
            } else {
                out.append(s)
            }
        }
        return out
    }

    /// How far outside a segment's span an instant may fall and still be placed by it: a
    /// mission event at a segment's first instant, converted from UTC, can land a few
    /// microseconds before it.
    public static let boundaryToleranceSeconds = 1e-3

    /// The segment that places `id` at `seconds`, nil where none covers it (within
    /// ``boundaryToleranceSeconds`` of its ends).
    public func segment(of id: Int, at seconds: Double) -> Entry? {
        guard let list = entries[id] else { return nil }
        for e in list where e.covers(seconds) { return e }
        let tolerance = Self.boundaryToleranceSeconds
        for e in list where e.covers(seconds - tolerance) || e.covers(seconds + tolerance) { return e }
        return nil
    }

    /// Whether one stretch of `id`'s coverage holds all of `from...through` (with the
    /// ``boundaryToleranceSeconds`` a single instant gets at its ends), or the end that falls
    /// outside: nil when covered. How a series is checked before its first byte is sent.
    public func uncoveredEnd(of id: Int, from a: Double, through b: Double) -> Double? {
        let tolerance = Self.boundaryToleranceSeconds
        let spans = coverage(of: id).map { ($0.lowerBound - tolerance)...($0.upperBound + tolerance) }
        if spans.contains(where: { $0.contains(a) && $0.contains(b) }) { return nil }
        return spans.contains { $0.contains(a) } ? b : a
    }

    /// ``segment(of:at:)``, or why there is none: no kernel has `id`, or none covers `seconds`.
    func coveringSegment(of id: Int, at seconds: Double) throws(KernelBodyError) -> Entry {
        if let e = segment(of: id, at: seconds) { return e }
        guard entries[id] != nil else { throw .unknown(id: id) }
        throw .notCovered(id: id, seconds: seconds, spans: coverage(of: id))
    }

    /// The state of `id` at `t`, heliocentric ecliptic J2000 km and km/s. Throws
    /// ``KernelBodyError`` when no segment covers the body (or a centre it hangs from) then.
    public func state(_ id: Int, at t: Instant, ephemeris: Ephemeris) throws(KernelBodyError) -> State {
        let seconds = t.daysSinceJ2000TDB * Constants.secondsPerDay
        let e = try coveringSegment(of: id, at: seconds)
        let local = relativeState(e, seconds: seconds, at: t, ephemeris: ephemeris)
        let center = try place(e.center, at: t, seconds: seconds, ephemeris: ephemeris, depth: 1, for: id)
        return try finite(State(positionKm: center.positionKm + local.positionKm, velocityKmS: center.velocityKmS + local.velocityKmS, segment: e),
                          id: id, seconds: seconds)
    }

    /// `state`, or `.notFinite` naming the segment when a number of it is not finite: never
    /// served (the data check at load makes it impossible for a file that passed it; this is the
    /// guard should arithmetic on its numbers still overflow).
    func finite(_ state: State, id: Int, seconds: Double) throws(KernelBodyError) -> State {
        let p = state.positionKm, v = state.velocityKmS
        guard p.x.isFinite, p.y.isFinite, p.z.isFinite, v.x.isFinite, v.y.isFinite, v.z.isFinite else {
            let e = state.segment
            throw .notFinite(id: id, segment: "segment \(e.segment + 1) of \(kernels[e.kernel].fileName)", seconds: seconds)
        }
        return state
    }

    /// The state of `id` relative to `origin` (a NAIF id) at `seconds` (TDB past J2000),
    /// ecliptic J2000 km and km/s: the segments summed down the chain of centres until it meets
    /// `origin` — no planet evaluated when it does, and the Moon relative to the Earth taken as
    /// the ephemeris holds it — else the difference of the two heliocentric states. What a
    /// trajectory line samples: ``state(_:at:ephemeris:)`` less the frame centre's state
    /// without placing the centre twice, and with no ``Instant`` built unless a body the engine
    /// places needs one. With `velocity: false` only positions are evaluated where the
    /// segments allow (the velocity is then zero): what drawing a line needs.
    public func state(_ id: Int, relativeTo origin: Int, tdbSecondsPastJ2000 seconds: Double, ephemeris: Ephemeris,
                      velocity: Bool = true) throws(KernelBodyError) -> State {
        let first = try coveringSegment(of: id, at: seconds)
        var instant: Instant?
        func at() -> Instant {
            if let instant { return instant }
            let t = TimeScale.instant(tdbSecondsPastJ2000: seconds)
            instant = t
            return t
        }
        func segmentState(_ e: Entry) -> (positionKm: Vector3, velocityKmS: Vector3) {
            velocity ? relativeState(e, seconds: seconds, at: nil, ephemeris: ephemeris)
                : (relativePosition(e, seconds: seconds, ephemeris: ephemeris), .zero)
        }
        var local = segmentState(first)
        var center = first.center, depth = 1
        while center != origin {
            guard depth < 16 else { throw .chainTooLong(id: id) }
            if let e = segment(of: center, at: seconds) {
                let s = segmentState(e)
                local = (local.positionKm + s.positionKm, local.velocityKmS + s.velocityKmS)
                center = e.center
                depth += 1
                continue
            }
            let rest: (positionKm: Vector3, velocityKmS: Vector3)
            let jdTDB = Constants.jdJ2000 + seconds / Constants.secondsPerDay
            if center == NAIFBody.id(.moon), origin == NAIFBody.id(.earth), let k = ephemeris.kernel,
               let kernelSeconds = ephemeris.kernelSeconds(jdTDB: jdTDB, daysSinceJ2000TDB: seconds / Constants.secondsPerDay) {
                if velocity {
                    let moon = k.moonGeocentricState(secondsPastJ2000: kernelSeconds)
                    rest = (moon.positionKm, moon.velocityKmPerDay / Constants.secondsPerDay)
                } else {
                    rest = (k.moonGeocentricPosition(secondsPastJ2000: kernelSeconds), .zero)
                }
            } else {
                let t = at()
                guard let c = ephemeris.naifState(center, at: t) else {
                    throw .centerNotCovered(id: id, center: center, seconds: seconds, spans: coverage(of: center))
                }
                let o = try place(origin, at: t, seconds: seconds, ephemeris: ephemeris, depth: 1, for: id)
                rest = (c.positionKm - o.positionKm, velocity ? c.velocityKmS - o.velocityKmS : .zero)
            }
            local = (local.positionKm + rest.positionKm, local.velocityKmS + rest.velocityKmS)
            break
        }
        return try finite(State(positionKm: local.positionKm, velocityKmS: local.velocityKmS, segment: first), id: id, seconds: seconds)
    }

    /// A centre's heliocentric state: from a kernel segment when one covers it (kernels outrank
    /// the engine, as a loaded kernel outranks an earlier one), else from the engine.
    func place(_ id: Int, at t: Instant, seconds: Double, ephemeris: Ephemeris, depth: Int, for body: Int) throws(KernelBodyError) -> (positionKm: Vector3, velocityKmS: Vector3) {
        guard depth < 16 else { throw .chainTooLong(id: body) }
        if let e = segment(of: id, at: seconds) {
            let local = relativeState(e, seconds: seconds, at: t, ephemeris: ephemeris)
            let c = try place(e.center, at: t, seconds: seconds, ephemeris: ephemeris, depth: depth + 1, for: body)
            return (c.positionKm + local.positionKm, c.velocityKmS + local.velocityKmS)
        }
        if let s = ephemeris.naifState(id, at: t) { return s }
        throw .centerNotCovered(id: body, center: id, seconds: seconds, spans: coverage(of: id))
    }

    /// One segment's position in ecliptic J2000 axes, relative to its centre, km.
    func relativePosition(_ e: Entry, seconds: Double, ephemeris: Ephemeris) -> Vector3 {
        if !paths.isEmpty, let path = paths[e.pathKey], let s = path.state(secondsPastJ2000: seconds, ephemeris: ephemeris) { return s.positionKm }
        let p = kernels[e.kernel].position(segment: e.segment, secondsPastJ2000: seconds)
        switch e.frame {
        case .icrf: return Precession.equatorialToEclipticJ2000 * p
        case .eclipticJ2000: return p
        case let .bodyFixed(body): return Self.bodyToEcliptic(body, seconds: seconds, ephemeris: ephemeris) * p
        }
    }

    /// A body-fixed frame's rotation into ecliptic J2000 at `seconds`: from the IAU model's
    /// days directly, else through an ``Instant``.
    static func bodyToEcliptic(_ body: BodyID, seconds: Double, ephemeris: Ephemeris) -> Matrix3 {
        (ephemeris.iauOrientation(body, daysSinceJ2000TDB: seconds / Constants.secondsPerDay)
            ?? ephemeris.orientation(body, at: TimeScale.instant(tdbSecondsPastJ2000: seconds))).bodyToEcliptic
    }

    /// One segment's state in ecliptic J2000 axes, relative to its centre (`t`, the instant of
    /// `seconds`, only saves building it again for a body-fixed segment).
    func relativeState(_ e: Entry, seconds: Double, at t: Instant?, ephemeris: Ephemeris) -> (positionKm: Vector3, velocityKmS: Vector3) {
        if !paths.isEmpty, let path = paths[e.pathKey], let s = path.state(secondsPastJ2000: seconds, ephemeris: ephemeris) { return s }
        let s = kernels[e.kernel].state(segment: e.segment, secondsPastJ2000: seconds)
        switch e.frame {
        case .icrf:
            let m = Precession.equatorialToEclipticJ2000
            return (m * s.positionKm, m * s.velocityKmPerSecond)
        case .eclipticJ2000:
            return (s.positionKm, s.velocityKmPerSecond)
        case let .bodyFixed(body):
            // v = M·v_bf + Ṁ·r_bf, Ṁ by a central difference over ±10 s (the pole's own motion is
            // slower than the spin by nine orders of magnitude; the difference is exact for a
            // uniform spin to 1e-12).
            let h = 10.0
            let m = t.map { ephemeris.orientation(body, at: $0).bodyToEcliptic } ?? Self.bodyToEcliptic(body, seconds: seconds, ephemeris: ephemeris)
            let before = Self.bodyToEcliptic(body, seconds: seconds - h, ephemeris: ephemeris)
            let after = Self.bodyToEcliptic(body, seconds: seconds + h, ephemeris: ephemeris)
            let rate = (after * s.positionKm - before * s.positionKm) / (2 * h)
            return (m * s.positionKm, m * s.velocityKmPerSecond + rate)
        }
    }
}

/// Why a kernel body could not be placed at an instant. Spans are TDB seconds past J2000.
public enum KernelBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No loaded kernel has a segment for the body.
    case unknown(id: Int)
    /// The body's segments do not cover the instant.
    case notCovered(id: Int, seconds: Double, spans: [ClosedRange<Double>])
    /// The body's segment hangs from a centre nothing places then.
    case centerNotCovered(id: Int, center: Int, seconds: Double, spans: [ClosedRange<Double>])
    /// Segment centres that never reach a body the engine knows.
    case chainTooLong(id: Int)
    /// The body's segment gives a state that is not a number there (a damaged file).
    case notFinite(id: Int, segment: String, seconds: Double)

    public var description: String {
        switch self {
        case let .unknown(id): return "no loaded kernel has a segment for NAIF \(id)"
        case let .notCovered(id, seconds, spans): return "NAIF \(id) is not covered at \(Self.date(seconds)); covered: \(Self.list(spans))"
        case let .centerNotCovered(id, center, seconds, spans):
            return "NAIF \(id) is given relative to \(NAIFBody.name(center)) (\(center)), which nothing places at \(Self.date(seconds)); \(center) is covered: \(Self.list(spans))"
        case let .chainTooLong(id): return "the segment centres of NAIF \(id) never reach a body the server places"
        case let .notFinite(id, segment, seconds): return "NAIF \(id)'s \(segment) gives no finite state at \(Self.date(seconds)): the kernel is damaged there"
        }
    }

    /// UTC ISO 8601 of TDB seconds past J2000, to the millisecond.
    public static func date(_ seconds: Double) -> String {
        TimeScale.instant(tdbSecondsPastJ2000: seconds).iso8601
    }

    public static func list(_ spans: [ClosedRange<Double>]) -> String {
        spans.isEmpty ? "nowhere" : spans.map { "\(date($0.lowerBound))…\(date($0.upperBound))" }.joined(separator: ", ")
    }
}
