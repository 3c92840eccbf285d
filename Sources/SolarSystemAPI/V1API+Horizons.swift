import Ephemeris
import HTTPCore
import Horizons
import Sky
import SmallBodies

extension LiveAPI {
    /// The JPL Horizons API dialect (docs/horizons.md) and the SPK export.
    func registerHorizons(on router: Router) {
        router.plan(.get, "/api/horizons.api", cost: .compute) { req, _ in try self.current.api.horizonsPlan(pairs: req.query.pairs) }
        router.plan(.post, "/api/horizons.api", cost: .compute) { req, _ in try self.current.api.horizonsPlan(pairs: try V1API.horizonsForm(req)) }
        router.plan(.get, "/v1/kernels/export.bsp", cost: .heavy) { req, _ in try self.current.api.kernelExportPlan(req) }
    }
}

extension V1API {
    /// Tables longer than this many rows are streamed as they are computed.
    static let horizonsStreamingRows = 2_000
    /// Rows computed per streamed chunk.
    static let horizonsRowsPerChunk = 500

    /// What a Horizons answer is computed from, as this request sees the server: the element
    /// sets and small bodies current now, the kernels' bodies, the missions' vehicle names.
    var horizonsContext: HorizonsContext {
        var names: [Int: String] = [:]
        for m in services.missions.missions { for v in m.vehicles where names[v.naifID] == nil { names[v.naifID] = v.name } }
        let small = services.smallBodies?.current
        return HorizonsContext(ephemeris: services.ephemeris, sky: services.sky, kernelBodies: services.bodies, vehicleNames: names,
                               smallBodies: small?.catalogue ?? .empty, propagator: small?.propagator,
                               satellites: services.satellites.current.catalogue, observatories: services.observatories,
                               constellations: services.constellations, now: services.clock, interrupt: .request)
    }

    /// A POST's parameters: the query's and the form body's (`application/x-www-form-urlencoded`).
    static func horizonsForm(_ req: HTTPRequest) throws -> [QueryParameters.Pair] {
        var pairs = req.query.pairs
        guard !req.body.isEmpty else { return pairs }
        let type = (req.headers["content-type"] ?? "").lowercased()
        guard type.isEmpty || type.hasPrefix("application/x-www-form-urlencoded") else {
            throw ProblemDetails(status: .unsupportedMediaType,
                                 detail: "a Horizons POST body is a form: application/x-www-form-urlencoded (Content-Type \(type) is not read)")
        }
        pairs += try QueryParameters(formURLEncoded: req.body).pairs
        return pairs
    }

    /// `GET`/`POST /api/horizons.api`: what is not a Horizons request at all is a 400 problem
    /// here, on the loop; the rest is answered on the worker pool, in Horizons' envelope
    /// (`format=json`, the API's default, or `text`), refusals in Horizons' words with 400.
    func horizonsPlan(pairs: [QueryParameters.Pair]) throws -> Router.Plan {
        let parameters: HorizonsParameters
        do {
            parameters = try HorizonsParameters(pairs)
        } catch {
            var p = ProblemDetails(status: .badRequest, detail: "not a Horizons API request: \(error.description)")
            if let name = error.parameter { p = p.with("parameter", .string(name)) }
            throw p.with("accepted", .string(error.accepted))
        }
        let context = horizonsContext
        let text = parameters.wantsText
        return .offload {
            let answer = Horizons.answer(parameters, context: context)
            try WorkBudget.checkCurrent()
            return Self.horizonsResponse(answer, text: text)
        }
    }

    static var horizonsSignature: String {
        #"{"signature":{"source":"\#(Horizons.apiSource)","version":"\#(Horizons.apiVersion)"},"#
    }

    static func horizonsResponse(_ answer: HorizonsAnswer, text: Bool) -> HTTPResponse {
        let contentType = text ? HTTPResponse.textContentType : HTTPResponse.jsonContentType
        switch answer {
        case let .text(body):
            return Self.horizonsWhole(body, text: text, status: .ok)
        case let .failure(f):
            // Horizons answers refusals inside its envelope with 400, "error" in place of "result".
            if text { return HTTPResponse.text(Horizons.textPreamble + f.text, status: .badRequest).noStore() }
            return HTTPResponse.json(Array((horizonsSignature + #""error":"# + JSONString.quoted(f.text) + "}").utf8), status: .badRequest).noStore()
        case let .table(table):
            let head = Array(((text ? Horizons.textPreamble : "") + table.head).utf8)
            let tail = Array(table.tail.utf8)
            let open = text ? [] : Array((horizonsSignature + #""result":""#).utf8)
            let close: [UInt8] = text ? [] : Array("\"}".utf8)
            let wrap: @Sendable ([UInt8]) -> [UInt8] = { text ? $0 : JSONString.escaped($0) }
            if table.rowCount <= horizonsStreamingRows {
                guard let rows = try? table.rows(0..<table.rowCount) else {
                    return HTTPResponse.text("the request was stopped", status: .serviceUnavailable).noStore()
                }
                return HTTPResponse(status: .ok, headers: ["Content-Type": contentType], body: .bytes(open + wrap(head) + wrap(rows) + wrap(tail) + close)).noStore()
            }
            struct Cursor: Sendable { var next = -1; var done = false }
            let count = table.rowCount, chunk = horizonsRowsPerChunk
            let producer = BodyProducer(state: Cursor()) { c in
                if c.done { return nil }
                if c.next < 0 { c.next = 0; return open + wrap(head) }
                if c.next >= count { c.done = true; return wrap(tail) + close }
                let end = min(count, c.next + chunk)
                defer { c.next = end }
                // A stopped request (client gone, budget spent) throws: the connection ends the
                // body without its last chunk, so the client sees it cut, not a short table that
                // looks whole (and the core logs why).
                return wrap(try table.rows(c.next..<end))
            }
            return HTTPResponse.stream(contentType: contentType, producer).noStore()
        case let .spk(export, fileID):
            // Horizons gives an SPK file as base64 inside its JSON: {"spk_file_id":…,"spk":…}.
            return Self.spkJSONStream(export, fileID: fileID)
        }
    }

    static func horizonsWhole(_ body: String, text: Bool, status: HTTPStatus) -> HTTPResponse {
        if text { return HTTPResponse.text(Horizons.textPreamble + body, status: status).noStore() }
        return HTTPResponse.json(Array((horizonsSignature + #""result":"# + JSONString.quoted(body) + "}").utf8), status: status).noStore()
    }

    /// The file base64-encoded as it is written, three bytes to four characters, never whole.
    static func spkJSONStream(_ export: SPKExport, fileID: String) -> HTTPResponse {
        struct State: Sendable { var cursor = SPKExport.Cursor(); var carry: [UInt8] = []; var started = false; var done = false }
        let open = Array((horizonsSignature + #""spk_file_id":"# + JSONString.quoted(fileID) + #","spk":""#).utf8)
        let producer = BodyProducer(state: State()) { s in
            if s.done { return nil }
            if !s.started { s.started = true; return open }
            guard let piece = export.chunk(after: &s.cursor) else {
                s.done = true
                return Base64.encode(s.carry) + Array("\"}".utf8)
            }
            let bytes = s.carry + piece
            let whole = bytes.count - bytes.count % 3
            s.carry = Array(bytes[whole...])
            return Base64.encode(bytes[..<whole])
        }
        return HTTPResponse.stream(contentType: HTTPResponse.jsonContentType, producer).noStore()
    }

    // MARK: - /v1/kernels/export.bsp

    /// The most days one export may span.
    public static let maxExportDays = 366.0 * 20

    /// `GET /v1/kernels/export.bsp?bodies=&center=&start=&stop=&type=`: an SPK file of the
    /// listed bodies' served positions relative to `center` (default the solar-system
    /// barycentre, `ssb`), written as the connection drains.
    func kernelExportPlan(_ req: HTTPRequest) throws -> Router.Plan {
        let q = req.query
        try q.rejectUnknown(["bodies", "center", "start", "stop", "type"])
        guard let list = try q.string("bodies"), !list.isEmpty else {
            throw ProblemDetails.missingParameter("bodies", accepted: "body ids: mars, moon, naif:-31, voyager1, sb:ceres, iss …")
        }
        let refs = try services.bodyDirectory.resolveList(list)
        guard refs.count <= 50 else { throw ProblemDetails.invalidParameter("bodies", value: list, accepted: "at most 50 bodies") }
        let (start, _) = try q.instant("start", clock: services.clock)
        guard q.contains("stop") else { throw ProblemDetails.missingParameter("stop", accepted: "a time after start (ISO 8601 UTC, jd:…)") }
        let (stop, _) = try q.instant("stop", clock: services.clock)
        let days = stop.seconds(since: start) / 86_400
        guard days > 0 else { throw ProblemDetails.invalidParameter("stop", value: try q.string("stop") ?? "", accepted: "a time after start") }
        guard days <= Self.maxExportDays else {
            throw ProblemDetails.invalidParameter("stop", value: try q.string("stop") ?? "", accepted: "a span of at most \(Int(Self.maxExportDays)) days", reason: "\(Int(days)) days")
        }
        let kindText = try q.oneOf("type", SPKExport.Kind.allCases.map(\.rawValue), default: SPKExport.Kind.automatic.rawValue)
        let kind = SPKExport.Kind(rawValue: kindText) ?? .automatic
        let context = horizonsContext
        let centerText = try q.string("center") ?? "ssb"
        let center: HorizonsBody
        if centerText == "ssb" {
            guard let b = context.majorBody(0) else { throw ProblemDetails(status: .unprocessableContent, detail: "no solar-system barycentre: no planetary kernel is loaded") }
            center = b
        } else {
            center = try Self.exportBody(try services.bodyDirectory.resolve(centerText, parameter: "center"), context: context, parameter: "center")
        }
        let requests = try refs.map { r throws(ProblemDetails) in SPKExport.Request(body: try Self.exportBody(r, context: context, parameter: "bodies"), center: center) }
        let span = start.daysSinceJ2000TDB * Constants.secondsPerDay...stop.daysSinceJ2000TDB * Constants.secondsPerDay
        let name = refs.map(\.description).joined(separator: "-").filter { $0.isLetter || $0.isNumber || $0 == "-" }.prefix(60)
        return .offload {
            let export: SPKExport
            do {
                export = try SPKExport.plan(requests, span: span, kind: kind, context: context, interrupt: .request)
            } catch let e as SPKExportError {
                throw ProblemDetails(status: .unprocessableContent, detail: "cannot write the SPK file: \(e.description)")
            }
            try WorkBudget.checkCurrent()
            struct State: Sendable { var cursor = SPKExport.Cursor() }
            let producer = BodyProducer(state: State()) { s in export.chunk(after: &s.cursor) }
            var response = HTTPResponse.stream(contentType: "application/octet-stream", producer)
            response.headers.add(name: "Content-Disposition", value: "attachment; filename=\"\(name).bsp\"")
            return response.noStore()
        }
    }

    /// The served body a `/v1` id names, as the export writes it.
    static func exportBody(_ ref: BodyRef, context c: HorizonsContext, parameter: String) throws(ProblemDetails) -> HorizonsBody {
        let body: HorizonsBody?
        switch ref {
        case let .engine(b): body = c.majorBody(NAIFBody.id(b))
        case let .kernel(naifID, _): body = c.majorBody(naifID)
        case let .satellite(norad, _): body = c.satelliteBody(norad: norad)
        case let .smallBody(id, _, _): body = c.smallBodies.resolve(id).map { c.smallBody($0) }
        }
        guard let body else {
            throw ProblemDetails(status: .unprocessableContent, detail: "\(ref.description) cannot be exported: the server places it only through its own engine, not as an SPK body")
                .with("parameter", .string(parameter))
        }
        return body
    }
}

/// JSON string escaping for text already known to be UTF-8 (Horizons' tables are ASCII).
enum JSONString {
    static func escaped(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 16)
        let hex = Array("0123456789abcdef".utf8)
        for b in bytes {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20: out += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 15)]]
            default: out.append(b)
            }
        }
        return out
    }

    static func quoted(_ s: String) -> String {
        "\"" + String(decoding: escaped(Array(s.utf8)), as: UTF8.self) + "\""
    }
}

/// RFC 4648 base64, for SPK files inside Horizons' JSON.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode<C: Collection<UInt8>>(_ bytes: C) -> [UInt8] where C.Index == Int {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let n = min(3, bytes.endIndex - i)
            let b0 = UInt32(bytes[i]), b1 = n > 1 ? UInt32(bytes[i + 1]) : 0, b2 = n > 2 ? UInt32(bytes[i + 2]) : 0
            let v = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(n > 1 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(n > 2 ? alphabet[Int(v & 63)] : UInt8(ascii: "="))
            i += n
        }
        return out
    }
}
