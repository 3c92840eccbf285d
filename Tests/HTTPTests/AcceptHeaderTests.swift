import Testing
@testable import HTTPCore

@Suite("AcceptHeader")
struct AcceptHeaderTests {
    private let json = "application/json; charset=utf-8"
    private let csv = "text/csv; charset=utf-8"

    private func pick(_ accept: String...) -> String? {
        AcceptHeader(accept).preferred([json, csv])
    }

    @Test("absent or empty header: the server's preference")
    func absent() {
        #expect(AcceptHeader([]).preferred([json, csv]) == json)
        #expect(pick("") == json)
        #expect(AcceptHeader([]).quality(of: csv) == 1)
    }

    @Test("ties go to the server's preference; q decides otherwise")
    func qualities() {
        // What swift-openapi-generator's clients send.
        #expect(pick("application/problem+json, application/json, text/csv") == json)
        #expect(pick("text/csv, application/json") == json)
        #expect(pick("text/csv;q=1, application/json;q=0.5") == csv)
        #expect(pick("application/json;q=0.4", "text/csv;q=0.5") == csv)
        #expect(pick("text/csv") == csv)
        #expect(pick("*/*") == json)
        #expect(pick("*/*;q=0.1, text/csv") == csv)
        #expect(pick("image/png") == nil)
    }

    @Test("the most specific range gives a type its quality")
    func specificity() {
        #expect(pick("text/*, */*;q=0.5") == csv)
        #expect(pick("text/csv;q=0.2, text/*;q=0.9, */*;q=0.3") == json)
        #expect(pick("*/*, text/csv;q=0") == json)
        #expect(pick("*/*, application/json;q=0") == csv)
        #expect(AcceptHeader(["text/*;q=0.7, text/csv;charset=utf-8;q=0.3"]).quality(of: csv) == 0.3)
        #expect(AcceptHeader(["text/*;q=0.7, text/csv;q=0.3"]).quality(of: csv) == 0.3)
    }

    @Test("q=0 excludes")
    func zero() {
        #expect(pick("application/json;q=0, text/csv;q=0") == nil)
        #expect(pick("application/json;q=0") == nil)
        #expect(pick("text/csv;q=0.000, application/json;q=0.001") == json)
    }

    @Test("malformed elements are ignored")
    func malformed() {
        #expect(AcceptHeader(["json, */csv, text/csv;q=2, text/csv;q=abc, text/csv;q=-1, /, text/csv;q"]).ranges.isEmpty)
        #expect(pick("garbage, text/csv;q=0.5") == csv)
        #expect(pick(",,, text/csv ,") == csv)
        // Nothing valid: treated as absent.
        #expect(pick("nonsense") == json)
        #expect(AcceptHeader(["text/csv;q=0.1234"]).ranges.isEmpty)
    }

    @Test("case-insensitive, parameters and repeated fields")
    func parameters() {
        #expect(pick("TEXT/CSV;Q=0.9, Application/JSON;q=0.8") == csv)
        #expect(pick("text/csv;charset=UTF-8") == csv)
        #expect(pick("text/csv;charset=latin1") == nil)
        #expect(pick("text/csv;header=present") == nil)
        #expect(pick("application/json;q=0.5", "text/csv") == csv)
        // Accept-extensions after q are ignored; quoted commas do not split.
        #expect(pick("text/csv;q=0.8;ext=\"a,b\", application/json;q=0.7") == csv)
        let r = AcceptHeader(["Text/CSV; Charset=\"utf-8\" ; q=0.5"]).ranges
        #expect(r == [AcceptHeader.MediaRange("text/csv;charset=utf-8;q=0.5")!])
        #expect(r.first?.parameters == ["charset": "utf-8"] && r.first?.quality == 0.5)
    }

    @Test("negotiate throws a 406 naming what is offered")
    func notAcceptable() throws {
        let req = HTTPRequest(method: .get, target: "/x", path: "/x", headers: ["Accept": "image/png"])
        do {
            _ = try req.negotiate([json, csv])
            Issue.record("expected a 406")
        } catch {
            #expect(error.status == .notAcceptable)
            #expect(error[extension: "offered"] == .array([.string(json), .string(csv)]))
            #expect(error.detail?.contains("image/png") == true)
        }
        let ok = HTTPRequest(method: .get, target: "/x", path: "/x", headers: ["Accept": "text/csv;q=0.9, */*;q=0.1"])
        #expect(try ok.negotiate([json, csv]) == csv)
    }
}
