import Satellites

/// An Earth satellite in the observer's sky: its place like any body's (``SkyPosition``; no
/// magnitude or angular diameter), with what SGP4 adds: light, ground point, element-set age.
public struct SatelliteSkyPosition: Sendable {
    public let position: SkyPosition
    public let illumination: Illumination
    public let subpoint: Geodetic
    /// Minutes from the element set's epoch (UTC to UTC).
    public let minutesSinceEpoch: Double
}
