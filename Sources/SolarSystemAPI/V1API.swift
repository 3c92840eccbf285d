import Ephemeris
import HTTP
import Storage
import Scene

/// The v1 endpoints of DESIGN.md (bodies, positions, rotations, scene, orbits, stars, camera,
/// the OpenAPI document), registered on a router.
///
/// ```swift
/// let api = V1API(services: services)
/// api.register(on: router)
/// ```
public struct V1API: Sendable {
    public let services: APIServices
    /// The catalogue answers never change while the process runs: encoded once.
    let bodiesJSON: [UInt8]
    let bodyJSON: [BodyID: [UInt8]]
    let missionListJSON: [UInt8]

    public init(services: APIServices) {
        self.services = services
        var all = JSONWriter(capacity: 32 * 1024)
        var single: [BodyID: [UInt8]] = [:]
        all.object { w in
            w.key("bodies")
            w.array { w in
                for id in BodyID.allCases {
                    var one = JSONWriter()
                    BodiesEncoding.write(id, services: services, into: &one)
                    single[id] = one.bytes
                    w.raw(one.bytes)
                }
            }
        }
        bodiesJSON = all.bytes
        bodyJSON = single
        missionListJSON = Self.encodeMissionList(services)
    }

    /// The API's own series on `/metrics`: the sample cache's hits and misses, live replays.
    public func registerMetrics(on registry: MetricsRegistry) {
        if let cache = services.sampleCache {
            registry.gauge("solarsystem_sample_cache_hits", help: "Trajectory sample cache hits since start.") { Double(cache.statistics.hits) }
            registry.gauge("solarsystem_sample_cache_misses", help: "Trajectory sample cache misses since start.") { Double(cache.statistics.misses) }
        }
        let streams = services.streams
        registry.gauge("solarsystem_mission_streams_open", help: "Mission replays streaming now.") { Double(streams.open) }
        services.engine.answers.attach(registry.counter("solarsystem_ephemeris_answers_total", help: "Body states answered by /v1/positions, by the theory that gave them.", labelNames: ["theory"]))
    }

    public func register(on router: Router) {
        router.get("/readyz") { _, _ in try readiness() }
        router.get("/openapi.yaml") { _, _ in
            HTTPResponse.bytes(services.openAPIDocument, contentType: "application/yaml; charset=utf-8").cacheable(maxAge: 3600)
        }
        router.get("/v1/bodies") { req, _ in
            try req.query.rejectUnknown([])
            return .catalogueJSON(bodiesJSON)
        }
        router.get("/v1/bodies/{id}") { req, ctx in
            try req.query.rejectUnknown([])
            let id = try QueryParsing.body(try ctx.parameters.require("id"), parameter: nil)
            return .catalogueJSON(bodyJSON[id] ?? [])
        }
        router.get("/v1/positions") { req, _ in try positions(req) }
        // JSON or CSV by `format` or `Accept`: caches must key on Accept too.
        router.get("/v1/positions/{id}") { req, ctx in try timeSeries(req, ctx).varying(on: "Accept") }
        router.get("/v1/rotations") { req, _ in try rotations(req) }
        router.get("/v1/scene") { req, _ in try scene(req) }
        router.get("/v1/orbits") { req, _ in try orbits(req) }
        router.get("/v1/stars") { req, _ in try stars(req).varying(on: "Accept") }
        router.get("/v1/camera/focus/{id}") { req, ctx in try cameraFocus(req, ctx) }
        router.get("/v1/missions") { req, _ in try missionList(req) }
        router.get("/v1/missions/{id}") { req, ctx in try missionDetail(req, ctx) }
        router.get("/v1/missions/{id}/trajectory") { req, ctx in try missionTrajectory(req, ctx) }
        router.get("/v1/missions/{id}/telemetry") { req, ctx in try missionTelemetry(req, ctx) }
        router.get("/v1/missions/{id}/events") { req, ctx in try missionEvents(req, ctx) }
        router.get("/v1/missions/{id}/framing") { req, ctx in try missionFraming(req, ctx) }
        router.get("/v1/missions/{id}/stream") { req, ctx in try missionStream(req, ctx) }
        router.get("/v1/views/system.svg", execution: .offloaded) { req, _ in try view(req, format: .svg) }
        router.get("/v1/views/system.ppm", execution: .offloaded) { req, _ in try view(req, format: .ppm) }
        router.get("/v1/views/system.png", execution: .offloaded) { req, _ in try view(req, format: .png) }
    }
}

extension V1API {
    /// `/readyz`: the catalogue, stars and missions are loaded (they are, once the server runs)
    /// and the cache database answers and takes writes (a write transaction is opened and rolled
    /// back). 503 with the failing check otherwise.
    func readiness() throws -> HTTPResponse {
        var checks: [(String, Bool)] = [("catalogue", true), ("missions", !services.missions.missions.isEmpty)]
        if let cache = services.sampleCache {
            checks.append(("database", cache.isWritable()))
        }
        var w = JSONWriter(capacity: 256)
        let ready = checks.allSatisfy(\.1)
        w.object { w in
            w.key("status"); w.string(ready ? "ready" : "not ready")
            w.key("checks"); w.object { w in for (name, ok) in checks { w.key(name); w.bool(ok) } }
        }
        guard ready else {
            throw ProblemDetails(status: .serviceUnavailable, detail: "not ready: \(checks.filter { !$0.1 }.map(\.0).joined(separator: ", "))")
        }
        return HTTPResponse.json(w.bytes).noStore()
    }
}
