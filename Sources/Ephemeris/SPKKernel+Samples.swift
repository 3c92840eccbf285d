extension SPKKernel {
    /// The epochs (TDB seconds past J2000) of the states a segment stores, for the types that
    /// store discrete states (8, 9, 12 and 13): the data's own samples, where a copy of the
    /// segment must agree with it exactly. Only the epochs inside the segment's coverage;
    /// nil for the other types (Chebyshev series, difference lines, ESA packets), whose data
    /// are continuous.
    ///
    /// ```swift
    /// let i = surface.segments.firstIndex { $0.target == -168 }!
    /// surface.stateEpochs(segment: i)?.count   // 730: the rover's localizations
    /// ```
    public func stateEpochs(segment index: Int) -> [Double]? {
        guard segments.indices.contains(index), case let .discreteStates(m) = models[index] else { return nil }
        let s = segments[index]
        let all: [Double]
        if let table = m.epochs {
            all = (0..<table.count).map { table.epoch(reader, $0) }
        } else {
            all = (0..<m.count).map { m.start + Double($0) * m.step }
        }
        return all.filter { $0 >= s.startSeconds && $0 <= s.endSeconds }
    }
}
