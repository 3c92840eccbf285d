/// A lunar mission's real orbit, flyby or landing (`physics` in `missions.json`): what telemetry
/// is computed from, as opposed to the seeds' enlarged marker orbit (`moonOrbit.radiusKm`,
/// `periodHours`), which only draws the scene.
public struct LunarPhysics: Sendable, Hashable {
    /// A circular orbit around the Moon from lunar-orbit insertion to trans-Earth injection; its
    /// period follows from the altitude (Kepler's third law with the Moon's GM).
    public struct Orbit: Sendable, Hashable {
        public let startHours: Double
        public let endHours: Double
        public let altitudeKm: Double

        public init(startHours: Double, endHours: Double, altitudeKm: Double) {
            self.startHours = startHours
            self.endHours = endHours
            self.altitudeKm = altitudeKm
        }
    }

    /// A pass by the Moon without orbiting it: closest approach at `timeHours`.
    public struct Flyby: Sendable, Hashable {
        public let timeHours: Double
        public let altitudeKm: Double

        public init(timeHours: Double, altitudeKm: Double) {
            self.timeHours = timeHours
            self.altitudeKm = altitudeKm
        }
    }

    /// A vehicle on the surface at a site (selenographic, the IAU Moon frame) between touchdown
    /// and lift-off, with the powered descent before and the ascent after.
    public struct Landing: Sendable, Hashable {
        public let vehicleID: String
        public let startHours: Double
        public let endHours: Double
        public let latitudeDeg: Double
        public let longitudeDeg: Double
        public let descentHours: Double
        public let ascentHours: Double

        public init(vehicleID: String, startHours: Double, endHours: Double, latitudeDeg: Double, longitudeDeg: Double,
                    descentHours: Double, ascentHours: Double) {
            self.vehicleID = vehicleID
            self.startHours = startHours
            self.endHours = endHours
            self.latitudeDeg = latitudeDeg
            self.longitudeDeg = longitudeDeg
            self.descentHours = descentHours
            self.ascentHours = ascentHours
        }
    }

    /// Where the figures come from (mission reports, NASA pages).
    public let source: String
    public let orbit: Orbit?
    public let flyby: Flyby?
    public let landing: Landing?

    public init(source: String, orbit: Orbit? = nil, flyby: Flyby? = nil, landing: Landing? = nil) {
        self.source = source
        self.orbit = orbit
        self.flyby = flyby
        self.landing = landing
    }
}
