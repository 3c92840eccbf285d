/// Writes SPK files (NAIF "SPK Required Reading", "DAF Required Reading"): little-endian IEEE
/// DAFs whose segments are unequally spaced states — type 13 (Hermite: positions and velocities
/// interpolated together) or type 9 (Lagrange) — with a comment area. The layout is the one
/// NAIF's SPKW13/SPKW09 write (checked by reading the files back with CSPICE), so any SPICE
/// tool reads what this writes. Pure: it returns bytes; the caller writes the file.
///
/// ```swift
/// var writer = SPKKernelWriter(internalName: "SolarSystem mission kernel")
/// writer.comments = ["Voyager 2 from JPL Horizons daily vectors"]
/// writer.segments.append(.init(target: -32, center: 0, frame: 1, name: "JPL Horizons -32 1-day",
///                              kind: .hermite(windowSize: 6), epochs: epochs, states: states))
/// let bytes = try writer.bytes()
/// ```
public struct SPKKernelWriter: Sendable {
    public enum Kind: Sendable, Hashable {
        /// Type 13: Hermite interpolation over `windowSize` states (degree 2·window − 1).
        case hermite(windowSize: Int)
        /// Type 9: Lagrange interpolation over `windowSize` states (degree window − 1).
        case lagrange(windowSize: Int)
        /// Type 2 (position coefficients; velocity is their derivative) or type 3 (position and
        /// velocity coefficients): Chebyshev records of equal length (``ChebyshevRecords``).
        case chebyshev(ChebyshevRecords)

        var type: Int {
            switch self {
            case .hermite: 13
            case .lagrange: 9
            case let .chebyshev(c): c.withVelocity ? 3 : 2
            }
        }

        /// What the trailer stores: window size − 1 for type 13, the degree for type 9 (the
        /// same number).
        var trailerValue: Int {
            switch self {
            case let .hermite(w), let .lagrange(w): w - 1
            case .chebyshev: 0
            }
        }

        var windowSize: Int {
            switch self {
            case let .hermite(w), let .lagrange(w): w
            case .chebyshev: 0
            }
        }
    }

    /// The layout of a type 2 or 3 segment (NAIF "SPK Required Reading", types 2 and 3): records
    /// of `coefficientCount` Chebyshev coefficients per component over consecutive intervals of
    /// `intervalSeconds` from `initialSeconds`, each record `[MID, RADIUS, x…, y…, z…(, vx…, vy…, vz…)]`,
    /// then the trailer `[INIT, INTLEN, RSIZE, N]`. `coefficients` holds the records' series
    /// without their MID and RADIUS (the writer adds them), record after record; empty when the
    /// caller streams the data itself (``SPKFileLayout``).
    public struct ChebyshevRecords: Sendable, Hashable {
        public var initialSeconds: Double
        public var intervalSeconds: Double
        public var recordCount: Int
        public var coefficientCount: Int
        public var withVelocity: Bool
        public var coefficients: [Double]

        public init(initialSeconds: Double, intervalSeconds: Double, recordCount: Int, coefficientCount: Int, withVelocity: Bool, coefficients: [Double] = []) {
            self.initialSeconds = initialSeconds
            self.intervalSeconds = intervalSeconds
            self.recordCount = recordCount
            self.coefficientCount = coefficientCount
            self.withVelocity = withVelocity
            self.coefficients = coefficients
        }

        /// Doubles per record (RSIZE): MID, RADIUS and the series.
        public var recordWords: Int { 2 + (withVelocity ? 6 : 3) * coefficientCount }
        /// Doubles of the whole segment: the records and the four-word trailer.
        public var segmentWords: Int { recordWords * recordCount + 4 }
        public var endSeconds: Double { initialSeconds + intervalSeconds * Double(recordCount) }

        /// Record `k`'s words: MID, RADIUS, then its series (`series.count` = RSIZE − 2).
        public func recordWords(_ k: Int, series: ArraySlice<Double>) -> [Double] {
            [initialSeconds + (Double(k) + 0.5) * intervalSeconds, intervalSeconds / 2] + series
        }

        /// The trailer words `[INIT, INTLEN, RSIZE, N]`.
        public var trailer: [Double] { [initialSeconds, intervalSeconds, Double(recordWords), Double(recordCount)] }
    }

    public struct Segment: Sendable {
        public var target: Int
        public var center: Int
        /// NAIF frame code: 1 J2000, 17 ECLIPJ2000, 10014 IAU_MARS, …
        public var frame: Int
        /// At most 40 printable ASCII characters (SPK segment names are 40 bytes).
        public var name: String
        public var kind: Kind
        /// TDB seconds past J2000, strictly increasing.
        public var epochs: [Double]
        /// km and km/s, one per epoch, in `frame` relative to `center`.
        public var states: [(position: Vector3, velocity: Vector3)]
        /// Coverage (default: the first and last epochs); inside the epochs.
        public var startSeconds: Double?
        public var endSeconds: Double?

        public init(target: Int, center: Int, frame: Int, name: String, kind: Kind, epochs: [Double],
                    states: [(position: Vector3, velocity: Vector3)], startSeconds: Double? = nil, endSeconds: Double? = nil) {
            self.target = target
            self.center = center
            self.frame = frame
            self.name = name
            self.kind = kind
            self.epochs = epochs
            self.states = states
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
        }

        /// A type 2 or 3 segment (`records.coefficients` holding every record's series).
        public init(target: Int, center: Int, frame: Int, name: String, chebyshev records: ChebyshevRecords,
                    startSeconds: Double? = nil, endSeconds: Double? = nil) {
            self.init(target: target, center: center, frame: frame, name: name, kind: .chebyshev(records), epochs: [], states: [],
                      startSeconds: startSeconds, endSeconds: endSeconds)
        }

        /// The coverage the summary states.
        var coverage: (start: Double, end: Double) {
            if case let .chebyshev(c) = kind { return (startSeconds ?? c.initialSeconds, endSeconds ?? c.endSeconds) }
            return (startSeconds ?? epochs[0], endSeconds ?? epochs[epochs.count - 1])
        }

        /// What the file's summary records say of it: the data's words are counted, not held.
        var summary: SPKFileLayout.Summary {
            let words: Int
            switch kind {
            case let .chebyshev(c): words = c.segmentWords
            default: words = epochs.count * 7 + (epochs.count - 1) / 100 + 2
            }
            let (start, end) = coverage
            return SPKFileLayout.Summary(target: target, center: center, frame: frame, type: kind.type, startSeconds: start, endSeconds: end,
                                         name: name, words: words)
        }
    }

    public struct WriteError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public var internalName: String
    /// Lines of the comment area (printable ASCII; NAIF tools show them with `commnt`).
    public var comments: [String] = []
    public var segments: [Segment] = []

    public init(internalName: String) {
        self.internalName = internalName
    }

    public func bytes() throws(WriteError) -> [UInt8] {
        for (n, s) in segments.enumerated() { try Self.check(s, number: n + 1) }
        let layout = try SPKFileLayout(internalName: internalName, comments: comments, segments: segments.map(\.summary))
        var out = layout.headerBytes()
        out.reserveCapacity(layout.totalBytes)
        for s in segments {
            for v in Self.words(s) { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
        }
        out += layout.paddingBytes
        return out
    }

    /// States, epochs, the directory of every 100th epoch, the trailer.
    static func words(_ s: Segment) -> [Double] {
        if case let .chebyshev(c) = s.kind {
            var w: [Double] = []
            w.reserveCapacity(c.segmentWords)
            let series = c.recordWords - 2
            for k in 0..<c.recordCount { w += c.recordWords(k, series: c.coefficients[(k * series)..<((k + 1) * series)]) }
            return w + c.trailer
        }
        var w: [Double] = []
        w.reserveCapacity(s.epochs.count * 7 + s.epochs.count / 100 + 2)
        for state in s.states {
            w += [state.position.x, state.position.y, state.position.z, state.velocity.x, state.velocity.y, state.velocity.z]
        }
        w += s.epochs
        var k = 100
        while k < s.epochs.count {
            w.append(s.epochs[k - 1])
            k += 100
        }
        w.append(Double(s.kind.trailerValue))
        w.append(Double(s.epochs.count))
        return w
    }

    static func check(_ s: Segment, number: Int) throws(WriteError) {
        let what = "segment \(number) (\(s.target) from \(s.center))"
        guard s.name.utf8.count <= 40, printable(s.name) else { throw WriteError(description: "\(what): the name must be at most 40 printable ASCII characters") }
        if case let .chebyshev(c) = s.kind {
            guard (1...50).contains(c.coefficientCount), c.recordCount >= 1, c.intervalSeconds > 0, c.intervalSeconds.isFinite, c.initialSeconds.isFinite else {
                throw WriteError(description: "\(what): \(c.recordCount) records of \(c.coefficientCount) coefficients over \(c.intervalSeconds) s")
            }
            guard c.coefficients.count == (c.recordWords - 2) * c.recordCount, c.coefficients.allSatisfy(\.isFinite) else {
                throw WriteError(description: "\(what): \(c.coefficients.count) finite coefficients expected \((c.recordWords - 2) * c.recordCount)")
            }
            let (start, end) = s.coverage
            guard start <= end, start >= c.initialSeconds, end <= c.endSeconds else {
                throw WriteError(description: "\(what): coverage \(start)…\(end) s must lie inside its records")
            }
            return
        }
        guard s.epochs.count == s.states.count else { throw WriteError(description: "\(what): \(s.epochs.count) epochs for \(s.states.count) states") }
        let window = s.kind.windowSize
        let maxWindow = s.kind.type == 13 ? 14 : 28
        guard (1...maxWindow).contains(window), s.epochs.count >= max(window, 2) else {
            throw WriteError(description: "\(what): window \(window) with \(s.epochs.count) states (1…\(maxWindow), at most the states)")
        }
        guard s.kind.type != 9 || window >= 2 else { throw WriteError(description: "\(what): a Lagrange window needs two states") }
        for (a, b) in zip(s.epochs, s.epochs.dropFirst()) where !(b > a) {
            throw WriteError(description: "\(what): epochs must increase strictly (\(b) after \(a))")
        }
        guard s.epochs.allSatisfy(\.isFinite), s.states.allSatisfy({ $0.position.isFinite && $0.velocity.isFinite }) else {
            throw WriteError(description: "\(what): every epoch and state must be finite")
        }
        let start = s.startSeconds ?? s.epochs[0], end = s.endSeconds ?? s.epochs[s.epochs.count - 1]
        guard start <= end, start >= s.epochs[0], end <= s.epochs[s.epochs.count - 1] else {
            throw WriteError(description: "\(what): coverage \(start)…\(end) s must lie inside its epochs")
        }
    }

    static func printable(_ s: String) -> Bool { s.utf8.allSatisfy { (0x20...0x7E).contains($0) } }
}

/// The container of an SPK file (NAIF "DAF Required Reading"): the file record, the comment
/// area, the summary and name records, and where each segment's data goes — everything but
/// the data words, which the caller writes after ``headerBytes()`` in the segments' order, then
/// ``paddingBytes``. ``SPKKernelWriter`` writes through it; a caller that computes a large file
/// record by record (the server's SPK export) sends the data as it goes, without holding it.
public struct SPKFileLayout: Sendable {
    /// A segment as the summary records describe it: `words` doubles of data.
    public struct Summary: Sendable, Hashable {
        public var target: Int
        public var center: Int
        public var frame: Int
        public var type: Int
        public var startSeconds: Double
        public var endSeconds: Double
        public var name: String
        public var words: Int

        public init(target: Int, center: Int, frame: Int, type: Int, startSeconds: Double, endSeconds: Double, name: String, words: Int) {
            self.target = target
            self.center = center
            self.frame = frame
            self.type = type
            self.startSeconds = startSeconds
            self.endSeconds = endSeconds
            self.name = name
            self.words = words
        }
    }

    public let internalName: String
    public let comments: [String]
    public let segments: [Summary]
    /// The first data word's address (1-based, as DAF counts words).
    public let firstDataWord: Int
    /// The whole file's size: the header, the data and the last record's padding.
    public let totalBytes: Int
    let commentRecords: Int
    let summaryRecords: Int

    static let recordBytes = 1024
    static let wordsPerRecord = 128
    /// Summaries per summary record: (128 − 3) / (ND + (NI + 1) / 2) = 125 / 5.
    static let summariesPerRecord = 25
    static let commentBytesPerRecord = 1000

    public init(internalName: String, comments: [String], segments: [Summary]) throws(SPKKernelWriter.WriteError) {
        guard internalName.utf8.count <= 60, SPKKernelWriter.printable(internalName) else {
            throw SPKKernelWriter.WriteError(description: "internal name must be at most 60 printable ASCII characters")
        }
        for line in comments where !SPKKernelWriter.printable(line) {
            throw SPKKernelWriter.WriteError(description: "comment lines must be printable ASCII: \(line)")
        }
        for (n, s) in segments.enumerated() where s.name.utf8.count > 40 || !SPKKernelWriter.printable(s.name) || s.words < 1 {
            throw SPKKernelWriter.WriteError(description: "segment \(n + 1) (\(s.target) from \(s.center)): a name of at most 40 printable ASCII characters and some data")
        }
        self.internalName = internalName
        self.comments = comments
        self.segments = segments
        let commentBytes = comments.reduce(0) { $0 + $1.utf8.count + 1 } + 1
        commentRecords = (commentBytes + Self.commentBytesPerRecord - 1) / Self.commentBytesPerRecord
        summaryRecords = max(1, (segments.count + Self.summariesPerRecord - 1) / Self.summariesPerRecord)
        firstDataWord = (1 + commentRecords + 2 * summaryRecords) * Self.wordsPerRecord + 1
        let free = firstDataWord + segments.reduce(0) { $0 + $1.words }
        totalBytes = ((free - 1 + Self.wordsPerRecord - 1) / Self.wordsPerRecord) * Self.recordBytes
    }

    /// The bytes of the data words' last record that follow them (zeros).
    public var paddingBytes: [UInt8] {
        let dataBytes = segments.reduce(0) { $0 + $1.words } * 8
        return [UInt8](repeating: 0, count: totalBytes - (firstDataWord - 1) * 8 - dataBytes)
    }

    /// The file record, the comment area and the summary and name records.
    public func headerBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: (firstDataWord - 1) * 8)
        let firstSummary = 2 + commentRecords
        let free = firstDataWord + segments.reduce(0) { $0 + $1.words }

        // File record.
        Self.put(&out, "DAF/SPK ", at: 0, length: 8)
        Self.putInt(&out, 2, at: 8)
        Self.putInt(&out, 6, at: 12)
        Self.put(&out, internalName, at: 16, length: 60)
        Self.putInt(&out, firstSummary, at: 76)
        Self.putInt(&out, firstSummary + 2 * (summaryRecords - 1), at: 80)
        Self.putInt(&out, free, at: 84)
        Self.put(&out, "LTL-IEEE", at: 88, length: 8)
        out.replaceSubrange(DAFFile.ftpOffset..<(DAFFile.ftpOffset + DAFFile.ftpValidation.count), with: DAFFile.ftpValidation)

        // Comments: lines ended by NUL, the whole ended by EOT, 1000 characters per record.
        var comment: [UInt8] = []
        for line in comments { comment += Array(line.utf8) + [0] }
        comment.append(4)
        for k in 0..<commentRecords {
            let chunk = comment[(k * Self.commentBytesPerRecord)..<min(comment.count, (k + 1) * Self.commentBytesPerRecord)]
            out.replaceSubrange((k + 1) * Self.recordBytes..<((k + 1) * Self.recordBytes + chunk.count), with: chunk)
        }

        // Summaries and names, 25 to a record pair, chained forward and backward.
        var address = firstDataWord
        for r in 0..<summaryRecords {
            let record = firstSummary + 2 * r
            let base = (record - 1) * Self.recordBytes
            let next = r + 1 < summaryRecords ? record + 2 : 0
            let previous = r > 0 ? record - 2 : 0
            let slice = segments.indices.dropFirst(r * Self.summariesPerRecord).prefix(Self.summariesPerRecord)
            Self.putDouble(&out, Double(next), at: base)
            Self.putDouble(&out, Double(previous), at: base + 8)
            Self.putDouble(&out, Double(slice.count), at: base + 16)
            for (k, i) in slice.enumerated() {
                let s = segments[i]
                let at = base + 24 + k * 40
                Self.putDouble(&out, s.startSeconds, at: at)
                Self.putDouble(&out, s.endSeconds, at: at + 8)
                for (j, v) in [s.target, s.center, s.frame, s.type, address, address + s.words - 1].enumerated() {
                    Self.putInt(&out, v, at: at + 16 + 4 * j)
                }
                address += s.words
                Self.put(&out, s.name, at: base + Self.recordBytes + k * 40, length: 40)
            }
        }
        return out
    }

    static func put(_ out: inout [UInt8], _ s: String, at offset: Int, length: Int) {
        let b = Array(s.utf8.prefix(length)) + [UInt8](repeating: 0x20, count: max(0, length - s.utf8.count))
        out.replaceSubrange(offset..<(offset + length), with: b)
    }

    static func putInt(_ out: inout [UInt8], _ v: Int, at offset: Int) {
        withUnsafeBytes(of: UInt32(bitPattern: Int32(v)).littleEndian) { out.replaceSubrange(offset..<(offset + 4), with: $0) }
    }

    static func putDouble(_ out: inout [UInt8], _ v: Double, at offset: Int) {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { out.replaceSubrange(offset..<(offset + 8), with: $0) }
    }
}
