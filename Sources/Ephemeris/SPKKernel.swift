/// A JPL SPK ephemeris read in place (NAIF "SPK Required Reading"): its segments of type 2
/// (Chebyshev coefficients for position; velocity is their derivative) and type 3 (Chebyshev
/// coefficients for position and velocity), evaluated at TDB seconds past J2000 in km and km/s,
/// in the segment's frame (J2000 = ICRF for the DE kernels). Segments of other types are listed
/// but not read.
///
/// ```swift
/// let spk = try SPKKernel(bytes: mapping, file: "de440.bsp")
/// let i = spk.segments.firstIndex { $0.target == 301 }!
/// spk.state(segment: i, secondsPastJ2000: 0).positionKm  // the Moon from the Earth-Moon barycentre
/// ```
///
/// Type 2/3 records are uniform in time, so the record for an epoch is found by index,
/// `floor((et − INIT) / INTLEN)`, without a search. Everything a record lookup relies on
/// (addresses, record size and count, interval, coverage, the first and last records' midpoints
/// and radii) is checked when the kernel is opened; only those pages and the directory are read
/// then.
public final class SPKKernel: @unchecked Sendable {
    /// One segment's directory entry.
    public struct Segment: Sendable, Hashable {
        public let target: Int
        public let center: Int
        /// NAIF frame code: 1 is J2000 (ICRF for the DE kernels).
        public let frame: Int
        /// SPK data type (2 and 3 are evaluated).
        public let type: Int
        /// Coverage, TDB seconds past J2000.
        public let startSeconds: Double
        public let endSeconds: Double
        public let name: String
        /// Chebyshev coefficients per component (0 for types not evaluated).
        public let coefficientCount: Int

        public var isEvaluated: Bool { type == 2 || type == 3 }
        public func covers(_ seconds: Double) -> Bool { seconds >= startSeconds && seconds <= endSeconds }
    }

    /// What evaluation needs of a type 2/3 segment, as plain numbers (no strings to retain on
    /// the hot path).
    struct Records: Sendable {
        /// 2 or 3; 0 for a segment that is not evaluated.
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

    public init(bytes storage: any KernelBytes, file: String) throws(SPKError) {
        self.storage = storage
        self.file = file
        let daf = try DAFFile(bytes: storage.bytes, file: file)
        reader = daf.reader
        internalName = daf.internalName
        isBigEndian = daf.reader.bigEndian
        var list: [Segment] = [], layouts: [Records] = []
        for (n, s) in daf.summaries.enumerated() {
            let (segment, layout) = try Self.segment(s, number: n + 1, daf: daf)
            list.append(segment)
            layouts.append(layout)
        }
        guard !list.isEmpty else { throw SPKError(.missingSegments, file: file, "no segments") }
        segments = list
        records = layouts
    }

    /// Reads and checks one summary and, for types 2 and 3, the segment's trailer and its first
    /// and last records.
    static func segment(_ s: DAFFile.Summary, number: Int, daf: DAFFile) throws(SPKError) -> (Segment, Records) {
        let file = daf.file
        let start = s.doubles[0], end = s.doubles[1]
        let target = Int(s.integers[0]), center = Int(s.integers[1]), frame = Int(s.integers[2]), type = Int(s.integers[3])
        let first = Int(s.integers[4]), last = Int(s.integers[5])
        var what: String { "segment \(number) (\(target) from \(center))" }
        guard start.isFinite, end.isFinite, start <= end else {
            throw SPKError(.corrupt, file: file, "\(what): coverage \(start)…\(end) s is not an interval")
        }
        guard first >= 1, last >= first, last <= daf.wordCount else {
            throw SPKError(.corrupt, file: file, "\(what): data at words \(first)…\(last), outside the file's \(daf.wordCount) words")
        }
        guard type == 2 || type == 3 else {
            return (Segment(target: target, center: center, frame: frame, type: type, startSeconds: start, endSeconds: end, name: s.name, coefficientCount: 0),
                    Records(type: 0, startSeconds: start, endSeconds: end, dataOffset: 0, initialSeconds: 0, intervalSeconds: 1, recordWords: 0, recordCount: 0, coefficientCount: 0))
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
        return (Segment(target: target, center: center, frame: frame, type: type, startSeconds: start, endSeconds: end, name: s.name, coefficientCount: coefficients), layout)
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

    /// Position (km) of the segment's target from its centre at `seconds` (TDB past J2000),
    /// which the caller has checked is inside the segment's coverage.
    public func position(segment index: Int, secondsPastJ2000 seconds: Double) -> Vector3 {
        let s = records[index]
        guard s.type != 0 else { return Vector3(.nan, .nan, .nan) }
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
    /// type 3 segments carry their own velocity coefficients.
    public func state(segment index: Int, secondsPastJ2000 seconds: Double) -> (positionKm: Vector3, velocityKmPerSecond: Vector3) {
        let s = records[index]
        guard s.type != 0 else { return (Vector3(.nan, .nan, .nan), Vector3(.nan, .nan, .nan)) }
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
