import Glibc
import Astrodynamics
import Ephemeris
import Missions

/// A Mars lander's entry, descent and landing, from its entry-interface state to a landing
/// site at the touchdown time, in three degrees of freedom:
///
/// 1. Guided hypersonic entry: gravity (the Mars model handed in: J2 and the Sun), drag and
///    lift in an exponential atmosphere turning with Mars. The lift is banked by one angle
///    before a reversal and another after it; the two angles are solved (Newton's method) so
///    that the descent reaches the powered-descent altitude straight above the site — what
///    the entry guidance of MSL and Mars 2020 does by modulating the bank.
/// 2. Parachute: deployed at an airspeed (a Mach number), inflating over two seconds; drag only.
/// 3. Powered descent from the backshell separation altitude to the site: a cubic in Mars's
///    body-fixed frame from the parachute's state to rest on the ground at the touchdown time
///    (the sky crane's final seconds are not modelled apart).
///
/// States are Mars-centred, ecliptic J2000, km and km/s, TDB seconds.
public struct MarsEntry: Sendable {
    /// Mass over drag coefficient times area of the entry vehicle, kg/m².
    public var ballisticCoefficient: Double
    public var liftToDrag: Double
    /// Mass over drag coefficient times area under the parachute, kg/m².
    public var parachuteBallisticCoefficient: Double
    /// Airspeed at which the parachute is deployed, km/s.
    public var parachuteDeploySpeedKmS: Double
    /// Height above the site at which the powered descent begins, km.
    public var backshellSeparationKm: Double
    /// Seconds after the entry interface at which the bank is reversed (the two angles,
    /// before and after, are what the guidance solves for).
    public var bankReversalSeconds = 100.0

    /// Mars 2020: about 3,440 kg at entry under a 4.5 m aeroshell (15.9 m², C_D ≈ 1.68, the
    /// 70° sphere-cone MSL flew) and a trim L/D of 0.24; a 21.5 m disk-gap-band parachute
    /// (C_D ≈ 0.6) with about 2,900 kg under it once the heat shield is gone; deployment near
    /// Mach 1.75 (420 m/s) and backshell separation about 2.1 km above the ground (NASA Mars
    /// 2020 landing press kit). Model values of the vehicle's class, not a reconstruction.
    public static let mars2020 = MarsEntry(ballisticCoefficient: 129, liftToDrag: 0.24, parachuteBallisticCoefficient: 13.3,
                                           parachuteDeploySpeedKmS: 0.42, backshellSeparationKm: 2.1)

    public init(ballisticCoefficient: Double, liftToDrag: Double, parachuteBallisticCoefficient: Double,
                parachuteDeploySpeedKmS: Double, backshellSeparationKm: Double) {
        self.ballisticCoefficient = ballisticCoefficient
        self.liftToDrag = liftToDrag
        self.parachuteBallisticCoefficient = parachuteBallisticCoefficient
        self.parachuteDeploySpeedKmS = parachuteDeploySpeedKmS
        self.backshellSeparationKm = backshellSeparationKm
    }

    /// Density (kg/m³) at the mean radius and scale height (km) of the exponential atmosphere
    /// (NASA Mars fact sheet: surface density about 0.020 kg/m³, scale height 11.1 km).
    static let rho0 = 0.020, scaleHeightKm = 11.1
    /// Integration step of the entry and parachute phases, seconds.
    static let step = 0.2
    /// Above this height over the mean radius, km, the atmosphere is left out.
    static let atmosphereTopKm = 200.0
    /// Airspeed below which there is no drag or lift to point, km/s.
    static let stillAirKmS = 1e-9
    /// Seconds over which the parachute inflates: its drag area grows, the lift goes.
    static let parachuteInflationSeconds = 2.0
    /// The shortest flight from the entry interface to touchdown the model takes on, seconds.
    static let shortestFlightSeconds = 120.0
    /// The guided entry ends at the backshell separation at least this long before touchdown,
    /// seconds, within this many integration steps.
    static let latestBackshellSeconds = 10.0, mostSteps = 100_000

    public struct Flight: Sendable {
        /// States from the entry interface to touchdown, Mars-centred ecliptic J2000.
        public let states: [OrbitalState]
        /// The bank angles before and after the reversal, degrees (positive: lift to the left
        /// of the airflow seen from above).
        public let bankDeg: (before: Double, after: Double)
        public let parachuteSeconds: Double
        public let backshellSeparationSeconds: Double
        /// Largest drag deceleration, in Earth gravities.
        public let peakDecelerationG: Double
        /// Airspeed and the flight-path angles (degrees) of the air-relative and the inertial
        /// velocity at the entry interface.
        public let interfaceAirspeedKmS: Double
        public let interfaceFlightPathDeg: Double
        public let interfaceInertialFlightPathDeg: Double
        /// The powered descent: its length (s), the descent rate (km/s), the distance from
        /// straight above the site (km) and the speed across the ground (km/s) where it begins.
        public let poweredDescent: (seconds: Double, descentRateKmS: Double, offsetKm: Double, groundSpeedKmS: Double)
    }

    public struct EntryError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Flies from `interface` (Mars-centred) to rest at `siteBodyFixedKm` (Mars's IAU
    /// body-fixed frame, turned by the engine's rotation as the kernels' IAU_MARS segments are)
    /// at `touchdownSeconds`. `gravity` is a Mars-centred model.
    ///
    /// The stages: the state at the interface (``Interface``), the guided entry and the
    /// parachute to the backshell separation with the bank angles solved to reach the site
    /// (``guidedEntry(from:gravity:touchdownSeconds:)``), and the powered descent
    /// (``poweredDescent(after:from:touchdownSeconds:)``).
    public func fly(from interface: OrbitalState, siteBodyFixedKm site: Vector3, touchdownSeconds: Double, gravity: GravityModel,
                    ephemeris: Ephemeris) throws -> Flight {
        let t0 = interface.seconds
        guard touchdownSeconds > t0 + Self.shortestFlightSeconds else { throw EntryError(description: "touchdown \(touchdownSeconds - t0) s after the entry interface") }
        let start = Interface(interface, site: site, ephemeris: ephemeris)
        let (banks, leg) = try guidedEntry(from: start, gravity: gravity, touchdownSeconds: touchdownSeconds)
        let (states, descent) = try poweredDescent(after: leg, from: start, touchdownSeconds: touchdownSeconds)
        return Flight(states: states, bankDeg: (banks[0] / Self.degree, banks[1] / Self.degree), parachuteSeconds: leg.parachute,
                      backshellSeparationSeconds: leg.backshell, peakDecelerationG: leg.peakG,
                      interfaceAirspeedKmS: start.airspeedKmS, interfaceFlightPathDeg: start.flightPathDeg, interfaceInertialFlightPathDeg: start.inertialFlightPathDeg,
                      poweredDescent: descent)
    }

    /// One degree in radians.
    static let degree = Double.pi / 180

    /// Where the flight begins and where it goes: the interface state, Mars turning under it
    /// (the engine's IAU rotation), the site and its local east, north and up, and the airspeed
    /// and flight-path angles at the interface.
    struct Interface {
        let state: OrbitalState
        let turn: BodyTurn
        /// Mars's rotation vector, rad/s, ecliptic J2000.
        let omega: Vector3
        let meanRadiusKm: Double
        let siteKm: Vector3, siteRadiusKm: Double
        let up: Vector3, east: Vector3, north: Vector3
        let airspeedKmS: Double
        /// The flight-path angles of the air-relative and the inertial velocity, degrees.
        let flightPathDeg: Double, inertialFlightPathDeg: Double

        init(_ interface: OrbitalState, site: Vector3, ephemeris: Ephemeris) {
            let t0 = interface.seconds
            state = interface
            turn = BodyTurn(body: .mars, ephemeris: ephemeris)
            let pole = turn.frame(t0).m * Vector3(0, 0, 1)
            let spinDegPerDay = turn.spinDegPerDay(t0)
            omega = pole * (spinDegPerDay * .pi / 180 / Constants.secondsPerDay)
            meanRadiusKm = ephemeris.catalogue[.mars].radiusKm
            siteKm = site
            siteRadiusKm = site.length
            up = site.normalized
            east = Vector3(0, 0, 1).cross(up).normalized
            north = up.cross(east)
            let air0 = interface.velocityKmS - omega.cross(interface.positionKm)
            airspeedKmS = air0.length
            flightPathDeg = asin(interface.positionKm.normalized.dot(air0.normalized)) * 180 / .pi
            inertialFlightPathDeg = asin(interface.positionKm.normalized.dot(interface.velocityKmS.normalized)) * 180 / .pi
        }

        /// The velocity through the air at `r`.
        func air(_ r: Vector3, _ v: Vector3) -> Vector3 { v - omega.cross(r) }
    }
}
