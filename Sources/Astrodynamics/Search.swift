/// The one-dimensional searches the mission recipes solve with: bisection of a bracketed sign
/// change, a scan for the first bracket, and golden-section minimisation.
///
/// Each keeps the exact sequence of trial points of the loops it replaced (midpoints `(lo + hi) / 2`,
/// the golden ratio `(√5 − 1) / 2`), so a recipe built on them reproduces its kernels bit for bit.
public enum Search {
    /// What a bisection step learned at a trial point.
    public enum Side: Sendable, Equatable {
        /// The sought point lies above the trial point: it becomes the lower end.
        case above
        /// The sought point lies at or below the trial point: it becomes the upper end.
        case below
        /// The trial point is good enough: stop here.
        case found
    }

    /// Halves `lo...hi` up to `iterations` times, keeping the half `side` names at each midpoint,
    /// and returns the bracket left (both ends equal to the midpoint where `side` said `.found`).
    ///
    /// ```swift
    /// let r = Search.bisect(1, 2, iterations: 60) { $0 * $0 < 2 ? .above : .below }
    /// // r.lo ≈ 1.414213562373095 (√2, to the last bit or two)
    /// ```
    public static func bisect(_ lo: Double, _ hi: Double, iterations: Int,
                              _ side: (Double) throws -> Side) rethrows -> (lo: Double, hi: Double) {
        var lo = lo, hi = hi
        for _ in 0..<iterations {
            let mid = (lo + hi) / 2
            switch try side(mid) {
            case .above: lo = mid
            case .below: hi = mid
            case .found: return (mid, mid)
            }
        }
        return (lo, hi)
    }

    /// The first step of `range`, scanned from its lower end by `step` (the last step clipped to the
    /// upper end), whose ends `brackets(f(a), f(b))` accepts; `nil` when none does.
    public static func firstBracket(_ range: ClosedRange<Double>, step: Double,
                                    _ f: (Double) throws -> Double,
                                    brackets: (Double, Double) -> Bool) rethrows -> (lo: Double, hi: Double)? {
        var lo = range.lowerBound, fLo = try f(lo)
        while lo < range.upperBound {
            let hi = min(lo + step, range.upperBound), fHi = try f(hi)
            if brackets(fLo, fHi) { return (lo, hi) }
            lo = hi
            fLo = fHi
        }
        return nil
    }

    /// The bracket about the least of `f` over `lo...hi` left by golden-section search once it is
    /// no wider than `tolerance`. `f` is assumed unimodal there; an infinite value counts as worse
    /// than any finite one.
    ///
    /// ```swift
    /// let b = Search.golden({ ($0 - 3) * ($0 - 3) }, 0, 10, tolerance: 1e-6)
    /// // (b.lo + b.hi) / 2 ≈ 3
    /// ```
    public static func golden(_ f: (Double) throws -> Double, _ lo: Double, _ hi: Double,
                              tolerance: Double) rethrows -> (lo: Double, hi: Double) {
        var lo = lo, hi = hi
        let ratio = (5.0.squareRoot() - 1) / 2
        var m1 = hi - ratio * (hi - lo), m2 = lo + ratio * (hi - lo)
        var f1 = try f(m1), f2 = try f(m2)
        while hi - lo > tolerance {
            if f1 < f2 {
                hi = m2; m2 = m1; f2 = f1
                m1 = hi - ratio * (hi - lo); f1 = try f(m1)
            } else {
                lo = m1; m1 = m2; f1 = f2
                m2 = lo + ratio * (hi - lo); f2 = try f(m2)
            }
        }
        return (lo, hi)
    }

    /// The first step of `range`, scanned from its lower end by `step` (the last step clipped to
    /// the upper end), whose upper end `reached` accepts; `nil` when none does. Unlike
    /// ``firstBracket(_:step:_:brackets:)`` it asks about each step's upper end only, once: the
    /// scan of a loop that tests `lo + step` and moves `lo` on until the test passes.
    ///
    /// ```swift
    /// let s = Search.firstStep(0...10, step: 1) { $0 * $0 >= 10 }
    /// // s == (3, 4)
    /// ```
    public static func firstStep(_ range: ClosedRange<Double>, step: Double,
                                 reached: (Double) throws -> Bool) rethrows -> (lo: Double, hi: Double)? {
        var lo = range.lowerBound
        while lo < range.upperBound {
            let hi = min(lo + step, range.upperBound)
            if try reached(hi) { return (lo, hi) }
            lo = hi
        }
        return nil
    }
}
