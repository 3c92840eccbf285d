import Testing
@testable import HTTPCore

/// Feeds `input` to a fresh parser, whole or one byte at a time, and collects what it says.
private struct ParseRun {
    var requests: [HTTPRequest] = []
    var error: HTTPParseError?
    var continues = 0

    init(_ input: [UInt8], bytewise: Bool, limits: HTTPParserLimits = HTTPParserLimits()) {
        var parser = HTTPParser(limits: limits)
        func drain() -> Bool {
            while true {
                switch parser.next() {
                case .needMore: return true
                case .continueExpected: continues += 1
                case .request(let r): requests.append(r)
                case .error(let e):
                    error = e
                    return false
                }
            }
        }
        if bytewise {
            for b in input {
                parser.append([b])
                if !drain() { break }
            }
        } else {
            parser.append(input)
            _ = drain()
        }
    }
}

struct ValidCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: String
    let check: @Sendable ([HTTPRequest]) -> Bool
    var testDescription: String { name }
}

struct InvalidCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let status: Int
    var testDescription: String { "\(name) → \(status)" }

    init(_ name: String, _ input: String, _ status: Int) {
        self.name = name
        self.input = Array(input.utf8)
        self.status = status
    }

    init(_ name: String, bytes: [UInt8], _ status: Int) {
        self.name = name
        self.input = bytes
        self.status = status
    }
}

private let validCases: [ValidCase] = [
    ValidCase(name: "simple GET", input: "GET / HTTP/1.1\r\nHost: a\r\n\r\n") { r in
        r.count == 1 && r[0].method == .get && r[0].path == "/" && r[0].version == .http1_1 && r[0].headers["host"] == "a" && r[0].body.isEmpty
    },
    ValidCase(name: "query decoded in order", input: "GET /v1/positions?date=2026-11-22&bodies=earth,moon&x=a+b%20c HTTP/1.1\r\nHost: a\r\n\r\n") { r in
        r.count == 1 && r[0].path == "/v1/positions" && r[0].query.pairs.map(\.name) == ["date", "bodies", "x"]
            && r[0].query["bodies"] == "earth,moon" && r[0].query["x"] == "a b c" && r[0].target == "/v1/positions?date=2026-11-22&bodies=earth,moon&x=a+b%20c"
    },
    ValidCase(name: "percent-decoded path keeps +", input: "GET /v1/bodies/ea%72th+x HTTP/1.1\r\nHost: a\r\n\r\n") { r in
        r.first?.path == "/v1/bodies/earth+x"
    },
    ValidCase(name: "UTF-8 in path", input: "GET /caf%C3%A9 HTTP/1.1\r\nHost: a\r\n\r\n") { r in r.first?.path == "/café" },
    ValidCase(name: "absolute-form target", input: "GET http://example.org:8080/v1/x?y=1 HTTP/1.1\r\nHost: example.org\r\n\r\n") { r in
        r.first?.path == "/v1/x" && r.first?.query["y"] == "1"
    },
    ValidCase(name: "absolute-form without path", input: "GET http://example.org HTTP/1.1\r\nHost: example.org\r\n\r\n") { r in r.first?.path == "/" },
    ValidCase(name: "asterisk-form OPTIONS", input: "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n") { r in r.first?.path == "*" && r.first?.method == .options },
    ValidCase(name: "HTTP/1.0 without Host", input: "GET /x HTTP/1.0\r\n\r\n") { r in r.first?.version == .http1_0 && r.first?.wantsKeepAlive == false },
    ValidCase(name: "HTTP/1.0 keep-alive opt-in", input: "GET /x HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") { r in r.first?.wantsKeepAlive == true },
    ValidCase(name: "HTTP/1.1 Connection: close", input: "GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n") { r in r.first?.wantsKeepAlive == false },
    ValidCase(name: "extension method", input: "PURGE /x HTTP/1.1\r\nHost: a\r\n\r\n") { r in r.first?.method == HTTPMethod("PURGE") },
    ValidCase(name: "repeated headers survive in order", input: "GET / HTTP/1.1\r\nHost: a\r\nAccept: text/csv\r\nX-A: 1\r\naccept: application/json\r\n\r\n") { r in
        r.first?.headers.values(for: "ACCEPT") == ["text/csv", "application/json"] && r.first?.headers.count == 4
    },
    ValidCase(name: "OWS trimmed, inner spaces kept", input: "GET / HTTP/1.1\r\nHost: a\r\nX-Thing: \t a  b \t\r\n\r\n") { r in r.first?.headers["x-thing"] == "a  b" },
    ValidCase(name: "empty header value", input: "GET / HTTP/1.1\r\nHost: a\r\nX-Empty:\r\n\r\n") { r in r.first?.headers["x-empty"] == "" },
    ValidCase(name: "Content-Length body", input: "POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello") { r in
        r.count == 1 && r[0].body == Array("hello".utf8) && r[0].method == .post
    },
    ValidCase(name: "Content-Length with leading zeros", input: "POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 005\r\n\r\nhello") { r in
        r.first?.body == Array("hello".utf8)
    },
    ValidCase(name: "Content-Length zero", input: "POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n") { r in r.count == 1 && r[0].body.isEmpty },
    ValidCase(name: "chunked with extension and trailers", input: "POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name=v\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n") { r in
        r.count == 1 && r[0].body == Array("hello world".utf8) && r[0].trailers["x-checksum"] == "abc" && r[0].trailers.count == 2
    },
    ValidCase(name: "chunked uppercase hex size", input: "POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n") { r in
        r.first?.body == Array("0123456789".utf8)
    },
    ValidCase(name: "leading empty lines ignored", input: "\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n") { r in r.count == 1 },
    ValidCase(name: "pipelined requests", input: "GET /1 HTTP/1.1\r\nHost: a\r\n\r\nPOST /2 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: a\r\n\r\n") { r in
        r.map(\.path) == ["/1", "/2", "/3"] && r[1].body == Array("hi".utf8)
    },
    ValidCase(name: "obs-text in a value", input: "GET / HTTP/1.1\r\nHost: a\r\nX-Latin: caf\u{E9}\r\n\r\n") { r in r.first?.headers["x-latin"] == "café" },
    ValidCase(name: "empty query items skipped", input: "GET /q?&a=1&&b&c= HTTP/1.1\r\nHost: a\r\n\r\n") { r in
        r.first?.query.pairs.map { "\($0.name)=\($0.value)" } == ["a=1", "b=", "c="]
    },
    // conformance: Host, version, target forms, chunk extensions, trailers (docs/http.md)
    ValidCase(name: "Host with IPv4 and port", input: "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n") { r in r.first?.authority == "127.0.0.1:8080" },
    ValidCase(name: "Host IPv6 literal with port", input: "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n") { r in r.first?.authority == "[::1]:8080" },
    ValidCase(name: "Host IPv6 literal alone", input: "GET / HTTP/1.1\r\nHost: [2001:db8::ff00:42:8329]\r\n\r\n") { r in r.count == 1 },
    ValidCase(name: "Host IPv4-mapped IPv6", input: "GET / HTTP/1.1\r\nHost: [::ffff:192.0.2.1]:80\r\n\r\n") { r in r.count == 1 },
    ValidCase(name: "Host IPvFuture", input: "GET / HTTP/1.1\r\nHost: [v1.fe80::a+en1]\r\n\r\n") { r in r.count == 1 },
    ValidCase(name: "Host with empty port", input: "GET / HTTP/1.1\r\nHost: example.org:\r\n\r\n") { r in r.count == 1 },
    ValidCase(name: "Host with percent-encoding and sub-delims", input: "GET / HTTP/1.1\r\nHost: ex%41mple-1_~!$&'()*+;=.org:65535\r\n\r\n") { r in r.count == 1 },
    ValidCase(name: "absolute-form authority wins over Host", input: "GET http://example.org:8080/v1/x HTTP/1.1\r\nHost: other.example\r\n\r\n") { r in
        r.first?.authority == "example.org:8080" && r.first?.path == "/v1/x"
    },
    ValidCase(name: "absolute-form with empty Host", input: "GET http://example.org/ HTTP/1.1\r\nHost:\r\n\r\n") { r in r.first?.authority == "example.org" },
    ValidCase(name: "absolute-form with IPv6 authority", input: "GET http://[::1]:8080/x?y=1 HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n") { r in
        r.first?.authority == "[::1]:8080" && r.first?.query["y"] == "1"
    },
    ValidCase(name: "HTTP/1.0 with a Host", input: "GET / HTTP/1.0\r\nHost: a:80\r\n\r\n") { r in r.first?.authority == "a:80" },
    ValidCase(name: "higher minor version served as HTTP/1.1", input: "GET / HTTP/1.2\r\nHost: a\r\n\r\n") { r in r.first?.version == .http1_1 },
    ValidCase(name: "brackets in the query", input: "GET /q?a[]=1 HTTP/1.1\r\nHost: a\r\n\r\n") { r in r.first?.query["a[]"] == "1" },
    ValidCase(name: "every RFC 3986 target byte", input: "GET /az-AZ_09.~!$&'()*+,;=:@%20/?/?:@ HTTP/1.1\r\nHost: a\r\n\r\n") { r in r.first?.path == "/az-AZ_09.~!$&'()*+,;=:@ /" },
    ValidCase(name: "method of 32 bytes", input: "\(String(repeating: "M", count: 32)) / HTTP/1.1\r\nHost: a\r\n\r\n") { r in r.first?.method.rawValue.count == 32 },
    ValidCase(name: "chunk extensions: token, quoted, bare name, BWS", input: "POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 ; a = b;c\t;d=\"x \\\" ;y\"\r\nhello\r\n0;last\r\n\r\n") { r in
        r.first?.body == Array("hello".utf8)
    },
    ValidCase(name: "empty Transfer-Encoding list element ignored", input: "POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: , chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n") { r in r.first?.body == Array("hi".utf8) },
    ValidCase(name: "framing fields in a trailer are dropped", input: "POST /u HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\nContent-Length: 40\r\nTransfer-Encoding: chunked\r\nHost: evil.example\r\nConnection: close\r\nX-Checksum: c\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n") { r in
        r.count == 2 && r[0].body == Array("hi".utf8) && r[0].trailers.count == 1 && r[0].trailers["x-checksum"] == "c"
            && r[0].headers.count == 2 && r[0].authority == "a" && r[0].wantsKeepAlive && r[1].path == "/next"
    },
]

private func repeated(_ s: String, _ n: Int) -> String { String(repeating: s, count: n) }

private let invalidCases: [InvalidCase] = [
    // smuggling vectors (RFC 9112 §6.1, §6.3)
    InvalidCase("Content-Length with Transfer-Encoding", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    InvalidCase("Transfer-Encoding with Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n", 400),
    InvalidCase("differing Content-Length fields", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400),
    InvalidCase("differing Content-Length list", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 6\r\n\r\nhello!", 400),
    InvalidCase("non-numeric Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: abc\r\n\r\n", 400),
    InvalidCase("negative Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", 400),
    InvalidCase("signed Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello", 400),
    InvalidCase("hex Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0x5\r\n\r\nhello", 400),
    InvalidCase("Content-Length with inner space", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1 2\r\n\r\n", 400),
    InvalidCase("empty Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", 400),
    // RFC 9112 §6.3: chunked not last (here: absent) means the length cannot be determined.
    InvalidCase("unknown transfer coding alone", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
    InvalidCase("made-up coding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: xchunked\r\n\r\n", 400),
    // chunked last, so the framing is known, but gzip is not implemented.
    InvalidCase("gzip then chunked", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
    InvalidCase("chunked twice", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
    InvalidCase("Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    InvalidCase("obs-fold", "GET / HTTP/1.1\r\nHost: a\r\nX-Long: one\r\n two\r\n\r\n", 400),
    InvalidCase("obs-fold with tab", "GET / HTTP/1.1\r\nHost: a\r\nX-Long: one\r\n\ttwo\r\n\r\n", 400),
    InvalidCase("bare CR in a value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: a\rb\r\n\r\n", 400),
    InvalidCase("bare CR in the request line", "GET /a\rb HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("bare LF line end", "GET / HTTP/1.1\nHost: a\n\n", 400),
    InvalidCase("bare LF in headers", "GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n", 400),
    InvalidCase("NUL in a value", bytes: Array("GET / HTTP/1.1\r\nHost: a\r\nX-A: a".utf8) + [0] + Array("b\r\n\r\n".utf8), 400),
    InvalidCase("NUL in a name", bytes: Array("GET / HTTP/1.1\r\nHost: a\r\nX".utf8) + [0] + Array("A: b\r\n\r\n".utf8), 400),
    InvalidCase("control char in a value", "GET / HTTP/1.1\r\nHost: a\r\nX-A: a\u{01}b\r\n\r\n", 400),
    InvalidCase("space in a header name", "GET / HTTP/1.1\r\nHost: a\r\nBad Name: x\r\n\r\n", 400),
    InvalidCase("space before the colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", 400),
    InvalidCase("space before Transfer-Encoding colon", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding : chunked\r\nContent-Length: 3\r\n\r\nabc", 400),
    InvalidCase("header without colon", "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", 400),
    InvalidCase("empty header name", "GET / HTTP/1.1\r\nHost: a\r\n: x\r\n\r\n", 400),
    InvalidCase("missing Host in 1.1", "GET / HTTP/1.1\r\nX: y\r\n\r\n", 400),
    InvalidCase("two Host headers", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
    // request line
    InvalidCase("version 2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", 505),
    InvalidCase("version 0.9", "GET / HTTP/0.9\r\nHost: a\r\n\r\n", 505),
    InvalidCase("version 3.0", "GET / HTTP/3.0\r\nHost: a\r\n\r\n", 505),
    InvalidCase("version 9.9", "GET / HTTP/9.9\r\nHost: a\r\n\r\n", 505),
    InvalidCase("malformed version", "GET / HTTX/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("lowercase version", "GET / http/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("missing version", "GET /\r\nHost: a\r\n\r\n", 400),
    InvalidCase("double space", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("space in target", "GET /a b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("bad method token", "G@T / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("non-ASCII in target", bytes: Array("GET /caf".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8), 400),
    InvalidCase("relative target", "GET x/y HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("asterisk for GET", "GET * HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("malformed percent in path", "GET /a%zz HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("truncated percent in path", "GET /a% HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("encoded NUL in path", "GET /a%00 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("invalid UTF-8 in path", "GET /a%FF HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("malformed percent in query", "GET /a?x=%G1 HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("too many empty lines", "\r\n\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    // chunked framing
    InvalidCase("bad chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
    InvalidCase("chunk size with space", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5 \r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("chunk data too long", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("chunk size representable but over 1 MiB", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n", 413),
    // limits
    InvalidCase("request line over 8 KiB", "GET /\(repeated("a", 8300)) HTTP/1.1\r\nHost: a\r\n\r\n", 414),
    // Found by the fuzzer: length must be judged before the line ending, whatever the split.
    InvalidCase("request line over 8 KiB ending in bare LF", "GET /\(repeated("a", 8300)) HTTP/1.1\nHost: a\n\n", 414),
    InvalidCase("headers over 32 KiB", "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<40).map { "X-H\($0): \(repeated("v", 1000))\r\n" }.joined() + "\r\n", 431),
    InvalidCase("one header over 32 KiB", "GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(repeated("v", 33_000))\r\n\r\n", 431),
    InvalidCase("101 header fields", "GET / HTTP/1.1\r\nHost: a\r\n" + (0..<100).map { "X-H\($0): v\r\n" }.joined() + "\r\n", 431),
    InvalidCase("Content-Length over 1 MiB", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1048577\r\n\r\n", 413),
    InvalidCase("chunked body over 1 MiB", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n100000\r\n\(repeated("x", 0x100000))\r\n1\r\n", 413),
    InvalidCase("trailers over the field limit", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n" + (0..<101).map { "T\($0): v\r\n" }.joined() + "\r\n", 431),
    // expectations
    InvalidCase("unsupported expectation", "POST / HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx", 417),
    // conformance: Host (RFC 9112 §3.2, RFC 9110 §7.2)
    InvalidCase("Host with userinfo", "GET / HTTP/1.1\r\nHost: user@127.0.0.1:8080\r\n\r\n", 400),
    InvalidCase("Host with a path", "GET / HTTP/1.1\r\nHost: 127.0.0.1:8080/path\r\n\r\n", 400),
    InvalidCase("empty Host for origin-form", "GET / HTTP/1.1\r\nHost: \r\n\r\n", 400),
    InvalidCase("empty Host for asterisk-form", "OPTIONS * HTTP/1.1\r\nHost:\r\n\r\n", 400),
    InvalidCase("empty Host in HTTP/1.0", "GET / HTTP/1.0\r\nHost:\r\n\r\n", 400),
    InvalidCase("Host list", "GET / HTTP/1.1\r\nHost: a.example, b.example\r\n\r\n", 400),
    InvalidCase("Host list without space", "GET / HTTP/1.1\r\nHost: a.example,b.example\r\n\r\n", 400),
    InvalidCase("two Host headers in HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400),
    InvalidCase("Host with non-numeric port", "GET / HTTP/1.1\r\nHost: a:http\r\n\r\n", 400),
    InvalidCase("Host with port over 65535", "GET / HTTP/1.1\r\nHost: a:65536\r\n\r\n", 400),
    InvalidCase("Host with negative port", "GET / HTTP/1.1\r\nHost: a:-1\r\n\r\n", 400),
    InvalidCase("Host with two ports", "GET / HTTP/1.1\r\nHost: a:80:81\r\n\r\n", 400),
    InvalidCase("Host with port only", "GET / HTTP/1.1\r\nHost: :8080\r\n\r\n", 400),
    InvalidCase("Host with inner space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
    InvalidCase("Host with a query", "GET / HTTP/1.1\r\nHost: a?x\r\n\r\n", 400),
    InvalidCase("Host with bad percent-encoding", "GET / HTTP/1.1\r\nHost: a%g1\r\n\r\n", 400),
    InvalidCase("Host unbracketed IPv6", "GET / HTTP/1.1\r\nHost: ::1\r\n\r\n", 400),
    InvalidCase("Host unterminated IP literal", "GET / HTTP/1.1\r\nHost: [::1:8080\r\n\r\n", 400),
    InvalidCase("Host IP literal with bad digit", "GET / HTTP/1.1\r\nHost: [::g]\r\n\r\n", 400),
    InvalidCase("Host IPv6 with nine groups", "GET / HTTP/1.1\r\nHost: [1:2:3:4:5:6:7:8:9]\r\n\r\n", 400),
    InvalidCase("Host IPv6 with two ::", "GET / HTTP/1.1\r\nHost: [1::2::3]\r\n\r\n", 400),
    InvalidCase("Host IPv6 with bad IPv4 tail", "GET / HTTP/1.1\r\nHost: [::ffff:256.0.0.1]\r\n\r\n", 400),
    InvalidCase("Host text after IP literal", "GET / HTTP/1.1\r\nHost: [::1]x\r\n\r\n", 400),
    InvalidCase("absolute-form with userinfo", "GET http://user@example.org/ HTTP/1.1\r\nHost: example.org\r\n\r\n", 400),
    InvalidCase("absolute-form with empty host", "GET http://:80/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("absolute-form still needs a valid Host", "GET http://example.org/ HTTP/1.1\r\nHost: user@example.org\r\n\r\n", 400),
    InvalidCase("absolute-form still needs a Host in 1.1", "GET http://example.org/ HTTP/1.1\r\n\r\n", 400),
    // conformance: request target (RFC 9112 §3.2)
    InvalidCase("fragment in target", "GET /path#frag HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("asterisk with POST", "POST * HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n", 400),
    InvalidCase("asterisk followed by more", "OPTIONS */x HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("NUL in target", bytes: Array("GET /".utf8) + [0] + Array("test HTTP/1.1\r\nHost: a\r\n\r\n".utf8), 400),
    InvalidCase("DEL in target", "GET /a\u{7F} HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("brace in target", "GET /a{b} HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("pipe in target", "GET /q?a|b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("quote in target", "GET /\"x\" HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("angle bracket in target", "GET /<script> HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("backslash in target", "GET /a\\b HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("tab in target", "GET /a\tb HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("missing target", "GET HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    // conformance: method
    InvalidCase("method of 33 bytes", "\(repeated("M", 33)) / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("method of 100 KB", "\(repeated("A", 100_000)) / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("tab after the method", "GET\t/ HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("space before the method", " GET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("whitespace-only line", "   \r\n\r\n", 400),
    InvalidCase("bare LF before the request line", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("bare CR before the request line", "\rGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    // conformance: garbage fails at its first byte, without waiting for a line end
    InvalidCase("TLS ClientHello", bytes: [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00], 400),
    InvalidCase("binary first byte", bytes: [0xFF, 0xFE, 0x00], 400),
    InvalidCase("NUL first byte", bytes: [0x00], 400),
    InvalidCase("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
    // conformance: version (RFC 9112 §2.3)
    InvalidCase("version without minor", "GET / HTTP/1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("version with leading zeros", "GET / HTTP/01.01\r\nHost: a\r\n\r\n", 400),
    InvalidCase("version with two-digit minor", "GET / HTTP/1.10\r\nHost: a\r\n\r\n", 400),
    InvalidCase("space inside version", "GET / HTTP/ 1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("space after version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", 400),
    InvalidCase("no space before version", "GET /HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("HTTP/0.9 request line", "GET /\r\n\r\n", 400),
    // conformance: Transfer-Encoding (RFC 9112 §6.3)
    InvalidCase("chunked then gzip", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n", 400),
    InvalidCase("chunked then identity field", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n", 400),
    InvalidCase("identity coding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: identity\r\n\r\n", 400),
    InvalidCase("chunked with parameters", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked;ext=val\r\n\r\n0\r\n\r\n", 400),
    InvalidCase("empty Transfer-Encoding", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: \r\n\r\n", 400),
    // conformance: chunks (RFC 9112 §7.1, §7.1.1)
    InvalidCase("chunk size too large to represent", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffff\r\n", 400),
    InvalidCase("chunk size 2^63", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n8000000000000000\r\n", 400),
    InvalidCase("bare semicolon chunk extension", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;\r\nhello\r\n0\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n", 400),
    InvalidCase("invalid token in chunk extension", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;bad[=x\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("chunk extension without value", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("chunk extension without name", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;=x\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("chunk extension unterminated quote", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a=\"x\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("chunk extension trailing space", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a \r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("chunk extension two names", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a b\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("NUL in chunk extension", bytes: Array("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;".utf8) + [0] + Array("ext\r\nhello\r\n0\r\n\r\n".utf8), 400),
    InvalidCase("bare CR in chunk extension", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;a\rX\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("negative chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("0x chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("signed chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("leading space chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n 5\r\nhello\r\n0\r\n\r\n", 400),
    InvalidCase("underscore chunk size", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1_0\r\nhello world!!!!!\r\n0\r\n\r\n", 400),
    // conformance: Content-Length (RFC 9110 §8.6: lists are rejected, not folded)
    InvalidCase("identical Content-Length list", "POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 5, 5\r\n\r\nhello", 400),
    InvalidCase("identical Content-Length fields", "POST /u HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
    InvalidCase("Content-Length too large to represent", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999999999999999\r\n\r\n", 400),
    InvalidCase("octal Content-Length", "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0o5\r\n\r\nhello", 400),
]

@Suite("HTTPParser")
struct HTTPParserTests {
    @Test("valid input, fed whole", arguments: validCases)
    func validWhole(_ c: ValidCase) {
        let run = ParseRun(Array(c.input.utf8), bytewise: false)
        #expect(run.error == nil, "unexpected \(String(describing: run.error))")
        #expect(c.check(run.requests))
    }

    @Test("valid input, fed one byte at a time", arguments: validCases)
    func validBytewise(_ c: ValidCase) {
        let run = ParseRun(Array(c.input.utf8), bytewise: true)
        #expect(run.error == nil, "unexpected \(String(describing: run.error))")
        #expect(c.check(run.requests))
    }

    @Test("invalid input, fed whole", arguments: invalidCases)
    func invalidWhole(_ c: InvalidCase) {
        let run = ParseRun(c.input, bytewise: false)
        #expect(run.error?.status.code == c.status, "got \(String(describing: run.error)) after \(run.requests.count) requests")
        #expect(run.requests.isEmpty)
    }

    @Test("invalid input, fed one byte at a time", arguments: invalidCases)
    func invalidBytewise(_ c: InvalidCase) {
        let run = ParseRun(c.input, bytewise: true)
        #expect(run.error?.status.code == c.status, "got \(String(describing: run.error)) after \(run.requests.count) requests")
        #expect(run.requests.isEmpty)
    }

    @Test func exactlyAtTheLimitsIsAccepted() {
        let limits = HTTPParserLimits()
        // A request line of exactly 8 KiB.
        let target = "/" + repeated("a", limits.maxRequestLineBytes - "GET  HTTP/1.1".count - 1)
        let line = "GET \(target) HTTP/1.1"
        #expect(line.utf8.count == limits.maxRequestLineBytes)
        let run = ParseRun(Array("\(line)\r\nHost: a\r\n\r\n".utf8), bytewise: false)
        #expect(run.error == nil)
        #expect(run.requests.count == 1)
        // 100 fields are fine, a 1 MiB body is fine.
        let hundred = "GET / HTTP/1.1\r\n" + "Host: a\r\n" + (0..<99).map { "X-H\($0): v\r\n" }.joined() + "\r\n"
        #expect(ParseRun(Array(hundred.utf8), bytewise: false).requests.count == 1)
        let body = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(1 << 20)\r\n\r\n" + repeated("z", 1 << 20)
        let big = ParseRun(Array(body.utf8), bytewise: false)
        #expect(big.requests.first?.body.count == 1 << 20)
    }

    /// Garbage is refused as the impossible byte arrives, not at a line end that may never come.
    @Test("a request line is refused at its first impossible byte", arguments: [
        (name: "TLS ClientHello", input: [0x16, 0x03, 0x01, 0x00, 0xA5, 0x01, 0x00] as [UInt8], at: 0),
        (name: "brace in target", input: Array("GET /a{b} HTTP/1.1".utf8), at: 6),
        (name: "fragment", input: Array("GET /path#frag HTTP/1.1".utf8), at: 9),
        (name: "version without minor", input: Array("GET / HTTP/1\r\n".utf8), at: 12),
        (name: "lowercase version", input: Array("GET / http/1.1\r\n".utf8), at: 6),
        (name: "33-byte method", input: Array(repeating: UInt8(ascii: "A"), count: 40), at: 32),
        (name: "target that cannot fit", input: Array("GET /".utf8) + Array(repeating: UInt8(ascii: "a"), count: 9000), at: 8183),
    ])
    func refusedAtTheOffendingByte(name: String, input: [UInt8], at index: Int) {
        var parser = HTTPParser()
        for (i, b) in input.enumerated() {
            parser.append([b])
            switch parser.next() {
            case .needMore:
                #expect(i < index, "\(name): byte \(i) accepted, expected an error at byte \(index)")
                if i >= index { return }
            case .error(let e):
                #expect(i == index, "\(name): error at byte \(i), expected at \(index): \(e)")
                #expect(e.status.code == (name == "target that cannot fit" ? 414 : 400))
                return
            default:
                Issue.record("\(name): unexpected event at byte \(i)")
                return
            }
        }
        Issue.record("\(name): no error after \(input.count) bytes")
    }

    @Test func authorityComesFromTheAbsoluteFormTarget() throws {
        #expect(try HTTPRequest(target: "http://example.org:8080/x", headers: ["Host": "other"]).authority == "example.org:8080")
        #expect(try HTTPRequest(target: "/x", headers: ["Host": "h:1"]).authority == "h:1")
        #expect(try HTTPRequest(target: "/x", version: .http1_0, headers: [:]).authority == "")
        #expect(throws: HTTPParseError.self) { try HTTPRequest(target: "http://u@example.org/") }
    }

    @Test func expectContinueIsSignalledBeforeTheBody() {
        var parser = HTTPParser()
        parser.append(Array("POST /u HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n".utf8))
        guard case .continueExpected = parser.next() else {
            Issue.record("expected continueExpected")
            return
        }
        guard case .needMore = parser.next() else {
            Issue.record("continue must be signalled once")
            return
        }
        parser.append(Array("hel".utf8))
        guard case .needMore = parser.next() else {
            Issue.record("partial body")
            return
        }
        parser.append(Array("lo".utf8))
        guard case .request(let r) = parser.next() else {
            Issue.record("expected the request")
            return
        }
        #expect(r.body == Array("hello".utf8))
    }

    @Test func expectContinueWithTheBodyAlreadyHereIsNotSignalled() {
        let run = ParseRun(Array("POST /u HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi".utf8), bytewise: false)
        #expect(run.continues == 0)
        #expect(run.requests.first?.body == Array("hi".utf8))
        // Fed one byte at a time the head completes first, so continue is signalled once.
        let slow = ParseRun(Array("POST /u HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n".utf8), bytewise: true)
        #expect(slow.continues == 1)
        #expect(slow.requests.first?.body == Array("hi".utf8))
    }

    @Test func errorsAreSticky() {
        var parser = HTTPParser()
        parser.append(Array("GET / HTTP/9.9\r\nHost: a\r\n\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        guard case .error(let e) = parser.next(), case .error(let again) = parser.next() else {
            Issue.record("expected errors")
            return
        }
        #expect(e == again)
        #expect(e.problem.status == .httpVersionNotSupported)
    }

    @Test func malformedQueryNamesTheParameter() {
        let run = ParseRun(Array("GET /a?good=1&bad=%zz HTTP/1.1\r\nHost: a\r\n\r\n".utf8), bytewise: false)
        #expect(run.error?.parameter == "bad")
        #expect(run.error?.problem[extension: "parameter"] == .string("bad"))
    }

    @Test func headTimeoutWindowTracksTheHead() {
        var parser = HTTPParser()
        #expect(!parser.isReceivingHead)
        parser.append(Array("GET / HT".utf8))
        #expect(parser.isReceivingHead)
        parser.append(Array("TP/1.1\r\nHost: a\r\n\r\n".utf8))
        guard case .request = parser.next() else {
            Issue.record("expected request")
            return
        }
        #expect(!parser.isReceivingHead)
        #expect(!parser.isMidRequest)
        #expect(parser.bufferedByteCount == 0)
    }

    @Test func longPipelinedStreamStaysLinear() {
        // 2,000 pipelined requests fed in 7-byte pieces: compaction and resumable scanning.
        let one = "GET /p HTTP/1.1\r\nHost: a\r\nX-Pad: \(repeated("p", 40))\r\n\r\n"
        let all = Array(repeated(one, 2000).utf8)
        var parser = HTTPParser()
        var count = 0
        var i = 0
        while i < all.count {
            parser.append(all[i..<min(all.count, i + 7)])
            i += 7
            loop: while true {
                switch parser.next() {
                case .request: count += 1
                case .needMore: break loop
                default:
                    Issue.record("unexpected event")
                    return
                }
            }
        }
        #expect(count == 2000)
    }
}
