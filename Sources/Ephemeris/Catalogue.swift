#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body catalogue (`Resources/bodies.json`): physical data, colours, rings, Standish
/// table-1 elements and IAU rotational elements. Built from bytes handed in by the caller; the
/// engine never opens files itself.
public struct Catalogue: Sendable {
    public let entries: [BodyID: CatalogueEntry]

    /// Every body in catalogue order (the `BodyID` order).
    public var all: [CatalogueEntry] { BodyID.allCases.compactMap { entries[$0] } }

    public subscript(_ id: BodyID) -> CatalogueEntry {
        guard let e = entries[id] else { preconditionFailure("catalogue validated at load: \(id) missing") }
        return e
    }

    /// Decodes and validates `bodies.json`. Every one of the 25 engine bodies must be present,
    /// with a positive radius, a colour, and, for the planets, Standish elements.
    public init(json: [UInt8]) throws(CatalogueError) {
        let dto: CatalogueDTO
        do {
            dto = try JSONDecoder().decode(CatalogueDTO.self, from: Data(json))
        } catch {
            throw .malformed(detail: "\(error)")
        }
        var entries: [BodyID: CatalogueEntry] = [:]
        for body in dto.bodies {
            guard let id = BodyID(rawValue: body.id) else {
                throw .invalid(body: body.id, field: "id", detail: "unknown body; the engine knows \(BodyID.validList)")
            }
            guard entries[id] == nil else { throw .invalid(body: body.id, field: "id", detail: "listed twice") }
            entries[id] = try CatalogueEntry(id: id, dto: body)
        }
        for id in BodyID.allCases where entries[id] == nil {
            throw .invalid(body: id.rawValue, field: "id", detail: "missing from the catalogue")
        }
        self.entries = entries
    }
}

public enum CatalogueError: Error, Sendable, CustomStringConvertible {
    case malformed(detail: String)
    case invalid(body: String, field: String, detail: String)

    public var description: String {
        switch self {
        case let .malformed(detail): return "bodies.json is not valid: \(detail)"
        case let .invalid(body, field, detail): return "bodies.json, body \"\(body)\", field \(field): \(detail)"
        }
    }
}

public enum BodyType: String, Sendable, Codable {
    case star, planet, dwarfPlanet = "dwarf_planet", moon
}

/// A value at J2000.0 and its rate per Julian century (TDB).
public struct Polynomial1: Sendable, Hashable {
    public let value: Double
    public let ratePerCentury: Double
    @inlinable public func at(_ T: Double) -> Double { value + ratePerCentury * T }
}

/// Standish (1992) Keplerian elements: a (AU), e, I, L, ϖ, Ω (degrees), each with a rate per century.
public struct StandishElements: Sendable, Hashable {
    public let semiMajorAxisAU: Polynomial1
    public let eccentricity: Polynomial1
    public let inclinationDeg: Polynomial1
    public let meanLongitudeDeg: Polynomial1
    public let longitudeOfPerihelionDeg: Polynomial1
    public let longitudeOfAscendingNodeDeg: Polynomial1
}

/// IAU WGCCRE rotational elements, polynomial part: pole (α0, δ0) in ICRF with rates per
/// century, prime meridian W0 with its rate per day.
public struct IAURotationElements: Sendable, Hashable {
    public let poleRADeg: Polynomial1
    public let poleDecDeg: Polynomial1
    public let primeMeridianDeg: Double
    public let primeMeridianRateDegPerDay: Double
}

/// The catalogue's rotation entry, `bodies.json`'s `rotation` (used for display metadata only: the engine rotates bodies with IAU
/// elements, or locks them to their parent).
public struct SeedRotation: Sendable, Hashable {
    public let periodHours: Double
    public let obliquityDeg: Double
    public let w0Deg: Double
    public let tidallyLocked: Bool
}

/// The catalogue's simple circular/elliptic moon orbit (`bodies.json`'s `orbit`): the semi-major axis sets the scene
/// distance; the phase is a placeholder except for the ISS, whose whole orbit comes from here.
public struct SeedMeanOrbit: Sendable, Hashable {
    public let semiMajorAxisKm: Double
    public let periodDays: Double
    public let eccentricity: Double
    public let inclinationDeg: Double
    public let longitudeAtEpochDeg: Double
}

public struct Rings: Sendable, Hashable {
    public let innerRadiusKm: Double
    public let outerRadiusKm: Double
}

public struct CatalogueEntry: Sendable {
    public let id: BodyID
    public let name: String
    public let type: BodyType
    public let parent: BodyID?
    public let radiusKm: Double
    public let colorRGB: [Double]
    public let emissive: Bool
    public let rings: Rings?
    public let standishElements: StandishElements?
    public let iauRotation: IAURotationElements?
    public let seedRotation: SeedRotation
    public let seedMeanOrbit: SeedMeanOrbit?

    /// The ids of the bodies that orbit this one, in catalogue order.
    public var moons: [BodyID] { BodyID.allCases.filter { $0.parent == id && $0.isSatellite } }

    init(id: BodyID, dto d: CatalogueDTO.Body) throws(CatalogueError) {
        func fail(_ field: String, _ detail: String) -> CatalogueError { .invalid(body: d.id, field: field, detail: detail) }
        guard d.radius_km.isFinite, d.radius_km > 0 else { throw fail("radius_km", "must be a positive number") }
        guard d.color_rgb.count == 3, d.color_rgb.allSatisfy({ (0...1).contains($0) }) else {
            throw fail("color_rgb", "must be three numbers in 0...1")
        }
        let parent: BodyID?
        if let p = d.parent {
            guard let pid = BodyID(rawValue: p) else { throw fail("parent", "unknown body \"\(p)\"") }
            parent = pid
        } else {
            parent = nil
        }
        guard parent == id.parent else { throw fail("parent", "expected \(id.parent?.rawValue ?? "null") for this body") }
        self.id = id
        self.name = d.name
        self.type = d.type
        self.parent = parent
        self.radiusKm = d.radius_km
        self.colorRGB = d.color_rgb
        self.emissive = d.emissive ?? false
        if let r = d.rings {
            guard r.inner_radius_km > 0, r.outer_radius_km > r.inner_radius_km else {
                throw fail("rings", "inner_radius_km must be positive and below outer_radius_km")
            }
            self.rings = Rings(innerRadiusKm: r.inner_radius_km, outerRadiusKm: r.outer_radius_km)
        } else {
            self.rings = nil
        }
        if let e = d.orbital_elements_j2000 {
            func poly(_ a: [Double], _ name: String) throws(CatalogueError) -> Polynomial1 {
                guard a.count == 2, a.allSatisfy(\.isFinite) else { throw fail("orbital_elements_j2000.\(name)", "must be [value, rate per century]") }
                return Polynomial1(value: a[0], ratePerCentury: a[1])
            }
            self.standishElements = StandishElements(
                semiMajorAxisAU: try poly(e.a_au, "a_au"),
                eccentricity: try poly(e.e, "e"),
                inclinationDeg: try poly(e.i_deg, "i_deg"),
                meanLongitudeDeg: try poly(e.mean_longitude_deg, "mean_longitude_deg"),
                longitudeOfPerihelionDeg: try poly(e.longitude_of_perihelion_deg, "longitude_of_perihelion_deg"),
                longitudeOfAscendingNodeDeg: try poly(e.longitude_of_ascending_node_deg, "longitude_of_ascending_node_deg")
            )
        } else {
            guard !BodyID.heliocentric.contains(id) else { throw fail("orbital_elements_j2000", "required for a body orbiting the Sun") }
            self.standishElements = nil
        }
        if let r = d.iau_rotation {
            guard r.pole_ra_deg.count == 2, r.pole_dec_deg.count == 2, r.prime_meridian_deg.count == 2 else {
                throw fail("iau_rotation", "each term must be [value, rate]")
            }
            self.iauRotation = IAURotationElements(
                poleRADeg: Polynomial1(value: r.pole_ra_deg[0], ratePerCentury: r.pole_ra_deg[1]),
                poleDecDeg: Polynomial1(value: r.pole_dec_deg[0], ratePerCentury: r.pole_dec_deg[1]),
                primeMeridianDeg: r.prime_meridian_deg[0],
                primeMeridianRateDegPerDay: r.prime_meridian_deg[1]
            )
        } else {
            self.iauRotation = nil
        }
        self.seedRotation = SeedRotation(
            periodHours: d.seed_rotation.period_hours, obliquityDeg: d.seed_rotation.obliquity_deg,
            w0Deg: d.seed_rotation.w0_deg, tidallyLocked: d.seed_rotation.tidally_locked ?? false
        )
        if let o = d.seed_mean_orbit {
            guard o.semi_major_axis_km > 0, o.period_days > 0 else { throw fail("seed_mean_orbit", "semi-major axis and period must be positive") }
            self.seedMeanOrbit = SeedMeanOrbit(
                semiMajorAxisKm: o.semi_major_axis_km, periodDays: o.period_days, eccentricity: o.eccentricity,
                inclinationDeg: o.inclination_deg, longitudeAtEpochDeg: o.longitude_at_epoch_deg
            )
        } else {
            guard !id.isSatellite else { throw fail("seed_mean_orbit", "required for a moon (its semi-major axis sets the scene distance)") }
            self.seedMeanOrbit = nil
        }
    }
}

/// The JSON shape of bodies.json, kept apart from the domain values above.
struct CatalogueDTO: Decodable {
    struct Elements: Decodable {
        let a_au: [Double]
        let e: [Double]
        let i_deg: [Double]
        let mean_longitude_deg: [Double]
        let longitude_of_perihelion_deg: [Double]
        let longitude_of_ascending_node_deg: [Double]
    }
    struct IAU: Decodable {
        let pole_ra_deg: [Double]
        let pole_dec_deg: [Double]
        let prime_meridian_deg: [Double]
    }
    struct Seed: Decodable {
        let period_hours: Double
        let obliquity_deg: Double
        let w0_deg: Double
        let tidally_locked: Bool?
    }
    struct MeanOrbit: Decodable {
        let semi_major_axis_km: Double
        let period_days: Double
        let eccentricity: Double
        let inclination_deg: Double
        let longitude_at_epoch_deg: Double
    }
    struct RingsDTO: Decodable {
        let inner_radius_km: Double
        let outer_radius_km: Double
    }
    struct Body: Decodable {
        let id: String
        let name: String
        let type: BodyType
        let parent: String?
        let radius_km: Double
        let color_rgb: [Double]
        let emissive: Bool?
        let rings: RingsDTO?
        let orbital_elements_j2000: Elements?
        let iau_rotation: IAU?
        let seed_rotation: Seed
        let seed_mean_orbit: MeanOrbit?
    }
    let bodies: [Body]
}
