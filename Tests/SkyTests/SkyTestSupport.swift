import Foundation
import Ephemeris
@testable import Sky

/// The sky engine as the server builds it, from the repository's `Resources/`.
enum TestSky {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func repositoryFile(_ path: String) -> [UInt8] {
        guard let data = try? Data(contentsOf: root.appendingPathComponent(path)) else { fatalError("\(path) not found from \(root.path)") }
        return [UInt8](data)
    }

    static let ephemeris: Ephemeris = {
        do {
            let catalogue = try Catalogue(json: repositoryFile("Resources/bodies.json"))
            let kernel = try PlanetaryKernel(bytes: KernelBuffer(copying: repositoryFile("Resources/de440-1900-2100.bsp")), file: "de440-1900-2100.bsp")
            return Ephemeris(catalogue: catalogue, kernel: kernel)
        } catch { fatalError("engine: \(error)") }
    }()

    static let deltaT: DeltaTTable = {
        do { return try DeltaTTable(csv: repositoryFile("Resources/iers-delta-t.csv")) } catch { fatalError("\(error)") }
    }()

    static let engine = SkyEngine(ephemeris: ephemeris, deltaT: deltaT)

    /// A fixture of `Tests/SkyTests/Fixtures/`, decoded.
    static func fixture<T: Decodable>(_ name: String, as type: T.Type) -> T {
        guard let url = Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil),
              let data = try? Data(contentsOf: url) else { fatalError("fixture \(name) missing") }
        do { return try JSONDecoder().decode(T.self, from: data) } catch { fatalError("fixture \(name): \(error)") }
    }

    /// A tab-separated fixture of `Tests/SkyTests/Fixtures/`: its rows keyed by the header line's
    /// names (lines starting with `#` are its provenance).
    static func table(_ name: String) -> [[String: String]] {
        guard let url = Bundle.module.url(forResource: "Fixtures/" + name, withExtension: nil),
              let text = try? String(contentsOf: url, encoding: .utf8) else { fatalError("fixture \(name) missing") }
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { fatalError("fixture \(name) is empty") }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    /// The index of the event of `kind` in `events` nearest to `when`, leaving out those in
    /// `used` (already matched to another reference event); nil when there is none.
    static func nearest(_ kind: SkyEventKind, in events: [SkyEvent], to when: Instant, excluding used: Set<Int> = []) -> Int? {
        events.indices.filter { events[$0].kind == kind && !used.contains($0) }
            .min { abs(events[$0].instant.seconds(since: when)) < abs(events[$1].instant.seconds(since: when)) }
    }

    static func observer(_ lat: Double, _ lon: Double, _ elevationM: Double) -> Observer {
        do { return try Observer(latitudeDeg: lat, longitudeDeg: lon, elevationM: elevationM) } catch { fatalError("\(error)") }
    }
}

/// Angles in named units.
func arcseconds(_ v: Double) -> Double { v / 3600 }
func seconds(_ v: Double) -> Double { v }

/// The smallest difference between two angles in degrees, wrapped to [0, 180].
func angleDifferenceDeg(_ a: Double, _ b: Double) -> Double {
    let d = abs((a - b).truncatingRemainder(dividingBy: 360))
    return min(d, 360 - d)
}

/// How far apart two places on the sky are, arcseconds: the RA difference scaled by cos(Dec) of
/// the reference and the Dec difference, combined (small angles).
func raDecArcseconds(ra: Double, dec: Double, referenceRA: Double, referenceDec: Double) -> Double {
    hypot(angleDifferenceDeg(ra, referenceRA) * cos(referenceDec * .pi / 180), dec - referenceDec) * 3600
}

/// The larger of the altitude difference and the azimuth difference scaled by cos(altitude) of
/// the reference (an azimuth is ill-defined near the zenith), arcseconds.
func horizontalArcseconds(azimuth: Double, altitude: Double, referenceAzimuth: Double, referenceAltitude: Double) -> Double {
    max(abs(altitude - referenceAltitude), angleDifferenceDeg(azimuth, referenceAzimuth) * cos(referenceAltitude * .pi / 180)) * 3600
}
