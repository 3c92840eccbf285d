/// One body in the observer's sky (the `/v1/sky` entry). Angles in degrees; nil where a
/// quantity does not apply (the Sun's phase, a moon of Jupiter's magnitude).
public struct SkyPosition: Sendable {
    public let body: String
    /// Apparent place: true equator and equinox of date.
    public let raDeg: Double
    public let decDeg: Double
    /// Astrometric place: ICRF, light time only.
    public let raJ2000Deg: Double
    public let decJ2000Deg: Double
    /// From north through east, [0, 360).
    public let azimuthDeg: Double
    /// Refracted unless refraction is off (then equal to `airlessAltitudeDeg`).
    public let altitudeDeg: Double
    /// The altitude without the atmosphere.
    public let airlessAltitudeDeg: Double
    /// Local hour angle of the apparent place, (−180, 180], west positive.
    public let hourAngleDeg: Double
    public let distanceKm: Double
    public let lightTimeS: Double
    public let illuminatedFraction: Double?
    public let phaseAngleDeg: Double?
    public let elongationDeg: Double?
    public let magnitude: Double?
    public let angularDiameterArcsec: Double?
}

/// The atmosphere refraction is computed for.
public struct Atmosphere: Sendable, Hashable {
    public let temperatureC: Double
    public let pressureHPa: Double
    public init(temperatureC: Double = SkyConstants.standardTemperatureC, pressureHPa: Double = SkyConstants.standardPressureHPa) {
        self.temperatureC = temperatureC
        self.pressureHPa = pressureHPa
    }
    public static let standard = Atmosphere()
}
