extension SPKKernel {
    /// SPK types 1 and 21: modified difference arrays ("difference lines") from JPL's orbit
    /// determination, each valid up to its final epoch (NAIF "SPK Required Reading"; the
    /// evaluation is F. Krogh's, as in SPKE01/SPKE21).
    ///
    /// A record of MAXDIM-term tables (15 for type 1; 15…25 for type 21, stored before N) has
    /// 4·MAXDIM + 11 words: the reference epoch TL, the step-size vector G, the reference
    /// position and velocity interleaved (x, ẋ, y, ẏ, z, ż), the difference tables DT (MAXDIM
    /// per axis), KQMAX1 and the three orders KQ. After the records come their final epochs,
    /// a directory of every 100th (N/100 entries), [MAXDIM,] N.
    ///
    /// The record for an epoch is the first whose final epoch is not before it (an epoch on a
    /// boundary belongs to the earlier record); past the last, the last serves.
    struct DifferenceLines: Sendable {
        let recordsOffset: Int
        let recordWords: Int
        let maxdim: Int
        let epochs: EpochTable
        /// The integration order plus one is at most this (15 for type 1, whose evaluator's
        /// arrays allow no more; MAXDIM + 1 for type 21).
        let maxOrder: Int

        /// Reads and checks a type 1 or 21 segment: its layout against its length, every
        /// record's orders and step sizes, the epochs and directory, the coverage.
        init(_ w: SegmentWords, type: Int, start: Double, end: Double) throws(SPKError) {
            let trailer = type == 1 ? 1 : 2
            guard w.count >= trailer + 1 else { throw w.corrupt("\(w.count) words, too short for a type \(type) segment") }
            let maxdim = type == 1 ? 15 : try w.whole(w.fromEnd(2), "difference table size MAXDIM", in: 15...25)
            let recordWords = 4 * maxdim + 11
            let n = try w.whole(w.fromEnd(1), "record count", in: 1...max(1, w.count / (recordWords + 1)))
            try w.requireLength(n * (recordWords + 1) + n / 100 + trailer, "\(n) records of \(recordWords) words, their epochs, a \(n / 100)-entry directory and the trailer")
            self.maxdim = maxdim
            self.recordWords = recordWords
            recordsOffset = w.offset(0)
            maxOrder = type == 1 ? 15 : maxdim + 1
            epochs = EpochTable(offset: w.offset(n * recordWords), count: n, directoryOffset: w.offset(n * (recordWords + 1)), directoryCount: n / 100)
            try w.check(epochs, "final epoch")
            // The first record reaches back as far as the coverage starts; the last ends the data.
            let lastEpoch = epochs.epoch(w.reader, n - 1)
            guard end <= lastEpoch else { throw w.corrupt("coverage ends at \(end) s, after the last record's final epoch \(lastEpoch) s") }
            for k in 0..<n {
                let at = k * recordWords
                func record() -> String { "record \(k + 1) of \(n)" }
                let tl = w.word(at)
                guard tl.isFinite else { throw w.corrupt("\(record()): reference epoch \(tl)") }
                let kqmax1 = try w.whole(w.word(at + 4 * maxdim + 7), "\(record()): integration order + 1 (KQMAX1)", in: 2...maxOrder)
                for axis in 0..<3 {
                    _ = try w.whole(w.word(at + 4 * maxdim + 8 + axis), "\(record()): order of axis \(axis + 1) (KQ)", in: 0...min(kqmax1 - 1, maxdim))
                }
                // The evaluation divides by the first KQMAX1 − 2 step sizes.
                for j in 0..<(kqmax1 - 2) {
                    let g = w.word(at + 1 + j)
                    guard g.isFinite, g != 0 else { throw w.corrupt("\(record()): step size \(j + 1) is \(g)") }
                }
            }
        }

        /// Position (km) and velocity (km/s) at `t`.
        func state(_ r: ByteReader, _ t: Double) -> (Vector3, Vector3) {
            let k = min(epochs.countBefore(r, t), epochs.count - 1)
            let at = recordsOffset + k * recordWords * 8
            let m = maxdim
            @inline(__always) func word(_ i: Int) -> Double { r.double(at: at + 8 * i) }
            // Checked at open; clamped again so no value can index outside the buffers.
            let kqmax1 = clampedIndex(word(4 * m + 7), 2, maxOrder)
            let delta = t - word(0)
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * (m + 3)) { buffer in
                // 1-based as in Krogh's formulation: fc[1…], wc[1…], w[1…kqmax1].
                let base = buffer.baseAddress!
                let fc = base, wc = base + (m + 3), w = base + 2 * (m + 3)
                let mq2 = kqmax1 - 2
                var tp = delta
                fc[1] = 1
                var j = 1
                while j <= mq2 {
                    let g = word(j)
                    fc[j + 1] = tp / g
                    wc[j] = delta / g
                    tp = delta + g
                    j += 1
                }
                j = 1
                while j <= kqmax1 {
                    w[j] = 1 / Double(j)
                    j += 1
                }
                // One pass of w[j+ks] = fc[j+1]·w[j+ks−1] − wc[j]·w[j+ks], j = 1…jx. Each term
                // uses the one just computed: kept in a register, not read back from memory
                // (a load straddling the last store stalls on store forwarding).
                @inline(__always) func pass(_ ks: Int, _ jx: Int) {
                    var previous = w[ks]
                    var j = 1
                    while j <= jx {
                        let value = fc[j + 1] * previous - wc[j] * w[j + ks]
                        w[j + ks] = value
                        previous = value
                        j += 1
                    }
                }
                // Integrate the difference table down to the orders position needs …
                var ks = kqmax1 - 1, jx = 0
                while ks >= 2 {
                    jx += 1
                    pass(ks, jx)
                    ks -= 1
                }
                func sum(_ axis: Int, _ shift: Int) -> Double {
                    let kq = clampedIndex(word(4 * m + 8 + axis), 0, min(kqmax1 - 1, m))
                    let dt = m + 6 + axis * m // DT(i, axis) is word dt + i: after TL, G and the six references
                    var s = 0.0
                    var i = kq
                    while i >= 1 {
                        s += word(dt + i) * w[i + shift]
                        i -= 1
                    }
                    return s
                }
                let shift = ks
                func position(_ axis: Int) -> Double {
                    word(m + 1 + 2 * axis) + delta * (word(m + 2 + 2 * axis) + delta * sum(axis, shift))
                }
                let p = Vector3(position(0), position(1), position(2))
                // … and once more for velocity.
                pass(ks, jx)
                func velocity(_ axis: Int) -> Double { word(m + 2 + 2 * axis) + delta * sum(axis, shift - 1) }
                return (p, Vector3(velocity(0), velocity(1), velocity(2)))
            }
        }
    }
}
