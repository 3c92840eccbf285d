import Ephemeris
import HTTP
import Scene

/// Everything the v1 handlers read: the engine, the catalogues, the spec, the clock. Built once
/// at start-up from the resource files; immutable afterwards.
public struct APIServices: Sendable {
    public let catalogue: Catalogue
    public let engine: EphemerisService
    public let stars: StarCatalogue
    /// The stars brightest first (ties by right ascension), the order `/v1/stars` serves.
    let starsByMagnitude: [Star]
    /// The OpenAPI document served at `/openapi.yaml`.
    public let openAPIDocument: [UInt8]
    /// Unix seconds; injected so tests can pin `now`.
    public let clock: @Sendable () -> Double

    public init(catalogue: Catalogue, stars: StarCatalogue, openAPIDocument: [UInt8], clock: @escaping @Sendable () -> Double) {
        self.catalogue = catalogue
        self.engine = EphemerisService(catalogue: catalogue)
        self.stars = stars
        self.starsByMagnitude = stars.stars.sorted {
            ($0.magnitude, $0.rightAscensionHours) < ($1.magnitude, $1.rightAscensionHours)
        }
        self.openAPIDocument = openAPIDocument
        self.clock = clock
    }

    public var ephemeris: Ephemeris { engine.ephemeris }
    public var layout: SceneLayout { engine.layout }
}

/// Whether an answer can ever change: fixed dates never do (immutable, strong ETag); `now`
/// does every instant (`no-store`).
enum Freshness {
    case fixed
    case now

    init(dateParameter: String?) {
        self = (dateParameter == nil || dateParameter == "now") ? .now : .fixed
    }

    func apply(_ r: HTTPResponse) -> HTTPResponse {
        switch self {
        case .fixed: return r.immutable()
        case .now: return r.noStore()
        }
    }
}

extension HTTPResponse {
    /// A JSON body whose cacheability follows `freshness`.
    static func json(_ bytes: [UInt8], freshness: Freshness) -> HTTPResponse {
        freshness.apply(.json(bytes))
    }

    /// Answers that change only when the server's data files do (catalogue, stars): revalidate
    /// hourly with a strong ETag.
    static func catalogueJSON(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse.json(bytes).cacheable(maxAge: 3600)
    }
}

extension QueryParameters {
    /// The date parameter as an instant (absent means now), with its freshness.
    func instant(_ name: String = "date", clock: () -> Double) throws(ProblemDetails) -> (Instant, Freshness) {
        let raw = try string(name)
        return (try QueryParsing.instant(raw, parameter: name, now: clock), Freshness(dateParameter: raw))
    }
}
