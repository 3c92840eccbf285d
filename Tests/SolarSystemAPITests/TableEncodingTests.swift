import Foundation
import HTTPCore
import HTTPTestSupport
import Testing
@testable import SolarSystemAPI

/// `TableEncoding` through `V1API.streamedPlan` on a live server: a table read to its end is
/// the bytes it gives whole; a row that throws mid-stream cuts the body where it stands — the
/// client never gets the terminating chunk — and the error is logged with the request id.
@Suite("Tables: whole and streamed")
struct TableEncodingTests {
    struct RowFailure: Error, CustomStringConvertible {
        var description: String { "row 2 cannot be computed" }
    }

    /// Rows of about 40 KB, one per chunk, so the first two leave the server (a worker's batch
    /// is about the connection's 64 KiB window) before the third is asked for.
    static func table(count: Int, failingAt failing: Int?) -> JSONTable {
        JSONTable(count: count, leading: { w in w.key("count"); w.int(count) }) { range, document in
            for k in range {
                if k == failing { throw RowFailure() }
                document.write { w in
                    w.object { w in
                        w.key("k"); w.int(k)
                        w.key("pad"); w.string(String(repeating: "x", count: 40_000))
                    }
                }
            }
        }
    }

    static func server() throws -> TestServer {
        try TestServer(routes: { r in
            for (path, failing) in [("/whole", nil), ("/failing", 2)] as [(String, Int?)] {
                r.plan(.get, path, cost: .compute) { _, _ in
                    V1API.streamedPlan(table(count: 6, failingAt: failing), chunk: 1, contentType: HTTPResponse.jsonContentType,
                                       freshness: .fixed, link: nil, finish: { $0 })
                }
            }
        })
    }

    /// A chunked body read by hand: its data, and whether the zero-length chunk that ends it came.
    static func readChunked(_ c: RawClient) throws -> (body: [UInt8], ended: Bool) {
        var body: [UInt8] = []
        do {
            while true {
                let size = try #require(Int(try c.line(), radix: 16))
                if size == 0 { return (body, true) }
                body += try c.take(size)
                #expect(try c.take(2) == [0x0D, 0x0A])
            }
        } catch let failure as RawClient.Failure {
            #expect(failure.kind == .closed, "\(failure)")
            return (body, false)
        }
    }

    @Test("a streamed table read to its end is the table's whole bytes, in JSON")
    func streamedEqualsWhole() throws {
        let s = try Self.server()
        let c = try s.client()
        defer { c.close() }
        try c.send("GET /whole HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try c.readHead()
        #expect(head.status == 200)
        #expect(head.headers["transfer-encoding"] == "chunked")
        let (body, ended) = try Self.readChunked(c)
        #expect(ended)
        #expect(body == (try Self.table(count: 6, failingAt: nil).whole()))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect((json["samples"] as? [Any])?.count == 6)
    }

    @Test("a row that throws mid-stream ends the body without its last chunk, and the error is logged with the request id")
    func failingRowCutsTheBody() throws {
        let s = try Self.server()
        let c = try s.client()
        defer { c.close() }
        try c.send("GET /failing HTTP/1.1\r\nHost: t\r\nX-Request-Id: cut-table-1\r\n\r\n")
        let head = try c.readHead()
        #expect(head.status == 200)
        let (body, ended) = try Self.readChunked(c)
        #expect(!ended, "the body must not end as if complete")
        // The head and the first rows went out before the failure; the document is left open.
        // (Booleans, so that a failure does not print 80 KB of padding.)
        let text = String(decoding: body, as: UTF8.self)
        let startsWithHeadAndRow0 = text.hasPrefix(#"{"count":6,"samples":[{"k":0,"#)
        let holdsRow1 = text.contains(#"{"k":1,"#), holdsRow2 = text.contains(#"{"k":2,"#)
        let closed = text.hasSuffix("]}"), parses = (try? JSONSerialization.jsonObject(with: Data(body))) != nil
        #expect(startsWithHeadAndRow0 && holdsRow1)
        #expect(!holdsRow2 && !closed && !parses)
        #expect(TestServer.eventually {
            s.logs.lines.contains { $0.contains("\"level\":\"error\"") && $0.contains("cut-table-1") && $0.contains("row 2 cannot be computed") }
        })
    }
}
