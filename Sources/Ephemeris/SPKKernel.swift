/// A JPL/NAIF SPK ephemeris read in place (NAIF "SPK Required Reading"), evaluated at TDB
/// seconds past J2000 in km and km/s in each segment's own frame, as NAIF's SPKPVN gives a
/// segment's raw state (no frame change, no light time). Types read:
///
/// - 2 and 3: Chebyshev series for position (velocity is their derivative) or for both;
/// - 1 and 21: modified difference arrays (`SPKKernel+MDA.swift`);
/// - 8, 9, 12 and 13: Lagrange or Hermite interpolation of states at equal or unequal steps
///   (`SPKKernel+Interpolated.swift`);
/// - 18 and 19: ESA/ESOC packets and piecewise mini-segments (`SPKKernel+ESA.swift`).
///
/// Segments of other types are listed but not read (`Segment.isEvaluated`).
///
/// ```swift
/// let spk = try SPKKernel(bytes: mapping, file: "de440.bsp")
/// let i = spk.segments.firstIndex { $0.target == 301 }!
/// spk.state(segment: i, secondsPastJ2000: 0).positionKm  // the Moon from the Earth-Moon barycentre
/// ```
///
/// Type 2/3 records are uniform in time, so the record for an epoch is found by index,
/// `floor((et − INIT) / INTLEN)`, without a search; the other types find theirs by a binary
/// search of their epoch directory and then of the epochs it points to. Everything a lookup
/// relies on is checked when the kernel is opened — addresses, record sizes and counts,
/// intervals, window sizes, epochs strictly increasing and their directories, coverage inside
/// the data — so a damaged file is an ``SPKError`` naming the file and the segment, and no
/// evaluation, at any epoch (NaN and infinities included), traps or reads outside the file.
public final class SPKKernel: @unchecked Sendable {
    /// One segment's directory entry.
    public struct Segment: Sendable, Hashable {
        public let target: Int
        public let center: Int
        /// NAIF frame code: 1 is J2000 (ICRF for the DE kernels).
        public let frame: Int
        /// SPK data type (see `isEvaluated` for the ones this reader evaluates).
        public let type: Int
        /// Coverage, TDB seconds past J2000.
        public let startSeconds: Double
        public let endSeconds: Double
        public let name: String
        /// Chebyshev coefficients per component (types 2 and 3; 0 for the others).
        public let coefficientCount: Int

        /// Types 1, 2, 3, 8, 9, 12, 13, 18, 19 and 21 are evaluated; a kernel with a segment of
        /// one of these types opens only if the segment's data check out.
        public var isEvaluated: Bool { SPKKernel.evaluates(type: type) }
        public func covers(_ seconds: Double) -> Bool { seconds >= startSeconds && seconds <= endSeconds }
        /// The type and what it holds, for messages: `type 13 (Hermite interpolation, unequal steps)`.
        public var typeDescription: String { SPKKernel.describe(type: type) }
    }

    /// The largest magnitude a number in an evaluated segment may have: far beyond any position
    /// (km), velocity, epoch (s) or count a kernel holds (Pluto's Chebyshev coefficients are
    /// 6e9 km), far below where a series of them could overflow.
    public static let maxDataMagnitude = 1e20

    /// Whether this reader evaluates segments of an SPK data type.
    public static func evaluates(type: Int) -> Bool {
        switch type {
        case 1, 2, 3, 8, 9, 12, 13, 18, 19, 21: return true
        default: return false
        }
    }

    /// `type 13 (Hermite interpolation, unequal steps)`; the names of NAIF's SPK Required Reading.
    public static func describe(type: Int) -> String {
        let what: String
        switch type {
        case 1: what = "modified difference arrays"
        case 2: what = "Chebyshev, position"
        case 3: what = "Chebyshev, position and velocity"
        case 5: what = "discrete states, two-body propagation"
        case 8: what = "Lagrange interpolation, equal steps"
        case 9: what = "Lagrange interpolation, unequal steps"
        case 10: what = "two-line elements"
        case 12: what = "Hermite interpolation, equal steps"
        case 13: what = "Hermite interpolation, unequal steps"
        case 14: what = "Chebyshev, unequal steps"
        case 15: what = "precessing conic"
        case 17: what = "equinoctial elements"
        case 18: what = "ESOC/DDID Hermite or Lagrange interpolation"
        case 19: what = "ESOC/DDID piecewise interpolation"
        case 20: what = "Chebyshev, velocity"
        case 21: what = "extended modified difference arrays"
        default: return "type \(type)"
        }
        return "type \(type) (\(what))"
    }

    /// How a segment other than type 2/3 is evaluated; types 2 and 3 go through `records`, which
    /// keeps their hot path to one test of `Records.type`.
    enum Model: Sendable {
        /// Chebyshev (in `records`), or a type not evaluated.
        case none
        case differenceLines(DifferenceLines)
        case discreteStates(DiscreteStates)
        case packets(ESAPackets)
        case piecewise(PiecewiseESA)
    }

    /// What evaluation needs of a type 2/3 segment, as plain numbers (no strings to retain on
    /// the hot path).
    struct Records: Sendable {
        /// 2 or 3; 0 for a segment of another type (its `Model` says how it is evaluated).
        let type: Int
        let startSeconds: Double
        let endSeconds: Double
        /// Byte offset of the first record.
        let dataOffset: Int
        /// Start of the first record's interval and the interval length, TDB seconds.
        let initialSeconds: Double
        let intervalSeconds: Double
        /// Doubles per record, records, and Chebyshev coefficients per component.
        let recordWords: Int
        let recordCount: Int
        let coefficientCount: Int

        @inline(__always) func covers(_ seconds: Double) -> Bool { seconds >= startSeconds && seconds <= endSeconds }
    }

    public let file: String
    /// ``file`` without its directories, for labels.
    public var fileName: String { file.split(separator: "/").last.map(String.init) ?? file }
    /// Every segment in file order (later segments take precedence, as in SPICE).
    public let segments: [Segment]
    /// The identification the file gives itself (the DAF internal file name).
    public let internalName: String
    public let isBigEndian: Bool
    public var byteCount: Int { reader.count }

    let storage: any KernelBytes
    let reader: ByteReader
    /// Parallel to `segments`.
    let records: [Records]
    /// Parallel to `segments`: how the segments of types other than 2 and 3 are evaluated.
    let models: [Model]
    /// Parallel to `segments`: the DAF word addresses of each segment's data, first and last.
    let dataAddresses: [(first: Int, last: Int)]

    public init(bytes storage: any KernelBytes, file: String) throws(SPKError) {
        self.storage = storage
        self.file = file
        let daf = try DAFFile(bytes: storage.bytes, file: file)
        reader = daf.reader
        internalName = daf.internalName
        isBigEndian = daf.reader.bigEndian
        var list: [Segment] = [], layouts: [Records] = [], models: [Model] = [], addresses: [(Int, Int)] = []
        for (n, s) in daf.summaries.enumerated() {
            let (segment, layout, model) = try Self.segment(s, number: n + 1, daf: daf)
            list.append(segment)
            layouts.append(layout)
            models.append(model)
            addresses.append((Int(s.integers[4]), Int(s.integers[5])))
        }
        dataAddresses = addresses
        guard !list.isEmpty else { throw SPKError(.missingSegments, file: file, "no segments") }
        segments = list
        records = layouts
        self.models = models
    }

    /// Reads and checks one summary and the segment's data: for types 2 and 3 its trailer and
    /// its first and last records, for the other evaluated types everything their lookups use.
    static func segment(_ s: DAFFile.Summary, number: Int, daf: DAFFile) throws(SPKError) -> (Segment, Records, Model) {
        let file = daf.file
        let start = s.doubles[0], end = s.doubles[1]
        let target = Int(s.integers[0]), center = Int(s.integers[1]), frame = Int(s.integers[2]), type = Int(s.integers[3])
        let first = Int(s.integers[4]), last = Int(s.integers[5])
        var what: String { "segment \(number) (\(target) from \(center), type \(type))" }
        guard start.isFinite, end.isFinite, start <= end else {
            throw SPKError(.corrupt, file: file, "\(what): coverage \(start)…\(end) s is not an interval")
        }
        guard first >= 1, last >= first, last <= daf.wordCount else {
            throw SPKError(.corrupt, file: file, "\(what): data at words \(first)…\(last), outside the file's \(daf.wordCount) words")
        }
        guard type == 2 || type == 3 else {
            let words = SegmentWords(reader: daf.reader, file: file, what: what, firstAddress: first, lastAddress: last)
            let model: Model
            switch type {
            case 1, 21: model = .differenceLines(try DifferenceLines(words, type: type, start: start, end: end))
            case 8, 9, 12, 13: model = .discreteStates(try DiscreteStates(words, type: type, start: start, end: end))
            case 18: model = .packets(try ESAPackets(type18: words, start: start, end: end))
            case 19: model = .piecewise(try PiecewiseESA(words, start: start, end: end))
            default: model = .none
            }
            return (Segment(target: target, center: center, frame: frame, type: type, startSeconds: start, endSeconds: end, name: s.name, coefficientCount: 0),
                    Records(type: 0, startSeconds: start, endSeconds: end, dataOffset: 0, initialSeconds: 0, intervalSeconds: 1, recordWords: 0, recordCount: 0, coefficientCount: 0),
                    model)
        }
        let r = daf.reader
        guard last - first + 1 >= 4 else { throw SPKError(.corrupt, file: file, "\(what): \(last - first + 1) words, too short for a type \(type) segment") }
        let initial = r.double(word: last - 3), interval = r.double(word: last - 2)
        let rsize = r.double(word: last - 1), n = r.double(word: last)
        let components = type == 2 ? 3 : 6
        let available = last - first + 1 - 4
        guard let recordWords = DAFFile.wholeNumber(rsize, in: (2 + components)...max(2 + components, available)),
              (recordWords - 2) % components == 0
        else { throw SPKError(.corrupt, file: file, "\(what): record size \(rsize) words is not 2 + \(components) × coefficients within the segment") }
        guard let count = DAFFile.wholeNumber(n, in: 1...max(1, available / recordWords)), count * recordWords == available else {
            throw SPKError(.corrupt, file: file, "\(what): \(n) records of \(recordWords) words do not fill its \(available) data words")
        }
        guard initial.isFinite, interval.isFinite, interval > 0 else {
            throw SPKError(.corrupt, file: file, "\(what): record interval start \(initial) s, length \(interval) s")
        }
        // The records must cover the summary's span (a second's slack for rounding).
        guard initial <= start + 1, initial + Double(count) * interval >= end - 1 else {
            throw SPKError(.corrupt, file: file, "\(what): \(count) records of \(interval) s from \(initial) s do not cover \(start)…\(end) s")
        }
        let coefficients = (recordWords - 2) / components
        let layout = Records(type: type, startSeconds: start, endSeconds: end, dataOffset: (first - 1) * 8, initialSeconds: initial,
                             intervalSeconds: interval, recordWords: recordWords, recordCount: count, coefficientCount: coefficients)
        // The first and last records must be where the trailer puts them.
        for k in count > 1 ? [0, count - 1] : [0] {
            let at = layout.dataOffset + k * recordWords * 8
            let mid = r.double(at: at), radius = r.double(at: at + 8)
            let expected = initial + (Double(k) + 0.5) * interval
            guard mid.isFinite, radius.isFinite, abs(mid - expected) <= 1e-6 * interval + 1e-3,
                  abs(radius - interval / 2) <= 1e-6 * interval + 1e-3
            else {
                throw SPKError(.corrupt, file: file, "\(what): record \(k + 1) has midpoint \(mid) s and radius \(radius) s, expected \(expected) s and \(interval / 2) s")
            }
        }
        return (Segment(target: target, center: center, frame: frame, type: type, startSeconds: start, endSeconds: end, name: s.name, coefficientCount: coefficients), layout, .none)
    }

    // MARK: - Evaluation

    /// Index of the record holding `seconds` (clamped to the segment, so the end belongs to
    /// the last record; a NaN gives the first).
    @inline(__always) func recordOffset(_ s: Records, _ seconds: Double) -> Int {
        let x = ((seconds - s.initialSeconds) / s.intervalSeconds).rounded(.down)
        let last = s.recordCount - 1
        let k = x >= Double(last) ? last : (x > 0 ? Int(x) : 0)
        return s.dataOffset + k * s.recordWords * 8
    }

    /// Position (km) of the segment's target from its centre at `seconds` (TDB past J2000).
    /// Inside the segment's coverage this is the segment's data; outside it the nearest
    /// record or window extrapolates (callers check coverage). NaN for a type not evaluated.
    public func position(segment index: Int, secondsPastJ2000 seconds: Double) -> Vector3 {
        let s = records[index]
        guard s.type != 0 else { return modelState(index, seconds, velocity: false).positionKm }
        let at = recordOffset(s, seconds)
        let r = reader
        let x = (seconds - r.double(at: at)) / r.double(at: at + 8)
        let n = s.coefficientCount
        let cx = at + 16, cy = cx + 8 * n, cz = cy + 8 * n
        // Clenshaw's recurrence, the three components together.
        var bx1 = 0.0, by1 = 0.0, bz1 = 0.0, bx2 = 0.0, by2 = 0.0, bz2 = 0.0
        let x2 = 2 * x
        var k = n - 1
        while k >= 1 {
            let o = 8 * k
            let bx = r.double(at: cx + o) + x2 * bx1 - bx2
            let by = r.double(at: cy + o) + x2 * by1 - by2
            let bz = r.double(at: cz + o) + x2 * bz1 - bz2
            bx2 = bx1; by2 = by1; bz2 = bz1
            bx1 = bx; by1 = by; bz1 = bz
            k -= 1
        }
        return Vector3(r.double(at: cx) + x * bx1 - bx2, r.double(at: cy) + x * by1 - by2, r.double(at: cz) + x * bz1 - bz2)
    }

    /// Position (km) and velocity (km/s) of the segment's target from its centre. Type 2
    /// velocities are the derivative of the position series divided by the record's radius;
    /// type 3 segments carry their own velocity coefficients; the other types say in their
    /// files (`SPKKernel+MDA.swift`, `+Interpolated.swift`, `+ESA.swift`).
    public func state(segment index: Int, secondsPastJ2000 seconds: Double) -> (positionKm: Vector3, velocityKmPerSecond: Vector3) {
        let s = records[index]
        guard s.type != 0 else { return modelState(index, seconds, velocity: true) }
        let at = recordOffset(s, seconds)
        let r = reader
        let radius = r.double(at: at + 8)
        let x = (seconds - r.double(at: at)) / radius
        let n = s.coefficientCount
        let c0 = at + 16
        if s.type == 3 {
            func series(_ component: Int) -> Double { Self.chebyshev(r, c0 + component * 8 * n, n, x) }
            return (Vector3(series(0), series(1), series(2)), Vector3(series(3), series(4), series(5)))
        }
        // T_k and T'_k by their forward recurrences: T_{k+1} = 2x T_k − T_{k−1},
        // T'_{k+1} = 2 T_k + 2x T'_k − T'_{k−1}.
        let cy = c0 + 8 * n, cz = cy + 8 * n
        var p = Vector3(r.double(at: c0), r.double(at: cy), r.double(at: cz))
        var v = Vector3.zero
        if n > 1 {
            var t0 = 1.0, t1 = x, d0 = 0.0, d1 = 1.0
            p += Vector3(r.double(at: c0 + 8), r.double(at: cy + 8), r.double(at: cz + 8)) * t1
            v = Vector3(r.double(at: c0 + 8), r.double(at: cy + 8), r.double(at: cz + 8))
            var k = 2
            while k < n {
                let t2 = 2 * x * t1 - t0
                let d2 = 2 * t1 + 2 * x * d1 - d0
                let o = 8 * k
                let c = Vector3(r.double(at: c0 + o), r.double(at: cy + o), r.double(at: cz + o))
                p += c * t2
                v += c * d2
                t0 = t1; t1 = t2; d0 = d1; d1 = d2
                k += 1
            }
        }
        return (p, v / radius)
    }

    /// The segments that are not Chebyshev, out of line so the type 2/3 path stays as it was.
    @inline(never)
    func modelState(_ index: Int, _ seconds: Double, velocity: Bool) -> (positionKm: Vector3, velocityKmPerSecond: Vector3) {
        let r = reader
        switch models[index] {
        case .none: return (Vector3(.nan, .nan, .nan), Vector3(.nan, .nan, .nan))
        case .differenceLines(let m): return m.state(r, seconds)
        case .discreteStates(let m): return m.state(r, seconds, velocity: velocity)
        case .packets(let m): return m.state(r, seconds, velocity: velocity)
        case .piecewise(let m): return m.state(r, seconds, velocity: velocity)
        }
    }

    /// Σ c_k T_k(x) over `n` coefficients from byte `offset`, by Clenshaw's recurrence.
    @inline(__always) static func chebyshev(_ r: ByteReader, _ offset: Int, _ n: Int, _ x: Double) -> Double {
        var b1 = 0.0, b2 = 0.0
        var k = n - 1
        while k >= 1 {
            let b = r.double(at: offset + 8 * k) + 2 * x * b1 - b2
            b2 = b1; b1 = b
            k -= 1
        }
        return r.double(at: offset) + x * b1 - b2
    }
}
