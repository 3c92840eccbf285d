/// The minimum of a distance over mission hours near a dated event: a scan, then golden-section
/// search to the second. Shared by the engine's timing of date-only events and the moon anchors.
enum ClosestApproachSearch {
    /// Scan step: a third of an hour (a flyby's minimum is hours wide).
    static let stepHours = 1.0 / 3

    /// The hours in `hours − 24 … hours + 48` (a date-only event's day and a day either side)
    /// where `distance` is least, to half a second; nil when it is infinite throughout.
    static func minimum(near hours: Double, distance: (Double) -> Double) -> Double? {
        var best = (t: hours, d: Double.infinity)
        var t = hours - 24
        while t <= hours + 48 {
            let d = distance(t)
            if d < best.d { best = (t, d) }
            t += stepHours
        }
        guard best.d.isFinite else { return nil }
        var a = best.t - stepHours, b = best.t + stepHours
        let g = (5.0.squareRoot() - 1) / 2
        for _ in 0..<40 where (b - a) * 3600 > 0.5 {
            let c = b - g * (b - a), d = a + g * (b - a)
            if distance(c) < distance(d) { b = d } else { a = c }
        }
        return (a + b) / 2
    }
}
