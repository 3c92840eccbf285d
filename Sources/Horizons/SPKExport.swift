import Glibc
import Ephemeris

/// SPK files of the positions the server serves (NAIF "SPK Required Reading"), for CSPICE,
/// jplephem and Skyfield: each body relative to its centre in the J2000 (ICRF) frame, as
///
/// - type 2 (Chebyshev position series; velocity is their derivative; what jplephem and Skyfield
///   evaluate) or type 3 (series for velocity too), records of equal length per segment, the
///   length halved where a record misses the tolerance and doubled again past the trouble: the
///   default for the planets, the Sun, the Moon and the moons, the barycentres and the small bodies;
/// - type 13 (cubic Hermite between states, window 2, nodes bisected until every interval
///   reproduces the path): the default for spacecraft and Earth satellites, whose burns make
///   their paths only once differentiable.
///
/// Every record or interval is checked against the served state at points between its nodes
/// (``toleranceKm``, ``velocityToleranceKmS``); pieces end where the body's own kernel segments
/// end, so a burn is never smoothed over. Planned in one pass (record lengths and nodes, nothing
/// of the data kept for Chebyshev segments), written in a second as the bytes are asked for
/// (``chunk(after:)``): a large file never exists whole in memory.
public struct SPKExport: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// Type 2 for smooth bodies, type 13 for spacecraft and Earth satellites.
        case automatic
        case type2 = "2"
        case type3 = "3"
        case type13 = "13"
    }

    public struct Request: Sendable {
        public let body: HorizonsBody
        public let center: HorizonsBody
        public init(body: HorizonsBody, center: HorizonsBody) {
            self.body = body
            self.center = center
        }
    }

    /// Largest position error a record or interval may leave between its nodes, km (5 cm).
    public static let toleranceKm = 5e-5
    /// Largest velocity error, km/s (1 mm/s).
    public static let velocityToleranceKmS = 1e-6
    /// The largest file the server writes.
    public static let maxBytes = 48 << 20
    /// The most segments a file may hold.
    public static let maxSegments = 20_000
    /// Coefficients per component of a Chebyshev record (degree 13).
    static let coefficientCount = 14
    /// The longest record tried, s (32 days), and the shortest before giving up (1 s).
    static let longestRecordSeconds = 32 * 86_400.0
    static let shortestRecordSeconds = 1.0

    enum Planned: Sendable {
        case chebyshev(SPKKernelWriter.ChebyshevRecords, function: @Sendable (Double) -> (Vector3, Vector3))
        case hermite(epochs: [Double], states: [(position: Vector3, velocity: Vector3)])

        var words: Int {
            switch self {
            case let .chebyshev(c, _): return c.segmentWords
            case let .hermite(epochs, _): return epochs.count * 7 + (epochs.count - 1) / 100 + 2
            }
        }
    }

    public let layout: SPKFileLayout
    let planned: [Planned]
    /// What each segment is, for tests and the file's comments: target, centre, type, span, records or nodes.
    public let summaries: [SPKFileLayout.Summary]

    public var byteCount: Int { layout.totalBytes }

    // MARK: - Planning

    public static func plan(_ requests: [Request], span: ClosedRange<Double>, kind: Kind, context c: HorizonsContext,
                            interrupt: Interrupt = .never) throws(SPKExportError) -> SPKExport {
        guard span.upperBound > span.lowerBound else { throw SPKExportError(description: "the span is empty") }
        var summaries: [SPKFileLayout.Summary] = []
        var planned: [Planned] = []
        var words = 0
        var comments = [
            "SolarSystem server SPK export: positions as this server serves them (not JPL's files).",
            "Frame J2000 (ICRF). Chebyshev records and Hermite nodes checked to \(toleranceKm * 1e5) cm and \(velocityToleranceKmS * 1e6) mm/s",
            "against the served states between their nodes. Planets, Sun, Moon: \(c.ephemeris.kernel?.label ?? "analytical theories").",
        ]
        for r in requests {
            let hermite: Bool
            switch kind {
            case .automatic: hermite = r.body.kind == .spacecraft || r.body.kind == .earthSatellite
            case .type13: hermite = true
            case .type2, .type3: hermite = false
            }
            let toICRF = Precession.eclipticToEquatorialJ2000
            let body = r.body, center = r.center
            let f: @Sendable (Double) -> (Vector3, Vector3) = { s in
                let a = body.stateKm(s), b = center.stateKm(s)
                return (toICRF * (a.positionKm - b.positionKm), toICRF * (a.velocityKmS - b.velocityKmS))
            }
            let pieces = try Self.pieces(body: body, center: center, span: span, context: c)
            comments.append("\(body.targetName) from \(center.targetName): \(hermite ? "type 13" : kind == .type3 ? "type 3" : "type 2"), \(body.source)")
            for piece in pieces {
                let segments: [Planned]
                if hermite {
                    segments = [try Self.hermite(f, piece: piece, interrupt: interrupt)]
                } else {
                    segments = try Self.chebyshev(f, piece: piece, withVelocity: kind == .type3, interrupt: interrupt)
                }
                for p in segments {
                    words += p.words
                    guard words * 8 <= maxBytes else {
                        throw SPKExportError(description: "the file would pass \(maxBytes >> 20) MiB; ask for a shorter span or fewer bodies")
                    }
                    let (start, end, type): (Double, Double, Int)
                    switch p {
                    case let .chebyshev(cheb, _): (start, end, type) = (cheb.initialSeconds, min(cheb.endSeconds, piece.upperBound), cheb.withVelocity ? 3 : 2)
                    case let .hermite(epochs, _): (start, end, type) = (epochs[0], epochs[epochs.count - 1], 13)
                    }
                    let name = String("\(body.name) SolarSystem".prefix(40))
                    summaries.append(SPKFileLayout.Summary(target: exportID(body), center: exportID(center), frame: 1, type: type,
                                                           startSeconds: start, endSeconds: end, name: printable(name), words: p.words))
                    planned.append(p)
                    guard planned.count <= maxSegments else { throw SPKExportError(description: "more than \(maxSegments) segments: ask for a shorter span") }
                }
            }
        }
        do {
            let layout = try SPKFileLayout(internalName: "SolarSystem server SPK export", comments: comments.map(printable), segments: summaries)
            return SPKExport(layout: layout, planned: planned, summaries: summaries)
        } catch {
            throw SPKExportError(description: error.description)
        }
    }

    /// The NAIF id a body is written as: its own, or for a small body Horizons' SPK-ID
    /// (2,000,000 + number; 20,000,000 + record number for an unnumbered one).
    static func exportID(_ b: HorizonsBody) -> Int {
        guard b.kind == .smallBody else { return b.id }
        return b.id < 50_000_000 ? 2_000_000 + b.id : 20_000_000 + b.id
    }

    static func printable(_ s: String) -> String {
        String(s.unicodeScalars.map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" })
    }

    /// The span split where the body's (and the centre's) data end or change: each kernel
    /// segment's ends, the coverage's gaps.
    static func pieces(body: HorizonsBody, center: HorizonsBody, span: ClosedRange<Double>, context c: HorizonsContext) throws(SPKExportError) -> [ClosedRange<Double>] {
        var covered = [span]
        var cuts: [Double] = []
        for b in [body, center] {
            if let coverage = b.coverage {
                covered = covered.flatMap { piece in coverage.compactMap { s -> ClosedRange<Double>? in
                    let lo = max(piece.lowerBound, s.lowerBound), hi = min(piece.upperBound, s.upperBound)
                    return lo < hi ? lo...hi : nil
                } }
            }
            if b.kind == .spacecraft, let k = c.kernelBodies {
                for e in k.segments(of: b.id) { cuts += [e.startSeconds, e.endSeconds] }
            }
        }
        guard !covered.isEmpty else {
            throw SPKExportError(description: "\(body.targetName) is not placed between \(KernelBodyError.date(span.lowerBound)) and \(KernelBodyError.date(span.upperBound))")
        }
        var out: [ClosedRange<Double>] = []
        for piece in covered {
            var edges = [piece.lowerBound] + cuts.filter { $0 > piece.lowerBound + 1 && $0 < piece.upperBound - 1 }.sorted() + [piece.upperBound]
            edges = edges.reduce(into: [Double]()) { acc, e in if acc.last.map({ e - $0 > 1e-3 }) ?? true { acc.append(e) } }
            for i in 0..<(edges.count - 1) { out.append(edges[i]...edges[i + 1]) }
        }
        return out
    }

    // MARK: - Chebyshev (types 2 and 3)

    /// The record lengths of one piece: runs of equal records, each run a segment.
    static func chebyshev(_ f: @escaping @Sendable (Double) -> (Vector3, Vector3), piece: ClosedRange<Double>, withVelocity: Bool,
                          interrupt: Interrupt) throws(SPKExportError) -> [Planned] {
        var out: [Planned] = []
        var t = piece.lowerBound
        var length = min(longestRecordSeconds, piece.upperBound - piece.lowerBound)
        var calm = true
        while piece.upperBound - t > 1e-6 {
            do { try interrupt.check() } catch { throw SPKExportError(description: "stopped: \(error.cause)") }
            let remaining = piece.upperBound - t
            var count = Int((remaining / length).rounded(.down))
            if count == 0 { length = remaining; count = 1 }
            // After a shortened stretch, a few records at a time before trying longer ones.
            if !calm { count = min(count, 16) }
            var passed = 0
            while passed < count, fits(f, start: t + Double(passed) * length, length: length, withVelocity: withVelocity) { passed += 1 }
            if passed == 0 {
                length /= 2
                calm = false
                guard length >= shortestRecordSeconds else {
                    throw SPKExportError(description: "no \(coefficientCount)-coefficient series reproduces the path within \(toleranceKm * 1e5) cm near \(KernelBodyError.date(t))")
                }
                continue
            }
            let records = SPKKernelWriter.ChebyshevRecords(initialSeconds: t, intervalSeconds: length, recordCount: passed,
                                                            coefficientCount: coefficientCount, withVelocity: withVelocity)
            out.append(.chebyshev(records, function: f))
            t += Double(passed) * length
            if passed < count {
                length /= 2
                calm = false
            } else if !calm || length < longestRecordSeconds {
                length = min(longestRecordSeconds, length * 2)
                calm = length >= longestRecordSeconds
            }
        }
        return out
    }

    /// Chebyshev coefficients of one record of `f` (positions, then velocities for type 3).
    static func coefficients(_ f: (Double) -> (Vector3, Vector3), start: Double, length: Double, withVelocity: Bool) -> [Double] {
        let n = coefficientCount
        let mid = start + length / 2, radius = length / 2
        var samples: [(Vector3, Vector3)] = []
        samples.reserveCapacity(n)
        for j in 0..<n {
            let x = cos(Double.pi * (Double(j) + 0.5) / Double(n))
            samples.append(f(mid + radius * x))
        }
        var c = [Double](repeating: 0, count: (withVelocity ? 6 : 3) * n)
        for i in 0..<n {
            var p = Vector3.zero, v = Vector3.zero
            for j in 0..<n {
                let w = cos(Double.pi * Double(i) * (Double(j) + 0.5) / Double(n))
                p += samples[j].0 * w
                v += samples[j].1 * w
            }
            let scale = (i == 0 ? 1.0 : 2.0) / Double(n)
            c[i] = p.x * scale; c[n + i] = p.y * scale; c[2 * n + i] = p.z * scale
            if withVelocity { c[3 * n + i] = v.x * scale; c[4 * n + i] = v.y * scale; c[5 * n + i] = v.z * scale }
        }
        return c
    }

    /// A series' value and derivative (per second) at `t` (Clenshaw).
    static func evaluate(_ c: [Double], offset: Int, n: Int, x: Double, radius: Double) -> (value: Double, rate: Double) {
        var b1 = 0.0, b2 = 0.0, d1 = 0.0, d2 = 0.0
        for i in stride(from: n - 1, through: 1, by: -1) {
            let b0 = 2 * x * b1 - b2 + c[offset + i]
            let d0 = 2 * x * d1 - d2 + 2 * b1
            b2 = b1; b1 = b0
            d2 = d1; d1 = d0
        }
        let value = x * b1 - b2 + c[offset]
        let rate = x * d1 - d2 + b1
        return (value, rate / radius)
    }

    /// Whether one record's series reproduce `f` between their nodes.
    static func fits(_ f: @Sendable (Double) -> (Vector3, Vector3), start: Double, length: Double, withVelocity: Bool) -> Bool {
        let n = coefficientCount
        let c = coefficients(f, start: start, length: length, withVelocity: withVelocity)
        guard c.allSatisfy(\.isFinite) else { return false }
        let radius = length / 2, mid = start + radius
        let checks = 2 * n + 1
        for k in 0...checks {
            let x = -1 + 2 * Double(k) / Double(checks)
            let truth = f(mid + radius * x)
            var p = Vector3.zero, v = Vector3.zero
            let ex = evaluate(c, offset: 0, n: n, x: x, radius: radius), ey = evaluate(c, offset: n, n: n, x: x, radius: radius), ez = evaluate(c, offset: 2 * n, n: n, x: x, radius: radius)
            p = Vector3(ex.value, ey.value, ez.value)
            if withVelocity {
                v = Vector3(evaluate(c, offset: 3 * n, n: n, x: x, radius: radius).value, evaluate(c, offset: 4 * n, n: n, x: x, radius: radius).value,
                            evaluate(c, offset: 5 * n, n: n, x: x, radius: radius).value)
            } else {
                v = Vector3(ex.rate, ey.rate, ez.rate)
            }
            guard (p - truth.0).length <= toleranceKm, (v - truth.1).length <= velocityToleranceKmS else { return false }
        }
        return true
    }

    // MARK: - Hermite (type 13)

    /// Nodes of one piece: every interval bisected until cubic Hermite interpolation between its
    /// ends reproduces the path at its quarter points.
    static func hermite(_ f: @Sendable (Double) -> (Vector3, Vector3), piece: ClosedRange<Double>, interrupt: Interrupt) throws(SPKExportError) -> Planned {
        let first = f(piece.lowerBound)
        guard first.0.isFinite else { throw SPKExportError(description: "no state at \(KernelBodyError.date(piece.lowerBound))") }
        var epochs = [piece.lowerBound]
        var states: [(position: Vector3, velocity: Vector3)] = [first]
        // Start from steps of a day at most, then split where needed.
        let n = max(1, Int(((piece.upperBound - piece.lowerBound) / 86_400).rounded(.up)))
        var stack: [(Double, Double, (Vector3, Vector3))] = []
        for k in stride(from: n, through: 1, by: -1) {
            let a = piece.lowerBound + (piece.upperBound - piece.lowerBound) * Double(k - 1) / Double(n)
            let b = k == n ? piece.upperBound : piece.lowerBound + (piece.upperBound - piece.lowerBound) * Double(k) / Double(n)
            stack.append((a, b, f(b)))
        }
        var checked = 0
        while let (a, b, end) = stack.popLast() {
            checked += 1
            if checked % 64 == 0 { do { try interrupt.check() } catch { throw SPKExportError(description: "stopped: \(error.cause)") } }
            let start = states[states.count - 1]
            guard end.0.isFinite, end.1.isFinite else { throw SPKExportError(description: "no state at \(KernelBodyError.date(b))") }
            var ok = true
            for fraction in [0.25, 0.5, 0.75] {
                let t = a + (b - a) * fraction
                let (p, v) = hermiteValue(a: a, b: b, start, end, at: t)
                let truth = f(t)
                if (p - truth.0).length > toleranceKm || (v - truth.1).length > velocityToleranceKmS { ok = false; break }
            }
            if ok || b - a < 1e-3 {
                epochs.append(b)
                states.append((end.0, end.1))
                guard epochs.count * 56 <= maxBytes else { throw SPKExportError(description: "the file would pass \(maxBytes >> 20) MiB") }
            } else {
                let m = (a + b) / 2
                stack.append((m, b, end))
                stack.append((a, m, f(m)))
            }
        }
        return .hermite(epochs: epochs, states: states)
    }

    /// Cubic Hermite interpolation of position and velocity between two states.
    static func hermiteValue(a: Double, b: Double, _ s0: (position: Vector3, velocity: Vector3), _ s1: (Vector3, Vector3), at t: Double) -> (Vector3, Vector3) {
        let h = b - a, u = (t - a) / h
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        let p = s0.position * h00 + s0.velocity * (h10 * h) + s1.0 * h01 + s1.1 * (h11 * h)
        let d00 = (6 * u2 - 6 * u) / h, d10 = 3 * u2 - 4 * u + 1, d01 = (-6 * u2 + 6 * u) / h, d11 = 3 * u2 - 2 * u
        let v = s0.position * d00 + s0.velocity * d10 + s1.0 * d01 + s1.1 * d11
        return (p, v)
    }

    // MARK: - Writing

    /// Where the writing has got to.
    public struct Cursor: Sendable {
        var segment = -1
        var item = 0
        var done = false
        public init() {}
    }

    /// The next piece of the file (the header first, then about 64 KiB of data at a time, the
    /// padding last), nil at the end.
    public func chunk(after cursor: inout Cursor) -> [UInt8]? {
        if cursor.done { return nil }
        if cursor.segment < 0 {
            cursor.segment = 0
            return layout.headerBytes()
        }
        guard cursor.segment < planned.count else {
            cursor.done = true
            let padding = layout.paddingBytes
            return padding.isEmpty ? nil : padding
        }
        var words: [Double] = []
        words.reserveCapacity(8_192)
        switch planned[cursor.segment] {
        case let .chebyshev(c, f):
            let perRecord = c.recordWords
            while cursor.item < c.recordCount, words.count + perRecord <= 8_192 || words.isEmpty {
                let start = c.initialSeconds + Double(cursor.item) * c.intervalSeconds
                let series = Self.coefficients(f, start: start, length: c.intervalSeconds, withVelocity: c.withVelocity)
                words += c.recordWords(cursor.item, series: series[...])
                cursor.item += 1
            }
            if cursor.item == c.recordCount {
                words += c.trailer
                cursor.segment += 1
                cursor.item = 0
            }
        case let .hermite(epochs, states):
            // Small enough to write whole: the states, the epochs, their directory, the trailer.
            for s in states { words += [s.position.x, s.position.y, s.position.z, s.velocity.x, s.velocity.y, s.velocity.z] }
            words += epochs
            var k = 100
            while k < epochs.count { words.append(epochs[k - 1]); k += 100 }
            words += [1, Double(epochs.count)]
            cursor.segment += 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(words.count * 8)
        for v in words { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        return out
    }

    /// The whole file (tests and small exports).
    public func bytes() -> [UInt8] {
        var cursor = Cursor()
        var out: [UInt8] = []
        out.reserveCapacity(byteCount)
        while let c = chunk(after: &cursor) { out += c }
        return out
    }
}

public struct SPKExportError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
