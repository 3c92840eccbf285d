extension SPKKernel {
    /// A segment's list of epochs with NAIF's directory of every 100th one after it (types 1,
    /// 9, 13, 18, 19 and 21 store their time tags so). An epoch is placed by a binary search of
    /// the directory and then of the hundred epochs it points to, so a lookup reads about
    /// log₂ N words on two or three pages, never the whole list.
    ///
    /// Only the offsets are kept; the bytes stay in the kernel. `SegmentWords.check` has made
    /// the epochs finite and strictly increasing and the directory agree with them, which is
    /// what makes the counts below exact; the searches stay inside the table whatever it holds.
    struct EpochTable: Sendable {
        /// Byte offset of the first epoch.
        let offset: Int
        let count: Int
        /// Byte offset of the directory: entry k is epoch 100·(k+1) (1-based).
        let directoryOffset: Int
        let directoryCount: Int

        @inline(__always) func epoch(_ r: ByteReader, _ index: Int) -> Double { r.double(at: offset + 8 * index) }

        /// Epochs strictly before `t` (0…count); NaN counts none.
        @inline(__always) func countBefore(_ r: ByteReader, _ t: Double) -> Int {
            count(r) { $0 < t }
        }

        /// Epochs at or before `t` (0…count); NaN counts none.
        @inline(__always) func countAtOrBefore(_ r: ByteReader, _ t: Double) -> Int {
            count(r) { $0 <= t }
        }

        /// How many leading epochs satisfy `before` (a test that holds for a prefix).
        @inline(__always) private func count(_ r: ByteReader, _ before: (Double) -> Bool) -> Int {
            // Directory entries that are before: they cover whole blocks of 100 epochs.
            var lo = 0, hi = directoryCount
            while lo < hi {
                let mid = (lo + hi) >> 1
                if before(r.double(at: directoryOffset + 8 * mid)) { lo = mid + 1 } else { hi = mid }
            }
            // Epoch 100·lo − 1 is before; the answer lies in the next block of 100.
            var a = lo * 100, b = min(count, a + 100)
            while a < b {
                let mid = (a + b) >> 1
                if before(r.double(at: offset + 8 * mid)) { a = mid + 1 } else { b = mid }
            }
            return a
        }
    }
}

/// `v` as an index in `lo…hi` (clamped; NaN gives `lo`) without the trap of `Int(_:)` on NaN,
/// infinities or huge values: evaluation epochs are anything a caller passes.
@inline(__always) func clampedIndex(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
    v >= Double(lo) ? (v <= Double(hi) ? Int(v) : hi) : lo
}
