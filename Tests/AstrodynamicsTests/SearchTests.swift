import Glibc
import Testing
@testable import Astrodynamics

@Suite struct SearchTests {
    @Test func bisectionFindsTheSquareRootOfTwo() {
        let r = Search.bisect(1, 2, iterations: 60) { $0 * $0 < 2 ? .above : .below }
        #expect(r.lo < r.hi)
        #expect(abs(r.lo - 2.0.squareRoot()) < 4e-16)
        #expect(r.hi - r.lo < 1e-15)
    }

    @Test func bisectionKeepsTheLoopsTrialPoints() {
        // The same trial points as `for _ in 0..<n { mid = (lo + hi) / 2 … }`, in the same order.
        var seen: [Double] = []
        _ = Search.bisect(0, 1, iterations: 4) { seen.append($0); return $0 < 0.3 ? .above : .below }
        #expect(seen == [0.5, 0.25, 0.375, 0.3125])
    }

    @Test func bisectionStopsWhereTheStepSaysFound() {
        var calls = 0
        let r = Search.bisect(0, 8, iterations: 40) { x in
            calls += 1
            return abs(x - 3) < 0.6 ? .found : (x < 3 ? .above : .below)
        }
        #expect(r.lo == r.hi)
        #expect(abs(r.lo - 3) < 0.6)
        #expect(calls == 3)  // 4, 2, 3
    }

    @Test func firstBracketScansFromTheLowerEnd() {
        // sin crosses zero downwards at π and 3π; the first such step is [3, 4].
        let b = Search.firstBracket(0...10, step: 1, { sin($0) }) { $0 > 0 && $1 <= 0 }
        #expect(b?.lo == 3)
        #expect(b?.hi == 4)
        #expect(Search.firstBracket(0...2, step: 1, { sin($0) }) { $0 > 0 && $1 <= 0 } == nil)
    }

    @Test func firstBracketClipsTheLastStep() {
        var seen: [Double] = []
        _ = Search.firstBracket(0...2.5, step: 1, { seen.append($0); return 1 }) { _, _ in false }
        #expect(seen == [0, 1, 2, 2.5])
    }

    @Test func goldenSectionFindsTheLeastOfAParabola() {
        let b = Search.golden({ ($0 - 3) * ($0 - 3) }, 0, 10, tolerance: 1e-6)
        #expect(b.hi - b.lo <= 1e-6)
        #expect(abs((b.lo + b.hi) / 2 - 3) < 1e-6)
        // Infinite values (a trial that did not solve) are worse than any finite one.
        let c = Search.golden({ $0 < 1 ? .infinity : ($0 - 2) * ($0 - 2) }, 0, 5, tolerance: 1e-4)
        #expect(abs((c.lo + c.hi) / 2 - 2) < 1e-4)
    }

    @Test func firstStepAsksAboutEachStepsUpperEndOnce() {
        var seen: [Double] = []
        let s = Search.firstStep(0...10, step: 1) { seen.append($0); return $0 * $0 >= 10 }
        #expect(s?.lo == 3)
        #expect(s?.hi == 4)
        #expect(seen == [1, 2, 3, 4])
    }

    @Test func firstStepClipsTheLastStepAndGivesUpPastTheEnd() {
        var seen: [Double] = []
        #expect(Search.firstStep(0...2.5, step: 1) { seen.append($0); return false } == nil)
        #expect(seen == [1, 2, 2.5])
        #expect(Search.firstStep(0...2.5, step: 1) { $0 > 2 }.map { [$0.lo, $0.hi] } == [2, 2.5])
    }
}
