import Glibc
import Foundation
import Ephemeris
@testable import Astrodynamics

/// What the propagator tests share: the engine with the bundled DE440 kernel, simple models,
/// a Juno-like orbit with its exact conic, tolerances in named units.
enum PropagationFixtures {
    /// The engine as served: DE440 (1900–2100) for the Sun, the planets, the Earth and the Moon.
    static let de440: Ephemeris = {
        let path = "Resources/de440-1900-2100.bsp"
        do {
            let kernel = try PlanetaryKernel(bytes: KernelBuffer(copying: resource("de440-1900-2100.bsp")), file: path)
            return Ephemeris(catalogue: try Catalogue(json: resource("bodies.json")), kernel: kernel)
        } catch { fatalError("\(path): \(error)") }
    }()

    /// The repository's `Resources/` file `name`.
    static func resource(_ name: String) -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let data = try? Data(contentsOf: root.appendingPathComponent("Resources/\(name)")) else {
            fatalError("Resources/\(name) not found from \(root.path)")
        }
        return [UInt8](data)
    }

    /// TDB seconds past J2000 of a UTC calendar time.
    static func tdbSeconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0) -> Double {
        do { return try TimeScale.utc(year: year, month: month, day: day, hour: hour, minute: minute, second: second).daysSinceJ2000TDB * Constants.secondsPerDay } catch {
            fatalError("\(error)")
        }
    }

    /// Juno's first science perijove (PJ1), 2016-08-27T12:50:44 UTC, as TDB seconds past
    /// J2000 (UTC + 37 s + 32.184 s, to the second): an epoch where the DE kernel serves.
    static let perijove1Seconds = 525_574_313.0
}

/// Tolerances in named units.
func km(_ x: Double) -> Double { x }
func au(_ x: Double) -> Double { x }
func kmPerS(_ x: Double) -> Double { x }

/// A point mass at the origin: the two-body problem `KeplerArc` solves in closed form.
struct PointMass: AccelerationModel {
    let mu: Double
    func accelerationKmS2(at r: Vector3, seconds: Double) -> Vector3 {
        let d2 = r.lengthSquared
        return r * (-mu / (d2 * d2.squareRoot()))
    }
}

/// A model whose numbers break down: NaN everywhere.
struct BrokenModel: AccelerationModel {
    func accelerationKmS2(at r: Vector3, seconds: Double) -> Vector3 { Vector3(.nan, 0, 0) }
}

/// Juno's capture orbit as the benchmarks use it: periapsis 1.06 Jupiter radii, 53-day period.
enum JunoLikeOrbit {
    static let mu = GravityConstants.jupiterSystemGM
    static let periapsisKm = 1.06 * 71_492.0
    static let periodSeconds = 53 * 86_400.0
    static var semiMajorAxisKm: Double { cbrt(mu * periodSeconds * periodSeconds / (4 * Double.pi * Double.pi)) }
    static let tilt = 60 * Double.pi / 180
    /// At periapsis at `seconds`, in a plane tilted 60° to the ecliptic.
    static func periapsisState(seconds: Double) -> OrbitalState {
        let a = semiMajorAxisKm
        let v = (mu * (2 / periapsisKm - 1 / a)).squareRoot()
        return OrbitalState(seconds: seconds, positionKm: Vector3(periapsisKm, 0, 0),
                            velocityKmS: Vector3(0, v * cos(tilt), v * sin(tilt)))
    }

    /// The exact two-body position `dt` seconds after a periapsis of `periapsisState`: Kepler's
    /// equation M = E − e sin E solved by Newton's method to the last bit. The reference for
    /// many revolutions: `KeplerArc` stops its universal-variable solve at a residual of 10⁻¹⁰
    /// of the span, which is tens of metres two revolutions from its epoch on this orbit.
    static func positionKm(after dt: Double) -> Vector3 {
        let a = semiMajorAxisKm, e = 1 - periapsisKm / a
        let n = 2 * Double.pi / periodSeconds
        var m = (n * dt).truncatingRemainder(dividingBy: 2 * Double.pi)
        if m > Double.pi { m -= 2 * Double.pi } else if m < -Double.pi { m += 2 * Double.pi }
        var E = abs(m) < 0.5 ? cbrt(6 * m) : m
        for _ in 0..<100 {
            let step = (E - e * sin(E) - m) / (1 - e * cos(E))
            E -= step
            if abs(step) < 1e-15 { break }
        }
        let x = a * (cos(E) - e), y = a * (1 - e * e).squareRoot() * sin(E)
        return Vector3(x, y * cos(tilt), y * sin(tilt))
    }
}


func metres(_ x: Double) -> Double { x / 1000 }
func kmPerSecond(_ x: Double) -> Double { x }
func metresPerSecond(_ x: Double) -> Double { x / 1000 }
