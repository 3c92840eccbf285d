import Dispatch
import Ephemeris
import HTTPCore
import Logging
import Missions
import MissionScene
import Rendering
import Satellites
import Scene
import Sky
import SmallBodies
import Storage
import Synchronization

/// Everything the v1 handlers read: the engine, the catalogues, the spec, the clock. Built at
/// start-up from the resource files and immutable; when the kernels change on disk the server
/// builds another (``reloaded(kernel:bodies:kernelIdentities:)``) that shares everything the
/// kernels do not decide, and serves it from then on (``LiveAPI``).
public final class APIServices: Sendable {
    public let catalogue: Catalogue
    public let engine: EphemerisService
    /// The observer's sky on the same ephemeris, with the IERS ΔT table when one was loaded.
    public let sky: SkyEngine
    public let stars: StarCatalogue
    /// The stars brightest first (ties by right ascension), the order `/v1/stars` serves.
    let starsByMagnitude: [Star]
    /// The stars the Moon's occultations are searched for (named, brighter than magnitude 2.5).
    let occultableStars: [OccultableStar]
    /// The OpenAPI document served at `/openapi.yaml`.
    public let openAPIDocument: [UInt8]
    /// Unix seconds; injected so tests can pin `now`.
    public let clock: @Sendable () -> Double
    /// The missions and one trajectory engine per mission, keyed by id.
    public let missions: MissionCatalogue
    /// Every mission drawn in the scene (``MissionScene/engine`` is its engine).
    let missionScenes: [String: MissionScene]
    /// The bodies of every loaded SPK kernel (the missions' and `--kernel` files), placed by
    /// SPICE's precedence: what missions and `naif:` body ids read.
    public let bodies: KernelBodies
    /// Names positions requests may use: the engine's bodies, `naif:` ids, vehicle ids.
    public let bodyDirectory: BodyDirectory
    /// Per mission, the hash its cached samples are keyed by (its data and its kernels').
    let missionDataHashes: [String: String]
    /// The SQLite sample cache (nil: compute every time).
    public let sampleCache: SampleCache?
    /// Encoded answers that never change (fixed-date positions, scene, rotations, orbits,
    /// series; stars; trajectories; pictures), with their gzip variant and ETag, least recently
    /// used out first. In front of `sampleCache` for trajectories: encoding 5,000 samples costs
    /// more than computing them, so only this tier makes repeats cheap.
    public let responses: ResponseCache<ResponseKey>
    /// The view renderer (nil when no textures were handed in: the views answer 503).
    public let renderer: ViewRenderer?
    /// The PNGs of `/v1/textures/{id}.png`, encoded on first use (nil without textures).
    let textureImages: TextureImages?
    /// The web viewer's files, served at `/` (empty: no viewer routes).
    public let web: StaticSite
    /// Admits one large raster render at a time (see `V1API.largeViewPixels`).
    let largeRenders: RenderGate
    /// Set when the process begins shutting down: `/readyz` fails from then on.
    public let lifecycle: Lifecycle
    /// Where cache failures are reported (they degrade to a miss, never to an error).
    let logger: Logger
    /// Live SSE mission streams (for /metrics and tests).
    public let streams: StreamCounter
    /// Replay events formatted once for all the streams at the same mission time (new with the
    /// kernels: its events came from them).
    let replayEvents = ReplayEventCache()
    /// The surface maps the renderer draws with (kept for a reload's new renderer).
    let textures: TextureSet?
    /// Every kernel's identity (file, size, modification time), as the sample cache keys use it.
    public let kernelIdentities: [String]
    /// The MPC's observatory codes Horizons' `CENTER` takes (`675`, `F51@399`): the list the
    /// resource directory holds, or none.
    public let observatories: ObservatoryCodes
    /// The IAU constellation boundaries (Horizons' quantity 29), when the resources hold them.
    public let constellations: Constellations?

    /// Default size of `responses`.
    public static let defaultResponseCacheBytes = 16 << 20

    /// Builds the services. Throws when a mission's vehicles are not covered by the kernels
    /// (`bodies`) from their start to their end. `kernelIdentities` name every loaded kernel's
    /// contents (file, size, modification time): cached trajectory samples are keyed by them.
    public convenience init(
        catalogue: Catalogue, kernel: PlanetaryKernel? = nil, stars: StarCatalogue, missions: MissionCatalogue, bodies: KernelBodies,
        kernelIdentities: [String] = [], sampleCache: SampleCache? = nil, deltaT: DeltaTTable? = nil,
        textures: TextureSet? = nil, web: StaticSite = .empty, openAPIDocument: [UInt8], responseCacheBytes: Int = APIServices.defaultResponseCacheBytes,
        satellites: SatelliteFeed = SatelliteFeed(), smallBodies: SmallBodyFeed? = nil,
        observatories: ObservatoryCodes = .empty, constellations: Constellations? = nil,
        logger: Logger = Logger(label: "api"), clock: @escaping @Sendable () -> Double
    ) throws(MissionDataError) {
        try self.init(catalogue: catalogue, kernel: kernel, stars: stars, missions: missions, bodies: bodies, kernelIdentities: kernelIdentities,
                      sampleCache: sampleCache, deltaT: deltaT, textures: textures, web: web, openAPIDocument: openAPIDocument,
                      responses: ResponseCache(capacityBytes: responseCacheBytes), satellites: satellites, smallBodies: smallBodies,
                      observatories: observatories, constellations: constellations, logger: logger, clock: clock,
                      answers: TheoryTally(), largeRenders: RenderGate(), lifecycle: Lifecycle(), streams: StreamCounter())
    }

    /// The services for other kernels: the engine, the sky, the mission engines, the renderer and
    /// the body names built anew from `kernel` and `bodies`; the catalogues, element sets, caches,
    /// counters, clock and lifecycle shared with this one (the memory cache of encoded answers is
    /// emptied: its answers came from the old kernels; the SQLite cache keys every sample by the
    /// kernels' identities, and the small bodies' chunks by the planetary kernel, which their
    /// feed now integrates under). Throws, as at start-up, when the missions are not covered.
    public func reloaded(kernel: PlanetaryKernel?, bodies: KernelBodies, kernelIdentities: [String]) throws(MissionDataError) -> APIServices {
        let next = try APIServices(catalogue: catalogue, kernel: kernel, stars: stars, missions: missions, bodies: bodies, kernelIdentities: kernelIdentities,
                                   sampleCache: sampleCache, deltaT: sky.deltaT, textures: textures, web: web, openAPIDocument: openAPIDocument,
                                   responses: responses, satellites: satellites, smallBodies: smallBodies,
                                   observatories: observatories, constellations: constellations, logger: logger, clock: clock,
                                   answers: engine.answers, largeRenders: largeRenders, lifecycle: lifecycle, streams: streams)
        smallBodies?.replace(kernel: kernel)
        responses.removeAll()
        return next
    }

    private init(
        catalogue: Catalogue, kernel: PlanetaryKernel?, stars: StarCatalogue, missions: MissionCatalogue, bodies: KernelBodies,
        kernelIdentities: [String], sampleCache: SampleCache?, deltaT: DeltaTTable?, textures: TextureSet?, web: StaticSite,
        openAPIDocument: [UInt8], responses: ResponseCache<ResponseKey>, satellites: SatelliteFeed, smallBodies: SmallBodyFeed?,
        observatories: ObservatoryCodes, constellations: Constellations?, logger: Logger,
        clock: @escaping @Sendable () -> Double, answers: TheoryTally, largeRenders: RenderGate, lifecycle: Lifecycle, streams: StreamCounter
    ) throws(MissionDataError) {
        self.responses = responses
        self.largeRenders = largeRenders
        self.lifecycle = lifecycle
        self.streams = streams
        self.textures = textures
        self.kernelIdentities = kernelIdentities
        self.observatories = observatories
        self.constellations = constellations
        self.missions = missions
        self.sampleCache = sampleCache
        self.logger = logger
        self.catalogue = catalogue
        // The missions' close moon flybys, measured against the moons' theories (or the loaded
        // kernels that cover them), anchor those moons in every answer.
        let anchors = MoonFlybyAnchors.find(missions, kernels: bodies, ephemeris: Ephemeris(catalogue: catalogue, kernel: kernel, satellites: bodies))
        self.engine = EphemerisService(catalogue: catalogue, kernel: kernel, bodies: bodies, satellites: satellites, smallBodies: smallBodies, answers: answers,
                                       moonAnchors: anchors)
        self.sky = SkyEngine(ephemeris: engine.ephemeris, deltaT: deltaT)
        var aliases: [String: Int] = [:]
        for m in missions.missions { for v in m.vehicles { aliases[v.id] = v.naifID } }
        self.bodyDirectory = BodyDirectory(kernelTargets: Set(bodies.targets), aliases: aliases, satellites: satellites, smallBodies: smallBodies)
        self.stars = stars
        self.starsByMagnitude = stars.stars.sorted {
            ($0.magnitude, $0.rightAscensionHours) < ($1.magnitude, $1.rightAscensionHours)
        }
        self.occultableStars = OccultableStar.brightest(of: stars)
        self.openAPIDocument = openAPIDocument
        self.clock = clock
        self.bodies = bodies
        let layout = engine.layout, placement = engine.placement
        self.missionScenes = try MissionEngine.all(missions, ephemeris: engine.ephemeris, kernels: bodies)
            .mapValues { MissionScene(engine: $0, layout: layout, placement: placement) }
        self.missionDataHashes = Dictionary(uniqueKeysWithValues: missions.missions.map { m in
            (m.id, m.dataHash(kernels: kernelIdentities))
        })
        let ephemeris = engine.ephemeris
        self.renderer = textures.map { ViewRenderer(ephemeris: ephemeris, stars: stars, textures: $0) }
        self.textureImages = textures.map { TextureImages(textures: $0) }
        self.web = web
    }

    /// The hash cached samples of mission `id` are keyed by.
    func missionDataHash(_ id: String) -> String { missionDataHashes[id] ?? "" }

    /// Hours from the mission's launch to the present (the clock's now).
    func nowHours(_ m: Mission) -> Double {
        guard let now = try? TimeScale.utc(unixSeconds: clock()) else { return 0 }
        return m.hours(at: now)
    }

    /// Where the mission's replay ends now (a mission that flies on: the present).
    func replayEndHours(_ m: Mission) -> Double { m.replayEndHours(nowHours: nowHours(m)) }

    /// The engine of mission `id`, or a 404 listing the valid ids.
    func missionEngine(_ id: String) throws(ProblemDetails) -> MissionEngine { try missionScene(id).engine }

    /// Mission `id` drawn in the scene, or a 404 listing the valid ids.
    func missionScene(_ id: String) throws(ProblemDetails) -> MissionScene {
        guard let s = missionScenes[id] else { throw .unknownId("mission", id: id, parameter: nil, valid: missions.ids) }
        return s
    }

    public var ephemeris: Ephemeris { engine.ephemeris }
    /// The loaded element sets.
    public var satellites: SatelliteFeed { engine.satellites }
    /// The loaded asteroids and comets (nil: none).
    public var smallBodies: SmallBodyFeed? { engine.smallBodies }
    public var layout: SceneLayout { engine.layout }
}

/// Whether the process is shutting down (readiness fails from the first termination signal, before
/// the server stops accepting, so a load balancer stops sending new clients).
public final class Lifecycle: Sendable {
    private let draining = Atomic<Bool>(false)
    public init() {}
    public func beginDraining() { draining.store(true, ordering: .relaxed) }
    public var isDraining: Bool { draining.load(ordering: .relaxed) }
}

/// Whether an answer can ever change: fixed dates never do (immutable, strong ETag); `now`
/// does every instant (`no-store`).
enum Freshness: Sendable {
    case fixed
    case now
    /// Fixed while the server's data files are: revalidate hourly (catalogue, stars).
    case catalogue
    /// A fixed date, but computed from the element sets, which the operator's file replaces:
    /// revalidate after a minute (the strong ETag changes with the sets' epochs in the body).
    case elementSets

    init(dateParameter: String?) {
        self = (dateParameter == nil || dateParameter == "now") ? .now : .fixed
    }

    func apply(_ r: HTTPResponse) -> HTTPResponse {
        switch self {
        case .fixed: return r.immutable()
        case .now: return r.noStore()
        case .catalogue: return r.cacheable(maxAge: 3600)
        case .elementSets: return r.cacheable(maxAge: Self.elementSetMaxAgeSeconds)
        }
    }

    /// How long a client may reuse an answer computed from element sets before revalidating.
    static let elementSetMaxAgeSeconds = 60

    /// This freshness for an answer that also depends on the element sets: a fixed date becomes
    /// revalidated; `now` stays uncached.
    func dependingOnElementSets(_ depends: Bool) -> Freshness {
        depends && self == .fixed ? .elementSets : self
    }
}

extension HTTPResponse {
    /// Cache headers for a streamed answer (no ETag: the body does not exist as a whole).
    func streamedFreshness(_ freshness: Freshness) -> HTTPResponse {
        switch freshness {
        case .fixed: return withHeader("Cache-Control", "public, max-age=31536000, immutable")
        case .now: return noStore()
        case .catalogue: return withHeader("Cache-Control", "public, max-age=3600")
        case .elementSets: return withHeader("Cache-Control", "public, max-age=\(Freshness.elementSetMaxAgeSeconds)")
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
