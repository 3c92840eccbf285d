/// Per-sample colour of a trajectory line: white at launch fading into the vehicle colour,
/// brighter towards the flyby, dimmer on the return leg (a per-vertex gradient; the
/// viewer draws lines with it, and the numbers here are this module's choice).
public enum TrajectoryColor {
    /// Share of the vehicle's time span over which white fades into the vehicle colour.
    public static let launchFadeShare = 0.15
    /// Brightness multiplier at the flyby (reached linearly from 1 at launch).
    public static let flybyBrightness = 1.35
    /// Brightness multiplier at the end of the return leg (reached linearly from the flyby).
    public static let returnBrightness = 0.55

    /// The colour at `fraction` ∈ [0, 1] of the vehicle's span. `flybyFraction` is where the
    /// mission's flyby falls in that span, nil when it falls outside it (heliocentric missions,
    /// stages that burn out before the flyby): then only the launch fade applies.
    public static func color(base: RGB, fraction: Double, flybyFraction: Double?) -> RGB {
        let f = min(max(fraction, 0), 1)
        let w = min(f / launchFadeShare, 1)
        // (1 − w)·white + w·base: exactly the vehicle colour once the fade is over.
        var c = RGB((1 - w) + base.r * w, (1 - w) + base.g * w, (1 - w) + base.b * w)
        let k = brightness(fraction: f, flybyFraction: flybyFraction)
        if k != 1 { c = RGB(min(c.r * k, 1), min(c.g * k, 1), min(c.b * k, 1)) }
        return c
    }

    /// 1 at launch → ``flybyBrightness`` at the flyby → ``returnBrightness`` at the end.
    public static func brightness(fraction f: Double, flybyFraction: Double?) -> Double {
        guard let ff = flybyFraction, ff > 0, ff < 1 else { return 1 }
        if f <= ff { return 1 + (flybyBrightness - 1) * (f / ff) }
        return flybyBrightness + (returnBrightness - flybyBrightness) * ((f - ff) / (1 - ff))
    }
}
