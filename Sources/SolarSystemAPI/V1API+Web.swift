import HTTPCore

extension V1API {
    /// The web viewer at `/` and the files it loads, from memory (`.light`): `/` and
    /// `/index.html` are the page; every other loaded file has its own exact route, so any other
    /// path is the router's 404 and never reaches a file name. The handler still checks the raw
    /// target (`StaticSite.file(forTarget:)`), so `/js%2fmain.js` is a 400 and not a detour.
    func registerWeb(on router: Router) {
        let site = services.web
        guard !site.files.isEmpty else { return }
        // The query is the page's own business (`/?date=2026-11-22&focus=saturn`): not read here.
        let handler: Router.Handler = { req, _ in Self.response(for: try site.file(forTarget: req.target)) }
        router.get("/", handler)
        for path in site.files.keys.sorted() { router.get("/" + path, handler) }
    }

    static func response(for file: StaticSite.File) -> HTTPResponse {
        var r = HTTPResponse(encoded: file.body)
        r.headers.replaceOrAdd(name: "Cache-Control", value: file.cacheControl)
        r.headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        if file.isHTML {
            r.headers.replaceOrAdd(name: "Content-Security-Policy", value: StaticSite.contentSecurityPolicy)
            r.headers.replaceOrAdd(name: "Referrer-Policy", value: "no-referrer")
        }
        r.generatesETag = true
        return r
    }

    /// `GET /v1/textures/{id}.png`: a body's surface map (RGB) or `saturn-rings` (RGBA), immutable.
    /// Answered from memory once encoded; the first request for an image encodes it on the pool.
    func texturePlan(_ req: HTTPRequest, _ ctx: RequestContext) throws -> Router.Plan {
        try req.query.rejectUnknown([])
        guard let images = services.textureImages else {
            throw ProblemDetails(status: .serviceUnavailable, detail: "textures are unavailable: they were not loaded")
        }
        let file = try ctx.parameters.require("file")
        guard file.hasSuffix(".png") else {
            throw ProblemDetails(status: .notFound, title: "Unknown texture", detail: "textures are served as {id}.png; ids: \(images.ids.joined(separator: ", "))")
        }
        let id = String(file.dropLast(4))
        guard images.ids.contains(id) else { throw ProblemDetails.unknownId("texture", id: id, parameter: nil, valid: images.ids) }
        if let body = images.cached(id) { return .respond(HTTPResponse(encoded: body).immutable()) }
        return .offload {
            guard let body = images.encode(id) else { throw ProblemDetails.unknownId("texture", id: id, parameter: nil, valid: images.ids) }
            return HTTPResponse(encoded: body).immutable()
        }
    }
}
