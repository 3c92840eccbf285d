import Ephemeris
import HTTPCore
import Storage
import Scene

/// The v1 endpoints (bodies, positions, rotations, scene, orbits, stars, camera,
/// the OpenAPI document), registered on a router.
///
/// ```swift
/// let api = V1API(services: services)
/// api.register(on: router)
/// ```
public final class V1API: Sendable {
    public let services: APIServices
    /// The catalogue answers never change while the process runs: encoded once (identity, gzip
    /// variant, ETag).
    let bodiesBody: EncodedBody
    let bodyBodies: [BodyID: EncodedBody]
    let missionListBody: EncodedBody
    let missionBodies: [String: EncodedBody]
    let openAPIBody: EncodedBody

    public init(services: APIServices) {
        self.services = services
        var all = JSONWriter(capacity: 32 * 1024)
        var single: [BodyID: EncodedBody] = [:]
        all.object { w in
            w.key("bodies")
            w.array { w in
                for id in BodyID.allCases {
                    var one = JSONWriter()
                    BodiesEncoding.write(id, services: services, into: &one)
                    single[id] = EncodedBody(bytes: one.bytes, contentType: HTTPResponse.jsonContentType)
                    w.raw(one.bytes)
                }
            }
        }
        bodiesBody = EncodedBody(bytes: all.bytes, contentType: HTTPResponse.jsonContentType)
        bodyBodies = single
        missionListBody = EncodedBody(bytes: Self.encodeMissionList(services), contentType: HTTPResponse.jsonContentType)
        var details: [String: EncodedBody] = [:]
        // Missions that fly on are encoded per request: where their replay ends moves with now.
        for m in services.missions.missions where !m.isOngoing {
            guard let engine = try? services.missionEngine(m.id) else { continue }
            var w = JSONWriter(capacity: 8 * 1024)
            MissionEncoding.detail(engine, replayEndHours: services.replayEndHours(m), dataHash: services.missionDataHash(m.id), into: &w)
            details[m.id] = EncodedBody(bytes: w.bytes, contentType: HTTPResponse.jsonContentType)
        }
        missionBodies = details
        openAPIBody = EncodedBody(bytes: services.openAPIDocument, contentType: "application/yaml; charset=utf-8")
    }

    /// The API's own series on `/metrics`: the memory and SQLite caches, live replays.
    public func registerMetrics(on registry: MetricsRegistry) {
        let responses = services.responses
        registry.counter("solarsystem_response_cache_hits_total", help: "Answers served from the memory cache of encoded answers.") { Double(responses.statistics.hits) }
        registry.counter("solarsystem_response_cache_misses_total", help: "Cacheable answers computed because the memory cache did not hold them.") { Double(responses.statistics.misses) }
        registry.counter("solarsystem_response_cache_evictions_total", help: "Entries evicted from the memory cache to stay under its size.") { Double(responses.statistics.evictions) }
        registry.gauge("solarsystem_response_cache_bytes", help: "Bytes held by the memory cache (identity and gzip variants).") { Double(responses.statistics.bytes) }
        registry.gauge("solarsystem_response_cache_entries", help: "Answers held by the memory cache.") { Double(responses.statistics.entries) }
        if let cache = services.sampleCache {
            registry.counter("solarsystem_sample_cache_hits_total", help: "Trajectory sample cache (SQLite) hits since start.") { Double(cache.statistics.hits) }
            registry.counter("solarsystem_sample_cache_misses_total", help: "Trajectory sample cache (SQLite) misses since start.") { Double(cache.statistics.misses) }
            registry.counter("solarsystem_sample_cache_corrupt_total", help: "SQLite rows whose payload failed its CRC-32 (damaged on disk): computed again and removed.") { Double(cache.statistics.corrupt) }
            registry.counter("solarsystem_sample_cache_busy_total", help: "SQLite reads that met a lock and were computed instead.") { Double(cache.statistics.busy) }
            registry.counter("solarsystem_sample_cache_evictions_total", help: "SQLite rows evicted (least recently used) to stay under --cache-max-mb.") { Double(cache.statistics.evictions) }
            registry.counter("solarsystem_sample_cache_writes_dropped_total", help: "SQLite writes dropped after retries or because the write queue was full.") { Double(cache.statistics.writesDropped) }
            registry.gauge("solarsystem_sample_cache_bytes", help: "Bytes the SQLite sample cache holds (payloads plus per-row overhead).") { Double(cache.statistics.bytes) }
            registry.gauge("solarsystem_sample_cache_rows", help: "Rows in the SQLite sample cache.") { Double(cache.statistics.rows) }
            registry.gauge("solarsystem_sample_cache_max_bytes", help: "The trajectory samples' share of the SQLite cache's cap (three quarters of --cache-max-mb under serve; small bodies' integration chunks have the rest).") { Double(cache.configuration.maxBytes ?? 0) }
        }
        let streams = services.streams
        registry.gauge("solarsystem_mission_streams_open", help: "Mission replays streaming now.") { Double(streams.open) }
        registry.counter("solarsystem_mission_stream_ticks_skipped_total", help: "Telemetry ticks of mission replays not sent because the client was 64 KiB or more behind (the next tick it can take is sent; mission events are never skipped).") { Double(streams.skippedTicks) }
        let gate = services.largeRenders
        registry.gauge("solarsystem_large_renders_active", help: "Raster views over 2048 × 2048 pixels being rendered (one at a time).") { Double(gate.active) }
        services.engine.answers.attach(registry.counter("solarsystem_ephemeris_answers_total", help: "Body states computed for /v1/positions and its series, by the theory that gave them (answers repeated from the memory cache are not counted again).", labelNames: ["theory"]))
    }

    /// Every route (``LiveAPI/register(on:)``), answered by this API for the process's life.
    public func register(on router: Router) {
        LiveAPI(self).register(on: router)
    }
}

extension LiveAPI {
    /// Every route with its cost (docs/http.md, "Execution model"): `.light` answers come from
    /// memory or take microseconds and run on the event loop; planned `.compute` routes parse and
    /// look up their cache on the loop and compute on the worker pool; pictures are `.heavy`.
    /// Snapshots (positions, rotations, scene) declare `.small` answers: they are still served
    /// while response memory is over its limit, when new series, orbits, catalogues and pictures
    /// get 503. Each request is answered by the API current when it arrives (``current``).
    public func register(on router: Router) {
        router.get("/readyz") { _, _ in try self.current.api.readiness() }
        router.get("/openapi.yaml") { _, _ in .catalogue(self.current.api.openAPIBody) }
        router.plan(.get, "/v1/bodies", cost: .compute) { req, _ in try self.current.api.bodiesPlan(req) }
        router.get("/v1/bodies/{id}") { req, ctx in
            try req.query.rejectUnknown([])
            let api = self.current.api
            let text = try ctx.parameters.require("id")
            if BodyID(rawValue: text) == nil, let small = try api.smallBodyDetail(text) { return small }
            let id = try QueryParsing.body(text, parameter: nil)
            guard let body = api.bodyBodies[id] else { throw ProblemDetails.unknownId("body", id: id.rawValue, parameter: nil, valid: BodyID.allCases.map(\.rawValue)) }
            return .catalogue(body)
        }
        router.plan(.get, "/v1/close-approaches", cost: .compute) { req, _ in try self.current.api.closeApproachesPlan(req) }
        router.plan(.get, "/v1/positions", cost: .compute, answers: .small, replaysOn: ["accept"]) { req, _ in try self.current.api.positionsPlan(req) }
        router.plan(.get, "/v1/positions/{id}", cost: .compute) { req, ctx in try self.current.api.timeSeriesPlan(req, ctx) }
        router.plan(.get, "/v1/rotations", cost: .compute, answers: .small, replaysOn: []) { req, _ in try self.current.api.rotationsPlan(req) }
        router.plan(.get, "/v1/scene", cost: .compute, answers: .small, replaysOn: []) { req, _ in try self.current.api.scenePlan(req) }
        router.plan(.get, "/v1/orbits", cost: .compute) { req, _ in try self.current.api.orbitsPlan(req) }
        router.plan(.get, "/v1/stars", cost: .compute) { req, _ in try self.current.api.starsPlan(req) }
        router.get("/v1/camera/focus/{id}") { req, ctx in try self.current.api.cameraFocus(req, ctx) }
        router.get("/v1/missions") { req, _ in try self.current.api.missionList(req) }
        router.get("/v1/missions/{id}") { req, ctx in try self.current.api.missionDetail(req, ctx) }
        router.plan(.get, "/v1/missions/{id}/trajectory", cost: .compute) { req, ctx in try self.current.api.missionTrajectoryPlan(req, ctx) }
        router.get("/v1/missions/{id}/telemetry") { req, ctx in try self.current.api.missionTelemetry(req, ctx) }
        router.plan(.get, "/v1/missions/{id}/revolution", cost: .compute) { req, ctx in try self.current.api.missionRevolutionPlan(req, ctx) }
        router.get("/v1/missions/{id}/events") { req, ctx in try self.current.api.missionEvents(req, ctx) }
        router.get("/v1/missions/{id}/framing") { req, ctx in try self.current.api.missionFraming(req, ctx) }
        router.get("/v1/missions/{id}/stream") { req, ctx in try self.current.api.missionStream(req, ctx) }
        router.plan(.get, "/v1/views/system.svg", cost: .heavy) { req, _ in try self.current.api.viewPlan(req, format: .svg) }
        router.plan(.get, "/v1/views/system.ppm", cost: .heavy) { req, _ in try self.current.api.viewPlan(req, format: .ppm) }
        router.plan(.get, "/v1/views/system.png", cost: .heavy) { req, _ in try self.current.api.viewPlan(req, format: .png) }
        // Encoding a map the first time takes 0.1–0.3 s: the heavy lane.
        router.plan(.get, "/v1/textures/{file}", cost: .heavy) { req, ctx in try self.current.api.texturePlan(req, ctx) }
        registerSky(on: router)
        registerEclipses(on: router)
        registerHorizons(on: router)
        // The viewer's files do not change with the kernels: registered once, from memory.
        current.api.registerWeb(on: router)
    }
}

extension V1API {
    /// `/readyz`: 200 while the server takes requests: the catalogue, stars and missions are
    /// loaded (they are, once the server runs) and it is not shutting down (503 from the first
    /// termination signal, so a load balancer stops sending new clients while in-flight requests
    /// finish). The cache database's state is reported, as a background check last saw it, but
    /// does not decide readiness: the cache is derivable, and without it every answer is computed.
    /// Reads only in-memory state, so it answers at once whatever the database is doing.
    func readiness() throws -> HTTPResponse {
        let draining = services.lifecycle.isDraining
        let missionsLoaded = !services.missions.missions.isEmpty
        // The body catalogue and the star catalogue, as loaded at start-up: both full or neither.
        let catalogueLoaded = services.catalogue.entries.count == BodyID.allCases.count && !services.stars.stars.isEmpty
        var w = JSONWriter(capacity: 256)
        let ready = !draining && missionsLoaded && catalogueLoaded
        w.object { w in
            w.key("status"); w.string(ready ? "ready" : "not ready")
            w.key("checks")
            w.object { w in
                w.key("catalogue"); w.bool(catalogueLoaded)
                w.key("missions"); w.bool(missionsLoaded)
                w.key("shuttingDown"); w.bool(draining)
            }
            if let cache = services.sampleCache {
                let r = cache.readiness
                w.key("database")
                w.object { w in
                    switch r.state {
                    case .unknown: w.key("state"); w.string("unknown")
                    case .ok: w.key("state"); w.string("ok")
                    case .busy: w.key("state"); w.string("busy")
                    case .failed(let reason): w.key("state"); w.string("failed"); w.key("error"); w.string(reason)
                    }
                    w.key("checkedSecondsAgo"); if let age = r.age() { w.number((age * 10).rounded() / 10) } else { w.null() }
                    w.key("writable"); w.bool(cache.isWritable())
                }
            }
        }
        guard ready else {
            let detail = draining ? "not ready: the server is shutting down" : !catalogueLoaded ? "not ready: the body or star catalogue is incomplete" : "not ready: no missions loaded"
            var p = ProblemDetails(status: .serviceUnavailable, detail: detail)
            p.extensions.append(("checks", .object([("catalogue", .bool(catalogueLoaded)), ("missions", .bool(missionsLoaded)), ("shuttingDown", .bool(draining))])))
            throw p
        }
        return HTTPResponse.json(w.bytes).noStore()
    }
}
