extension SPKKernel {
    /// Reads every number of every evaluated segment once and throws, naming the file, the
    /// segment and the record or word, where one could make an answer non-finite: a Chebyshev
    /// record whose midpoint or radius is not where the segment's trailer puts it (a radius of
    /// 0 or a NaN midpoint makes every epoch in the record NaN), a coefficient or any other
    /// number that is not finite or is larger than ``maxDataMagnitude``. Opening a kernel checks
    /// what its lookups rely on (the directory, sizes, epochs, the first and last records); this
    /// checks the rest, the interior a damaged or swapped file may break. It reads the whole
    /// file: the server runs it once per kernel it loads, before serving from it.
    public func checkData() throws(SPKError) {
        let r = reader
        for (index, segment) in segments.enumerated() where segment.isEvaluated {
            var what: String { "segment \(index + 1) (\(segment.target) from \(segment.center), type \(segment.type))" }
            let s = records[index]
            if s.type == 2 || s.type == 3 {
                for k in 0..<s.recordCount {
                    let at = s.dataOffset + k * s.recordWords * 8
                    let mid = r.double(at: at), radius = r.double(at: at + 8)
                    let expected = s.initialSeconds + (Double(k) + 0.5) * s.intervalSeconds
                    guard mid.isFinite, radius.isFinite, abs(mid - expected) <= 1e-6 * s.intervalSeconds + 1e-3,
                          abs(radius - s.intervalSeconds / 2) <= 1e-6 * s.intervalSeconds + 1e-3
                    else {
                        throw SPKError(.corrupt, file: file, "\(what): record \(k + 1) of \(s.recordCount) has midpoint \(mid) s and radius \(radius) s, expected \(expected) s and \(s.intervalSeconds / 2) s")
                    }
                    if let w = Self.firstOutOfRange(r, from: at + 16, words: s.recordWords - 2) {
                        throw SPKError(.corrupt, file: file, "\(what): record \(k + 1) of \(s.recordCount), coefficient \(w + 1) is \(r.double(at: at + 16 + 8 * w)), not a finite number below \(Self.maxDataMagnitude)")
                    }
                }
            } else {
                let (first, last) = dataAddresses[index]
                if let w = Self.firstOutOfRange(r, from: (first - 1) * 8, words: last - first + 1) {
                    throw SPKError(.corrupt, file: file, "\(what): word \(w + 1) of its data is \(r.double(at: (first - 1 + w) * 8)), not a finite number below \(Self.maxDataMagnitude)")
                }
            }
        }
    }

    /// The index of the first of `words` doubles from byte `offset` that is not finite or is
    /// larger than ``maxDataMagnitude``, or nil: a test of the bits (the exponent field), no
    /// conversion, so a 100 MB kernel is read at memory speed.
    static func firstOutOfRange(_ r: ByteReader, from offset: Int, words: Int) -> Int? {
        // |x| ≤ 1e20 ⟺ its biased exponent ≤ that of 1e20's, and not above 1e20 in that binade.
        let limitBits = maxDataMagnitude.bitPattern
        for i in 0..<words {
            let raw = r.base.loadUnaligned(fromByteOffset: offset + 8 * i, as: UInt64.self)
            let bits = (r.bigEndian ? raw.byteSwapped : raw) & 0x7FFF_FFFF_FFFF_FFFF
            if bits > limitBits { return i }
        }
        return nil
    }
}
