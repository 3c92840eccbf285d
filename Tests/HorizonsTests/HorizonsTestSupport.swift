import Foundation
import Ephemeris
import Satellites
import Sky
import SmallBodies
@testable import Horizons

/// The Horizons dialect over what the server serves, built from the repository's `Resources/`,
/// and the recorded Horizons answers of `Fixtures/` (their README gives the request of each).
enum TestHorizons {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func repositoryFile(_ path: String) -> [UInt8] {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(path)) else { fatalError("\(path) not found from \(root.path)") }
        return [UInt8](data)
    }

    static func fixture(_ name: String) -> String {
        guard let url = Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil),
              let data = try? Data(contentsOf: url) else { fatalError("fixture \(name) missing") }
        return String(decoding: data, as: UTF8.self)
    }

    static let kernel: PlanetaryKernel = {
        do { return try PlanetaryKernel(bytes: KernelBuffer(copying: repositoryFile("Resources/de440-1900-2100.bsp")), file: "de440-1900-2100.bsp") } catch { fatalError("\(error)") }
    }()

    static let ephemeris: Ephemeris = {
        do { return Ephemeris(catalogue: try Catalogue(json: repositoryFile("Resources/bodies.json")), kernel: kernel) } catch { fatalError("engine: \(error)") }
    }()

    static let sky: SkyEngine = {
        do { return SkyEngine(ephemeris: ephemeris, deltaT: try DeltaTTable(csv: repositoryFile("Resources/iers-delta-t.csv"))) } catch { fatalError("\(error)") }
    }()

    /// The element files the server bundles (`Resources/smallbodies/`).
    static let smallBodies: SmallBodyCatalogue = {
        let names = ["mpc-MPCORB.excerpt.DAT", "jplsbdb-ceres.dat", "jplsbdb-apophis.dat", "jplsbdb-67P.dat", "jplsbdb-phaethon.dat", "mpc-CometEls.txt"]
        let files = names.map { name in
            do { return try ElementFile(name: name, bytes: repositoryFile("Resources/smallbodies/" + name)) } catch { fatalError("\(name): \(error)") }
        }
        return SmallBodyCatalogue(files: files, reservedNames: ["sun", "moon", "earth", "io", "europa"])
    }()

    static let propagator = SmallBodyPropagator(kernel: kernel, catalogue: smallBodies)

    static let constellations: Constellations? = {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("Resources/constellations/roman1987-boundaries.dat")) else { return nil }
        return try? Constellations(table: [UInt8](data))
    }()

    static let observatories: ObservatoryCodes = {
        do { return try ObservatoryCodes(text: Array(fixture("mpc-ObsCodes.html").utf8), source: "mpc-ObsCodes.html") } catch { fatalError("\(error)") }
    }()

    /// 2026-01-01T00:00:00Z, the header's stamp in tests.
    static let context = HorizonsContext(ephemeris: ephemeris, sky: sky, smallBodies: smallBodies, propagator: propagator,
                                         observatories: observatories, constellations: constellations, now: { 1_767_225_600 })

    /// The parameters of a recorded request's query string (`Fixtures/jplhorizons-README`).
    static func parameters(query: String) throws -> HorizonsParameters {
        let pairs = query.split(separator: "&").map { pair -> (name: String, value: String) in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
        return try HorizonsParameters(pairs)
    }

    /// The query of a recorded answer, read from the README that lists the URLs.
    static func recordedQuery(_ file: String) -> String {
        let lines = fixture("jplhorizons-README").split(separator: "\n").map(String.init)
        guard let i = lines.firstIndex(of: file), i + 1 < lines.count, let q = lines[i + 1].split(separator: "?", maxSplits: 1).last else {
            fatalError("\(file) is not in jplhorizons-README")
        }
        return String(q)
    }

    static func answerText(query: String) throws -> String {
        switch Horizons.answer(try parameters(query: query), context: context) {
        case let .text(t): return t
        case let .table(t): return try t.text()
        case let .failure(f): return "FAILURE: " + f.text
        case .spk: return "SPK"
        }
    }
}

/// Tolerances in named units.
func arcseconds(_ v: Double) -> Double { v / 3600 }
func km(_ v: Double) -> Double { v }
