extension SPKKernel {
    /// One segment's words as the checks at open read them: indices relative to the segment
    /// (0 is its first word), every failure an ``SPKError`` naming the file and the segment
    /// (number, target, centre, type), so a damaged file says where it is damaged.
    ///
    /// The DAF directory has already put the segment inside the file, so every index below
    /// `count` is a word that exists.
    struct SegmentWords {
        let reader: ByteReader
        let file: String
        /// "segment 3 (-121 from 199, type 13)".
        let segment: String
        /// For a type 19 mini-segment: its number and the segment's count of them.
        let part: (number: Int, of: Int)?
        /// Byte offset of the segment's first word.
        let base: Int
        let count: Int

        init(reader: ByteReader, file: String, what: String, firstAddress: Int, lastAddress: Int) {
            self.reader = reader
            self.file = file
            segment = what
            part = nil
            base = (firstAddress - 1) * 8
            count = lastAddress - firstAddress + 1
        }

        /// Mini-segment `number` of `of`, words `start` ..< `start + count` of the segment.
        func miniSegment(_ number: Int, of total: Int, from start: Int, count: Int) -> SegmentWords {
            SegmentWords(reader: reader, file: file, segment: segment, part: (number, total), base: base + start * 8, count: count)
        }

        private init(reader: ByteReader, file: String, segment: String, part: (number: Int, of: Int)?, base: Int, count: Int) {
            self.reader = reader
            self.file = file
            self.segment = segment
            self.part = part
            self.base = base
            self.count = count
        }

        /// Where, in messages; built only when one is (a kernel may have thousands of parts).
        var what: String { part.map { "\(segment), mini-segment \($0.number) of \($0.of)" } ?? segment }

        @inline(__always) func offset(_ index: Int) -> Int { base + index * 8 }
        @inline(__always) func word(_ index: Int) -> Double { reader.double(at: offset(index)) }
        /// The `k`th word from the end: `fromEnd(1)` is the last.
        @inline(__always) func fromEnd(_ k: Int) -> Double { word(count - k) }

        func corrupt(_ problem: String) -> SPKError { SPKError(.corrupt, file: file, "\(what): \(problem)") }
        func unsupported(_ problem: String) -> SPKError { SPKError(.unsupported, file: file, "\(what): \(problem)") }

        /// A count, size or flag stored as a double: a whole number in `range`, else an error
        /// naming `name`.
        func whole(_ v: Double, _ name: @autoclosure () -> String, in range: ClosedRange<Int>) throws(SPKError) -> Int {
            guard let n = DAFFile.wholeNumber(v, in: range) else {
                throw corrupt("\(name()) \(v) is not a whole number in \(range.lowerBound)…\(range.upperBound)")
            }
            return n
        }

        /// Requires `words` words for a layout the segment's control words describe.
        func requireLength(_ words: Int, _ layout: @autoclosure () -> String) throws(SPKError) {
            guard words == count else {
                throw corrupt("\(layout()) take \(words) words, but the segment has \(count)")
            }
        }

        /// Checks a table of epochs: finite and strictly increasing, each directory entry equal
        /// to the epoch it stands for. `name` says what the epochs are in messages.
        func check(_ table: EpochTable, _ name: String) throws(SPKError) {
            var previous = -Double.infinity
            for i in 0..<table.count {
                let e = reader.double(at: table.offset + 8 * i)
                guard e.isFinite else { throw corrupt("\(name) \(i + 1) of \(table.count) is \(e)") }
                guard e > previous else {
                    throw corrupt("\(name) \(i + 1) of \(table.count) (\(e) s) does not follow \(name) \(i) (\(previous) s): not strictly increasing")
                }
                previous = e
            }
            for k in 0..<table.directoryCount {
                let entry = reader.double(at: table.directoryOffset + 8 * k)
                let epoch = reader.double(at: table.offset + 8 * (100 * (k + 1) - 1))
                guard entry.bitPattern == epoch.bitPattern else {
                    throw corrupt("directory entry \(k + 1) (\(entry) s) is not \(name) \(100 * (k + 1)) (\(epoch) s)")
                }
            }
        }

        /// Requires the segment's coverage inside `first…last` (the span its data can serve).
        func requireCoverage(_ start: Double, _ end: Double, inside first: Double, _ last: Double, _ data: String) throws(SPKError) {
            guard first <= start, end <= last else {
                throw corrupt("coverage \(start)…\(end) s is not inside the \(data) \(first)…\(last) s")
            }
        }
    }
}
