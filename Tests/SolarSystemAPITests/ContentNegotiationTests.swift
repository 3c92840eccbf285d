import Foundation
import HTTPTestSupport
import Testing

/// JSON or CSV by RFC 9110 §12.5.1 on every route that can answer CSV, and on `/v1/positions`
/// (JSON only, so a client accepting only CSV gets a 406).
@Suite("Content negotiation")
struct ContentNegotiationTests {
    static let series = "/v1/positions/moon?times=2026-01-01&center=earth"
    static let stars = "/v1/stars?maxMagnitude=0"

    private func contentType(_ target: String, accept: String) throws -> String? {
        let r = try APIServer.get(target, headers: ["Accept": accept])
        #expect(r.status == 200, "\(target) Accept: \(accept)")
        #expect(r.header("vary")?.contains("Accept") == true)
        return r.header("content-type")
    }

    @Test("the generated Swift client's Accept gets JSON; a preference for CSV gets CSV", arguments: [series, stars])
    func preference(target: String) throws {
        #expect(try contentType(target, accept: "application/problem+json, application/json, text/csv")?.hasPrefix("application/json") == true)
        #expect(try contentType(target, accept: "text/csv, application/json")?.hasPrefix("application/json") == true)
        #expect(try contentType(target, accept: "text/csv;q=1, application/json;q=0.5")?.hasPrefix("text/csv") == true)
        #expect(try contentType(target, accept: "text/*")?.hasPrefix("text/csv") == true)
        #expect(try contentType(target, accept: "*/*")?.hasPrefix("application/json") == true)
        let csv = try APIServer.get(target, headers: ["Accept": "text/csv;q=1, application/json;q=0.5"])
        #expect(csv.body == (try APIServer.get(target + "&format=csv")).body)
    }

    @Test("format= wins over Accept", arguments: [series, stars])
    func formatWins(target: String) throws {
        #expect(try contentType(target + "&format=json", accept: "text/csv")?.hasPrefix("application/json") == true)
        #expect(try contentType(target + "&format=csv", accept: "application/json")?.hasPrefix("text/csv") == true)
        #expect(try contentType(target + "&format=csv", accept: "image/png")?.hasPrefix("text/csv") == true)
    }

    @Test("nothing acceptable: a 406 problem naming what is offered", arguments: [series, stars, "/v1/positions?date=2026-01-01"])
    func notAcceptable(target: String) throws {
        for accept in ["image/png", "application/json;q=0, text/csv;q=0"] + (target.hasPrefix("/v1/positions?") ? ["text/csv"] : []) {
            let r = try APIServer.get(target, headers: ["Accept": accept])
            #expect(r.status == 406, "\(target) Accept: \(accept)")
            #expect(r.header("content-type")?.hasPrefix("application/problem+json") == true)
            let offered = r.json["offered"] as? [String] ?? []
            #expect(offered.first?.hasPrefix("application/json") == true)
            #expect(offered.contains { $0.hasPrefix("text/csv") } == !target.hasPrefix("/v1/positions?"))
        }
    }

    @Test("errors are problem+json whatever Accept lists")
    func problemsRegardless() throws {
        let r = try APIServer.get("/v1/positions/vulcan?times=2026-01-01", headers: ["Accept": "text/csv"])
        #expect(r.status == 404)
        #expect(r.header("content-type")?.hasPrefix("application/problem+json") == true)
    }

    @Test("/v1/positions answers JSON to Accept lists that include it, with Vary: Accept")
    func positions() throws {
        #expect(try contentType("/v1/positions?date=2026-01-01", accept: "text/csv, application/json;q=0.1")?.hasPrefix("application/json") == true)
    }
}
