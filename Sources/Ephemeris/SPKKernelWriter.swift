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

        var type: Int {
            switch self {
            case .hermite: 13
            case .lagrange: 9
            }
        }

        /// What the trailer stores: window size − 1 for type 13, the degree for type 9 (the
        /// same number).
        var trailerValue: Int {
            switch self {
            case let .hermite(w), let .lagrange(w): w - 1
            }
        }

        var windowSize: Int {
            switch self {
            case let .hermite(w), let .lagrange(w): w
            }
        }
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

    static let recordBytes = 1024
    static let wordsPerRecord = 128
    /// Summaries per summary record: (128 − 3) / (ND + (NI + 1) / 2) = 125 / 5.
    static let summariesPerRecord = 25
    static let commentBytesPerRecord = 1000

    public func bytes() throws(WriteError) -> [UInt8] {
        guard internalName.utf8.count <= 60, Self.printable(internalName) else {
            throw WriteError(description: "internal name must be at most 60 printable ASCII characters")
        }
        for (n, s) in segments.enumerated() { try Self.check(s, number: n + 1) }

        // Comment area: lines ended by NUL, the whole ended by EOT, 1000 characters per record.
        var comment: [UInt8] = []
        for line in comments {
            guard Self.printable(line) else { throw WriteError(description: "comment lines must be printable ASCII: \(line)") }
            comment += Array(line.utf8) + [0]
        }
        comment.append(4)
        let commentRecords = (comment.count + Self.commentBytesPerRecord - 1) / Self.commentBytesPerRecord

        // Summary and name record pairs, then the data.
        let summaryRecords = max(1, (segments.count + Self.summariesPerRecord - 1) / Self.summariesPerRecord)
        let firstSummary = 2 + commentRecords
        var dataWords: [Double] = []
        var addresses: [(Int, Int)] = []
        let firstDataWord = (firstSummary - 1 + 2 * summaryRecords) * Self.wordsPerRecord + 1
        for s in segments {
            let words = Self.words(s)
            let begin = firstDataWord + dataWords.count
            addresses.append((begin, begin + words.count - 1))
            dataWords += words
        }
        let free = firstDataWord + dataWords.count
        let totalRecords = (free - 1 + Self.wordsPerRecord - 1) / Self.wordsPerRecord
        var out = [UInt8](repeating: 0, count: totalRecords * Self.recordBytes)

        // File record.
        put(&out, "DAF/SPK ", at: 0, length: 8)
        putInt(&out, 2, at: 8)
        putInt(&out, 6, at: 12)
        put(&out, internalName, at: 16, length: 60)
        putInt(&out, firstSummary, at: 76)
        putInt(&out, firstSummary + 2 * (summaryRecords - 1), at: 80)
        putInt(&out, free, at: 84)
        put(&out, "LTL-IEEE", at: 88, length: 8)
        out.replaceSubrange(DAFFile.ftpOffset..<(DAFFile.ftpOffset + DAFFile.ftpValidation.count), with: DAFFile.ftpValidation)

        // Comments.
        for k in 0..<commentRecords {
            let chunk = comment[(k * Self.commentBytesPerRecord)..<min(comment.count, (k + 1) * Self.commentBytesPerRecord)]
            out.replaceSubrange((k + 1) * Self.recordBytes..<((k + 1) * Self.recordBytes + chunk.count), with: chunk)
        }

        // Summaries and names, 25 to a record pair, chained forward and backward.
        for r in 0..<summaryRecords {
            let record = firstSummary + 2 * r
            let base = (record - 1) * Self.recordBytes
            let next = r + 1 < summaryRecords ? record + 2 : 0
            let previous = r > 0 ? record - 2 : 0
            let slice = segments.indices.dropFirst(r * Self.summariesPerRecord).prefix(Self.summariesPerRecord)
            putDouble(&out, Double(next), at: base)
            putDouble(&out, Double(previous), at: base + 8)
            putDouble(&out, Double(slice.count), at: base + 16)
            for (k, i) in slice.enumerated() {
                let s = segments[i]
                let at = base + 24 + k * 40
                putDouble(&out, s.startSeconds ?? s.epochs[0], at: at)
                putDouble(&out, s.endSeconds ?? s.epochs[s.epochs.count - 1], at: at + 8)
                for (j, v) in [s.target, s.center, s.frame, s.kind.type, addresses[i].0, addresses[i].1].enumerated() {
                    putInt(&out, v, at: at + 16 + 4 * j)
                }
                put(&out, s.name, at: base + Self.recordBytes + k * 40, length: 40)
            }
        }

        // Data.
        for (k, v) in dataWords.enumerated() { putDouble(&out, v, at: (firstDataWord - 1 + k) * 8) }
        return out
    }

    /// States, epochs, the directory of every 100th epoch, the trailer.
    static func words(_ s: Segment) -> [Double] {
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

    func put(_ out: inout [UInt8], _ s: String, at offset: Int, length: Int) {
        let b = Array(s.utf8.prefix(length)) + [UInt8](repeating: 0x20, count: max(0, length - s.utf8.count))
        out.replaceSubrange(offset..<(offset + length), with: b)
    }

    func putInt(_ out: inout [UInt8], _ v: Int, at offset: Int) {
        withUnsafeBytes(of: UInt32(bitPattern: Int32(v)).littleEndian) { out.replaceSubrange(offset..<(offset + 4), with: $0) }
    }

    func putDouble(_ out: inout [UInt8], _ v: Double, at offset: Int) {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { out.replaceSubrange(offset..<(offset + 8), with: $0) }
    }
}
