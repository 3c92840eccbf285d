extension SPKKernel {
    /// SPK type 18 (ESOC/DDID Hermite or Lagrange interpolation) and each mini-segment of a
    /// type 19: packets at strictly increasing epochs, interpolated over a window that keeps the
    /// epoch between its two middle packets and shrinks, rather than shifts, near the ends
    /// (SPKR18/SPKR19; NAIF "SPK Required Reading").
    ///
    /// Layout: N packets, N epochs, a directory of every 100th epoch ((N−1)/100 entries), then
    /// subtype, window size and N. Subtypes:
    /// - 0: 12-number packets (position, its rate, velocity, its rate): position by Hermite
    ///   interpolation of position and the first rate, velocity by Hermite interpolation of
    ///   velocity and acceleration — two independent polynomials.
    /// - 1: 6-number states, each component its own Lagrange polynomial.
    /// - 2: 6-number states, Hermite on position and velocity; velocity is the derivative.
    ///
    /// NAIF defines subtype 2 for type 19 only (N0067's SPKR18 refuses it); a type 18 segment
    /// of subtype 2 is read the way its type 19 mini-segment twin would be, with the Hermite
    /// window limit of subtype 0.
    struct ESAPackets: Sendable {
        let subtype: Int
        let packetWords: Int
        let packetsOffset: Int
        let count: Int
        let window: Int
        let epochs: EpochTable

        /// Largest windows per subtype: degree 15 for type 18 (SPKR18), 27 for type 19 (SPKR19).
        static func maxWindow(subtype: Int, type19: Bool) -> Int {
            let degree = type19 ? 27 : 15
            return subtype == 1 ? degree + 1 : (degree + 1) / 2
        }

        /// Reads and checks a type 18 segment, whose coverage its packets must span.
        init(type18 w: SegmentWords, start: Double, end: Double) throws(SPKError) {
            try self.init(w, type19: false)
            try w.requireCoverage(start, end, inside: epochs.epoch(w.reader, 0), epochs.epoch(w.reader, count - 1), "packets' epochs")
        }

        /// Reads and checks a type 18 segment or a type 19 mini-segment (`w` spans exactly it).
        init(_ w: SegmentWords, type19: Bool) throws(SPKError) {
            guard w.count >= 3 else { throw w.corrupt("\(w.count) words, too short for its control words") }
            let subtype = w.fromEnd(3)
            guard let sub = DAFFile.wholeNumber(subtype, in: 0...2) else {
                // A whole number may be a subtype from a later toolkit; anything else is damage.
                let problem = "subtype \(subtype); NAIF defines 0 (Hermite, 12-number packets), 1 (Lagrange) and 2 (Hermite, 6-number packets)"
                throw DAFFile.wholeNumber(subtype, in: 3...Int(Int32.max)) != nil ? w.unsupported(problem) : w.corrupt(problem)
            }
            self.subtype = sub
            packetWords = sub == 0 ? 12 : 6
            let most = Self.maxWindow(subtype: sub, type19: type19)
            let window = try w.whole(w.fromEnd(2), "window size", in: 2...most)
            guard window & 1 == 0 else { throw w.corrupt("window size \(window) is odd; subtype \(sub) needs an even window") }
            self.window = window
            let n = try w.whole(w.fromEnd(1), "packet count", in: 2...max(2, w.count / (packetWords + 1)))
            count = n
            let directory = (n - 1) / 100
            try w.requireLength(n * (packetWords + 1) + directory + 3, "\(n) packets of \(packetWords) words, their epochs, a \(directory)-entry directory and the control words")
            packetsOffset = w.offset(0)
            epochs = EpochTable(offset: w.offset(n * packetWords), count: n, directoryOffset: w.offset(n * (packetWords + 1)), directoryCount: directory)
            try w.check(epochs, "epoch")
        }

        /// Position (km) and velocity (km/s) at `t`.
        func state(_ r: ByteReader, _ t: Double, velocity wanted: Bool) -> (Vector3, Vector3) {
            // low/high bracket t (low the last epoch before it, or the first); the window takes
            // up to window/2 packets on each side, fewer at the ends.
            let low = min(max(epochs.countBefore(r, t), 1), count - 1) - 1, high = low + 1
            let half = window / 2
            let left = min(half, low + 1), right = min(half, count - high)
            let first = low - left + 1, n = left + right
            let packets = packetsOffset + first * packetWords * 8
            // Scratch: the abscissae, then 3 axes of Lagrange values, or of Hermite values and
            // rates and the 6 columns of their tableau.
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: subtype == 1 ? 4 * n : 19 * n) { buffer in
                let xs = buffer.baseAddress!
                for k in 0..<n { xs[k] = epochs.epoch(r, first + k) }
                if subtype == 1 {
                    let position = lagrange(r, packets, 0, n, xs, t)
                    // (An if, not a conditional expression: Swift 6.3's IRGen crashes on the latter here.)
                    if !wanted { return (position, Vector3(.nan, .nan, .nan)) }
                    return (position, lagrange(r, packets, 3, n, xs, t))
                }
                // Position (and for subtype 2 velocity) from positions and their rates; subtype 0
                // interpolates velocity and acceleration (words 6…11) separately.
                let s = hermite(r, packets, 0, n, xs, t)
                if subtype == 0, wanted { return (s.value, hermite(r, packets, 6, n, xs, t).value) }
                return (s.value, s.derivative)
            }
        }

        /// The three Lagrange polynomials through packet words `from`…`from`+2 of the window's
        /// `n` packets (abscissae `xs`), at `t`; scratch after `xs`.
        @inline(__always)
        private func lagrange(_ r: ByteReader, _ packets: Int, _ from: Int, _ n: Int, _ xs: UnsafeMutablePointer<Double>, _ t: Double) -> Vector3 {
            let ys = xs + n
            for c in 0..<3 {
                for k in 0..<n { ys[c * n + k] = r.double(at: packets + 8 * (packetWords * k + from + c)) }
            }
            return Interpolation.lagrange(n, xs, ys, t)
        }

        /// The Hermite polynomials through packet words `from`…`from`+2 (values) and the three
        /// after them (rates).
        @inline(__always)
        private func hermite(_ r: ByteReader, _ packets: Int, _ from: Int, _ n: Int, _ xs: UnsafeMutablePointer<Double>, _ t: Double) -> (value: Vector3, derivative: Vector3) {
            let f = xs + n, df = f + 3 * n
            for c in 0..<3 {
                for k in 0..<n {
                    f[c * n + k] = r.double(at: packets + 8 * (packetWords * k + from + c))
                    df[c * n + k] = r.double(at: packets + 8 * (packetWords * k + from + 3 + c))
                }
            }
            return Interpolation.hermite(n, xs, f, df, df + 3 * n, t)
        }
    }

    /// SPK type 19 (ESOC/DDID piecewise interpolation): a sequence of interpolation intervals,
    /// each served by its own type 18-like mini-segment (subtype, window, padding packets of its
    /// own). Layout after the mini-segments: the N+1 interval boundaries, their directory
    /// (N/100 entries), N+1 mini-segment pointers (1-based word indices in the segment; the last
    /// points just past the last mini-segment), the boundary flag and N.
    ///
    /// An epoch on a boundary between two intervals goes to the later one when the flag is 1,
    /// else to the earlier (SPKW19 writes −1; the Required Reading says 0: both are read so).
    struct PiecewiseESA: Sendable {
        let boundaries: EpochTable
        let laterAtBoundary: Bool
        let intervals: [ESAPackets]

        /// Reads and checks a type 19 segment and every mini-segment in it.
        init(_ w: SegmentWords, start: Double, end: Double) throws(SPKError) {
            guard w.count >= 2 else { throw w.corrupt("\(w.count) words, too short for a type 19 segment") }
            let n = try w.whole(w.fromEnd(1), "interval count", in: 1...max(1, (w.count - 2) / 2))
            let flag = try w.whole(w.fromEnd(2), "boundary flag", in: -1...1)
            laterAtBoundary = flag == 1
            let directory = n / 100
            // From the end: count, flag, pointers, directory, boundaries; the mini-segments before.
            let pointersAt = w.count - 2 - (n + 1)
            let boundariesAt = pointersAt - directory - (n + 1)
            guard boundariesAt >= 1 else {
                throw w.corrupt("\(n) intervals need \(2 * (n + 1) + directory + 2) words of tables, more than the segment's \(w.count)")
            }
            boundaries = EpochTable(offset: w.offset(boundariesAt), count: n + 1, directoryOffset: w.offset(boundariesAt + n + 1), directoryCount: directory)
            try w.check(boundaries, "interval boundary")
            try w.requireCoverage(start, end, inside: boundaries.epoch(w.reader, 0), boundaries.epoch(w.reader, n), "intervals")
            var pointers: [Int] = []
            pointers.reserveCapacity(n + 1)
            for k in 0...n {
                // 1-based, strictly increasing, every mini-segment before the boundary table.
                let v = w.word(pointersAt + k)
                let pointer = try w.whole(v, "mini-segment pointer \(k + 1) of \(n + 1)", in: 1...(boundariesAt + 1))
                if k > 0, pointer <= pointers[k - 1] {
                    throw w.corrupt("mini-segment pointer \(k + 1) of \(n + 1) (\(pointer)) does not follow pointer \(k) (\(pointers[k - 1]))")
                }
                pointers.append(pointer)
            }
            var list: [ESAPackets] = []
            list.reserveCapacity(n)
            for k in 0..<n {
                let part = w.miniSegment(k + 1, of: n, from: pointers[k] - 1, count: pointers[k + 1] - pointers[k])
                let mini = try ESAPackets(part, type19: true)
                // The interval must lie within the mini-segment's epochs (padding may extend them).
                let b0 = boundaries.epoch(w.reader, k), b1 = boundaries.epoch(w.reader, k + 1)
                let e0 = mini.epochs.epoch(w.reader, 0), e1 = mini.epochs.epoch(w.reader, mini.count - 1)
                guard e0 <= b0, b1 <= e1 else {
                    throw part.corrupt("interval \(b0)…\(b1) s is not inside its epochs \(e0)…\(e1) s")
                }
                list.append(mini)
            }
            intervals = list
        }

        /// The interval (0-based) serving `t`; outside the boundaries, the nearest one.
        @inline(__always) func interval(_ r: ByteReader, _ t: Double) -> Int {
            let n = intervals.count
            if laterAtBoundary {
                // The last interval whose start is at or before t.
                return min(max(boundaries.countAtOrBefore(r, t), 1), n) - 1
            }
            // The first interval whose end is at or after t: one past the boundaries before t.
            return min(max(boundaries.countBefore(r, t), 1), n) - 1
        }

        func state(_ r: ByteReader, _ t: Double, velocity: Bool) -> (Vector3, Vector3) {
            intervals[interval(r, t)].state(r, t, velocity: velocity)
        }
    }
}
