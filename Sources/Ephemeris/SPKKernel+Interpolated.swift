extension SPKKernel {
    /// SPK types 8, 9, 12 and 13: a table of states (x, y, z, ẋ, ẏ, ż) interpolated over a
    /// sliding window of consecutive states (NAIF "SPK Required Reading"; SPKR08/SPKR09 choose
    /// the window, SPKE08/09/12/13 evaluate it).
    ///
    /// - 8 and 9 (Lagrange): every component, velocity included, is its own polynomial of the
    ///   stored degree through the window (window = degree + 1).
    /// - 12 and 13 (Hermite): each position axis is the polynomial of degree 2·window − 1
    ///   matching the window's positions and velocities; velocity is its derivative.
    /// - 8 and 12 are equally spaced (first epoch and step after the states); 9 and 13 list
    ///   their epochs after the states, with a directory of every 100th ((N−1)/100 entries).
    ///
    /// The window is centred on the epoch: an odd window on the nearest state, an even one so
    /// that the epoch lies between its two middle states; near the ends it keeps its size and
    /// shifts to include the first or last state.
    struct DiscreteStates: Sendable {
        let hermite: Bool
        let statesOffset: Int
        let count: Int
        let window: Int
        /// Equal steps (types 8, 12): the first state's epoch and the step; `epochs` is nil.
        let start: Double
        let step: Double
        /// Unequal steps (types 9, 13).
        let epochs: EpochTable?

        /// Largest window: degree 27 (SPKW08/09), or 14 states for Hermite degree 27 (SPKW12/13).
        static func maxWindow(hermite: Bool) -> Int { hermite ? 14 : 28 }

        /// Reads and checks a type 8, 9, 12 or 13 segment.
        init(_ w: SegmentWords, type: Int, start segmentStart: Double, end segmentEnd: Double) throws(SPKError) {
            hermite = type == 12 || type == 13
            let equal = type == 8 || type == 12
            let trailer = equal ? 4 : 2
            guard w.count >= trailer + 6 else { throw w.corrupt("\(w.count) words, too short for a type \(type) segment") }
            let n = try w.whole(w.fromEnd(1), "state count", in: 1...(w.count / 6))
            // Types 8/9 store the degree (window − 1), 12/13 the window size − 1.
            let stored = w.fromEnd(2)
            let window = hermite
                ? try w.whole(stored, "window size − 1", in: 0...(Self.maxWindow(hermite: true) - 1)) + 1
                : try w.whole(stored, "polynomial degree", in: 1...(Self.maxWindow(hermite: false) - 1)) + 1
            guard n >= window else { throw w.corrupt("\(n) states, fewer than the interpolation window of \(window)") }
            count = n
            self.window = window
            statesOffset = w.offset(0)
            if equal {
                try w.requireLength(6 * n + 4, "\(n) states and the trailer")
                let first = w.fromEnd(4), step = w.fromEnd(3)
                guard first.isFinite, step.isFinite, step > 0 else { throw w.corrupt("first epoch \(first) s, step \(step) s") }
                start = first
                self.step = step
                epochs = nil
                let last = first + Double(n - 1) * step
                // A millionth of a step of slack, for writers that round the coverage.
                guard segmentStart >= first - 1e-6 * step, segmentEnd <= last + 1e-6 * step else {
                    throw w.corrupt("coverage \(segmentStart)…\(segmentEnd) s is not inside the states' epochs \(first)…\(last) s")
                }
            } else {
                let directory = (n - 1) / 100
                try w.requireLength(7 * n + directory + 2, "\(n) states, their epochs, a \(directory)-entry directory and the trailer")
                let table = EpochTable(offset: w.offset(6 * n), count: n, directoryOffset: w.offset(7 * n), directoryCount: directory)
                try w.check(table, "epoch")
                try w.requireCoverage(segmentStart, segmentEnd, inside: table.epoch(w.reader, 0), table.epoch(w.reader, n - 1), "states' epochs")
                epochs = table
                start = 0
                step = 0
            }
        }

        /// Index (0-based) of the window's first state for `t`, as SPKR08/SPKR09 choose it.
        @inline(__always) func firstState(_ r: ByteReader, _ t: Double) -> Int {
            let half = (window - 1) / 2, lastFirst = count - window
            guard let epochs else {
                let u = (t - start) / step
                // Odd: the nearest state (ties away from zero, Fortran's NINT); even: the last
                // state at or before t (INT, toward zero) as the window's (window/2)th.
                let pivot = window & 1 == 1 ? u.rounded(.toNearestOrAwayFromZero) : u.rounded(.towardZero)
                return clampedIndex(pivot - Double(half), 0, lastFirst)
            }
            guard count > 1 else { return 0 }
            // low/high: the states bracketing t (low the last before it, or the first state).
            let before = epochs.countBefore(r, t)
            let low = min(max(before, 1), count - 1) - 1, high = low + 1
            var pivot = low
            if window & 1 == 1, before > 0, !(abs(t - epochs.epoch(r, low)) < abs(t - epochs.epoch(r, high))) {
                pivot = high
            }
            return min(max(pivot - half, 0), lastFirst)
        }

        /// Position (km) and velocity (km/s) at `t`; the velocity only when asked for (Lagrange
        /// velocity is three more polynomials, Hermite's a derivative carried through the tableau;
        /// NaN when not asked for).
        func state(_ r: ByteReader, _ t: Double, velocity wanted: Bool) -> (Vector3, Vector3) {
            let first = firstState(r, t)
            let n = window
            let states = statesOffset + first * 48
            // Scratch: the abscissae, then 3 axes of Lagrange values, or of Hermite values and
            // rates and the 6 columns of their tableau.
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: hermite ? 19 * n : 4 * n) { buffer in
                let xs = buffer.baseAddress!
                // Abscissae: epochs, or for equal steps the unit steps 0…n−1 from the window's
                // first epoch (as LGRESP/HRMESP scale them).
                var x = t
                if let epochs {
                    for k in 0..<n { xs[k] = epochs.epoch(r, first + k) }
                } else {
                    for k in 0..<n { xs[k] = Double(k) }
                    x = (t - (start + Double(first) * step)) / step
                }
                if hermite {
                    // Rates per unit step when the abscissae are unit steps.
                    let scale = epochs == nil ? step : 1
                    let f = xs + n, df = f + 3 * n
                    for c in 0..<3 {
                        for k in 0..<n {
                            f[c * n + k] = r.double(at: states + 48 * k + 8 * c)
                            df[c * n + k] = r.double(at: states + 48 * k + 8 * (c + 3)) * scale
                        }
                    }
                    let s = Interpolation.hermite(n, xs, f, df, df + 3 * n, x, derivative: wanted)
                    return (s.value, s.derivative / scale)
                }
                let position = lagrange(r, states, 0, n, xs, x)
                // (An if, not a conditional expression: Swift 6.3's IRGen crashes on the latter here.)
                if !wanted { return (position, Vector3(.nan, .nan, .nan)) }
                return (position, lagrange(r, states, 3, n, xs, x))
            }
        }

        /// The three Lagrange polynomials through state components `from`…`from`+2 of the
        /// window's `n` states, at `x`; scratch after `xs`.
        @inline(__always)
        private func lagrange(_ r: ByteReader, _ states: Int, _ from: Int, _ n: Int, _ xs: UnsafeMutablePointer<Double>, _ x: Double) -> Vector3 {
            let ys = xs + n
            for c in 0..<3 {
                for k in 0..<n { ys[c * n + k] = r.double(at: states + 48 * k + 8 * (from + c)) }
            }
            return epochs == nil ? Interpolation.lagrangeUnitSteps(n, ys, x) : Interpolation.lagrange(n, xs, ys, x)
        }
    }
}

extension Vector3 {
    /// A component by index (0 x, 1 y, 2 z), for loops over axes.
    @inline(__always) subscript(axis i: Int) -> Double {
        get { i == 0 ? x : (i == 1 ? y : z) }
        set {
            switch i {
            case 0: x = newValue
            case 1: y = newValue
            default: z = newValue
            }
        }
    }
}
