import Foundation
import Ephemeris
@testable import SmallBodies

/// The test fixtures (`Fixtures/README.md` says where each comes from) and the engine's DE440.
enum Fixtures {
    static func bytes(_ name: String) -> [UInt8] {
        let dot = name.lastIndex(of: ".")!
        guard let url = Bundle.module.url(forResource: String(name[..<dot]), withExtension: String(name[name.index(after: dot)...]),
                                          subdirectory: "Fixtures"),
              let data = try? Data(contentsOf: url)
        else { fatalError("Fixtures/\(name) missing from the test bundle") }
        return [UInt8](data)
    }

    static func json(_ name: String) -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes(name))) as? [String: Any] else { fatalError("\(name) is not a JSON object") }
        return object
    }

    static func file(_ name: String) -> ElementFile {
        do { return try ElementFile(name: name, bytes: bytes(name)) } catch { fatalError("\(name): \(error)") }
    }

    /// The bundled DE440 excerpt (1900–2100), as the server reads it.
    static let kernel: PlanetaryKernel = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let path = "Resources/de440-1900-2100.bsp"
        do {
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            return try PlanetaryKernel(bytes: KernelBuffer(copying: [UInt8](data)), file: path)
        } catch { fatalError("\(path): \(error)") }
    }()

    /// The shared files as the server bundles them: the MPC's four first asteroids, the four
    /// SBDB answers, the MPC comets.
    static let catalogue = SmallBodyCatalogue(files: [
        file("mpc-MPCORB.excerpt.DAT"), file("jplsbdb-ceres.dat"), file("jplsbdb-apophis.dat"), file("jplsbdb-67P.dat"),
        file("jplsbdb-phaethon.dat"), file("mpc-CometEls.txt"),
    ], reservedNames: ["europa", "io", "earth", "moon", "sun"])

    static let propagator = SmallBodyPropagator(kernel: kernel, catalogue: catalogue)

    static func body(_ id: String) -> SmallBody {
        guard let h = catalogue.resolve(id) else { fatalError("no \(id)") }
        return catalogue.body(h)
    }

    /// TDB seconds past J2000 of a Julian date TDB.
    static func seconds(jdTDB jd: Double) -> Double { (jd - Constants.jdJ2000) * Constants.secondsPerDay }
}

/// Tolerances in named units.
func km(_ x: Double) -> Double { x }
func minutes(_ x: Double) -> Double { x * 60 }
