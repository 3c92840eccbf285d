import Testing
@testable import HTTPCore

@Suite("Request ids and header lists")
struct RequestIDTests {
    @Test("a fresh id is the process prefix, a dash and 12 lowercase hex digits of a counter that counts up")
    func generatedIDs() throws {
        let a = RequestID.generate(), b = RequestID.generate()
        for id in [a, b] {
            let parts = id.split(separator: "-")
            #expect(parts.count == 2 && parts[0].count == 8 && parts[1].count == 12, "\(id)")
            #expect(id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == UInt8(ascii: "-") }, "\(id)")
            #expect(RequestID.isSane(id))
        }
        #expect(a.prefix(8) == b.prefix(8))
        let na = try #require(UInt64(a.split(separator: "-")[1], radix: 16)), nb = try #require(UInt64(b.split(separator: "-")[1], radix: 16))
        #expect(nb > na)
    }

    @Test("containsToken finds an item of a comma-separated field, whatever its case and the spaces around it")
    func listTokens() {
        var h = HTTPHeaders()
        h.add(name: "Vary", value: " Accept ,accept-ENCODING,\tOrigin\t")
        h.add(name: "Connection", value: "")
        for token in ["accept", "Accept-Encoding", "origin"] { #expect(h.containsToken(token, in: "vary"), "\(token)") }
        for token in ["Accept-Enc", "ccept", "", "Origin,"] { #expect(!h.containsToken(token, in: "vary"), "\(token)") }
        #expect(!h.containsToken("close", in: "connection"))
        h.add(name: "connection", value: "keep-alive, close")
        #expect(h.containsToken("close", in: "Connection"))
    }
}
