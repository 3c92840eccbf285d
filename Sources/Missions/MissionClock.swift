import Glibc

/// Mission-time arithmetic: MET strings, the event-label window, the automatic replay speed.
public enum MissionClock {
    // MARK: - Mission elapsed time

    /// `T+DD:HH:MM:SS` (days at least two digits, more when needed: Voyager 2 reaches
    /// `T+4375:00:00:00`); before launch `T-…` counting down. Seconds are truncated after
    /// rounding to the millisecond, so 23.99972… h written as 23 + 59/60 + 59/3600 still reads
    /// `T+00:23:59:59` and 24 h reads `T+01:00:00:00`.
    ///
    /// ```swift
    /// MissionClock.met(hours: 80)     // "T+03:08:00:00"
    /// MissionClock.met(hours: -0.25)  // "T-00:00:15:00"
    /// ```
    public static func met(hours t: Double) -> String {
        guard t.isFinite else { return "T+--:--:--:--" }
        let milliseconds = (abs(t) * 3_600_000).rounded()
        let total = Int((milliseconds / 1000).rounded(.down))
        let sign = t < 0 && total > 0 ? "-" : "+"
        let days = total / 86_400
        let hours = (total % 86_400) / 3600
        let minutes = (total % 3600) / 60
        let seconds = total % 60
        return "T\(sign)\(pad(days)):\(pad(hours)):\(pad(minutes)):\(pad(seconds))"
    }

    /// MET in milliseconds (the SSE `id:`), rounded to the nearest millisecond.
    public static func metMilliseconds(hours t: Double) -> Int64 {
        Int64((t * 3_600_000).rounded())
    }

    static func pad(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    // MARK: - Event labels

    /// Share of the mission a label stays visible either side of its event (3 %, the viewer's
    /// rule since its first version).
    public static let labelWindowShare = 0.03
    public static let labelWindowHoursRange = 1.0...500.0

    /// `clamp(durationHours × 0.03, 1, 500)`: Apollo 11 (195 h) → 5.85 h, Voyager 2 → 500 h.
    public static func labelWindowHours(durationHours: Double) -> Double {
        min(max(durationHours * labelWindowShare, labelWindowHoursRange.lowerBound), labelWindowHoursRange.upperBound)
    }

    /// Whether a label for an event at `eventHours` shows at mission time `t`: |t − event| < window.
    public static func labelVisible(eventHours: Double, at t: Double, windowHours: Double) -> Bool {
        abs(t - eventHours) < windowHours
    }

    // MARK: - Replay speed

    /// Wall-clock seconds a replay at ``autoTimeScale(durationHours:)`` lasts, before rounding:
    /// Apollo 11 replays at 10,000× (195 h in about 70 s), the speed the viewer has always chosen
    /// for it.
    public static let targetReplaySeconds = 195.0 * 3600 / 10_000

    /// The replay speed (simulated seconds per wall second) a client starts a mission at:
    /// `durationHours × 3600 / 70.2 s`, snapped to the nearest (in log scale) of 1, 2, 5 × 10ⁿ.
    /// Apollo 8, 11, 13 and Artemis II → 10,000; Perseverance → 200,000; Voyager 2 → 5,000,000.
    /// Only Apollo 11's value was ever fixed; the rule generalises it to a constant replay length.
    public static func autoTimeScale(durationHours: Double) -> Double {
        guard durationHours.isFinite, durationHours > 0 else { return 1 }
        return niceNumber(durationHours * 3600 / targetReplaySeconds)
    }

    /// The nearest of 1, 2, 5 × 10ⁿ in log scale (ties go up).
    public static func niceNumber(_ x: Double) -> Double {
        guard x > 0, x.isFinite else { return 1 }
        let decade = pow(10, log10(x).rounded(.down))
        let candidates = [1.0, 2, 5, 10].map { $0 * decade }
        var best = candidates[0]
        for c in candidates where abs(log(c / x)) <= abs(log(best / x)) { best = c }
        return best
    }
}
