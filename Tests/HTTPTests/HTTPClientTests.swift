import Foundation
import Glibc
import HTTPClient
import Testing

/// A one-connection loopback server that plays a script: it accepts, then writes each piece
/// after a pause (so the client sees them in separate reads), then closes, or stays silent.
private final class ScriptedServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let done = DispatchSemaphore(value: 0)

    init(pieces: [[UInt8]], pause: Double = 0.03, holdOpen: Double = 0) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) == 0 && listen(listener, 1) == 0 && getsockname(listener, $0, &len) == 0 }
        }
        guard bound else { throw HTTPClient.Failure(.connect, "cannot listen: errno \(errno)") }
        self.listener = listener
        port = Int(UInt16(bigEndian: addr.sin_port))
        let done = done
        Thread.detachNewThread {
            let fd = accept(listener, nil, nil)
            if fd >= 0 {
                var request = [UInt8](repeating: 0, count: 4096)
                _ = recv(fd, &request, request.count, 0)
                for piece in pieces {
                    Thread.sleep(forTimeInterval: pause)
                    _ = piece.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
                if holdOpen > 0 { Thread.sleep(forTimeInterval: holdOpen) }
                close(fd)
            }
            done.signal()
        }
    }

    convenience init(_ pieces: [String], pause: Double = 0.03, holdOpen: Double = 0) throws {
        try self.init(pieces: pieces.map { Array($0.utf8) }, pause: pause, holdOpen: holdOpen)
    }

    deinit {
        done.wait()
        close(listener)
    }

    func get(timeout: Double = 5, limits: HTTPClient.Limits = .init()) throws(HTTPClient.Failure) -> HTTPClient.Response {
        try HTTPClient.get(host: "127.0.0.1", port: port, target: "/", timeout: timeout, limits: limits)
    }
}

/// The client's failure, or nil when `body` succeeds (or fails some other way).
private func failure(_ body: () throws -> Void) -> HTTPClient.Failure? {
    do {
        try body()
        return nil
    } catch {
        return error as? HTTPClient.Failure
    }
}

@Suite("HTTPClient: the blocking client healthcheck and the tests share")
struct HTTPClientTests {
    @Test func aResponseSplitAcrossReadsIsReassembled() throws {
        let server = try ScriptedServer(["HT", "TP/1.1 200 O", "K\r\nContent-Le", "ngth: 11\r\nX-A: 1\r\nX-A:  2 \r", "\n\r\nhello", " world"])
        let r = try server.get()
        #expect(r.version == "HTTP/1.1" && r.status == 200 && r.reason == "OK")
        #expect(r.headerValues("x-a") == ["1", "2"])
        #expect(r.header("CONTENT-LENGTH") == "11")
        #expect(r.bodyText == "hello world")
        #expect(!r.chunked)
    }

    @Test func aChunkedBodyAndItsTrailersAreRead() throws {
        let server = try ScriptedServer([
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "lo\r\n6;x=y\r\n wor", "ld\r\n0\r\nX-Sum: 42\r\n", "\r\n",
        ])
        let r = try server.get()
        #expect(r.chunked && r.bodyText == "hello world")
        #expect(r.trailers["x-sum"] == "42")
        #expect(String(decoding: r.rawBody, as: UTF8.self) == "5\r\nhello\r\n6;x=y\r\n world\r\n0\r\n")
    }

    @Test func aBodyUntilCloseIsRead() throws {
        let server = try ScriptedServer(["HTTP/1.0 200 OK\r\n\r\nall ", "of it"])
        #expect(try server.get().bodyText == "all of it")
    }

    @Test func aHeadIsReadWithoutItsBody() throws {
        let server = try ScriptedServer(["HTTP/1.1 503 Service Unavailable\r\nContent-Length: 100000\r\n\r\n", "partial"])
        let client = try HTTPClient(host: "127.0.0.1", port: server.port, timeout: 5, limits: .init(headBytes: 1024, bodyBytes: 0))
        try client.send(HTTPClient.requestHead(method: "GET", target: "/healthz", host: "127.0.0.1"))
        let head = try client.readHead()
        #expect(head.status == 503 && head.reason == "Service Unavailable" && head.headers["content-length"] == "100000")
    }

    @Test func anOversizeBodyIsRefused() throws {
        let limits = HTTPClient.Limits(headBytes: 1024, bodyBytes: 10)
        let declared = try ScriptedServer(["HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\nhello world"])
        #expect(failure { _ = try declared.get(limits: limits) }?.kind == .tooLarge)
        let chunked = try ScriptedServer(["HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nhello \r\n", "5\r\nworld\r\n0\r\n\r\n"])
        #expect(failure { _ = try chunked.get(limits: limits) }?.kind == .tooLarge)
        let untilClose = try ScriptedServer(["HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello ", "world"])
        #expect(failure { _ = try untilClose.get(limits: limits) }?.kind == .tooLarge)
    }

    @Test func anOversizeHeadIsRefused() throws {
        let long = "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Filler: 0123456789\r\n", count: 100)
        let server = try ScriptedServer([long, "Content-Length: 0\r\n\r\n"])
        #expect(failure { _ = try server.get(limits: .init(headBytes: 1024, bodyBytes: 10)) }?.kind == .tooLarge)
    }

    @Test func aSilentServerTimesOut() throws {
        // It closes after 1.5 s: a client without its timeout would report .closed instead.
        let server = try ScriptedServer([], holdOpen: 1.5)
        #expect(failure { _ = try server.get(timeout: 0.3) }?.kind == .timedOut)
    }

    @Test func aServerThatClosesOrAnswersGarbageIsReported() throws {
        let closes = try ScriptedServer(["HTTP/1.1 200 OK\r\nContent-Le"])
        #expect(failure { _ = try closes.get() }?.kind == .closed)
        let garbage = try ScriptedServer(["SSH-2.0-OpenSSH_9.6\r\n\r\n"])
        #expect(failure { _ = try garbage.get() }?.kind == .malformed)
    }

    @Test func nothingListeningIsAConnectFailure() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) == 0 && getsockname(listener, $0, &len) == 0 }
        }
        close(listener)  // a port that was free a moment ago, with nothing listening on it
        let port = Int(UInt16(bigEndian: addr.sin_port))
        #expect(failure { _ = try HTTPClient(host: "127.0.0.1", port: port, timeout: 2) }?.kind == .connect)
    }

    @Test func theRequestHeadNamesTheHostAndCloses() {
        #expect(HTTPClient.requestHead(method: "GET", target: "/healthz", host: "::1", headers: ["User-Agent": "x"])
            == "GET /healthz HTTP/1.1\r\nHost: [::1]\r\nConnection: close\r\nUser-Agent: x\r\n\r\n")
        #expect(HTTPClient.requestHead(method: "HEAD", target: "/", host: "a", headers: ["Host": "b"], closing: false)
            == "HEAD / HTTP/1.1\r\nHost: b\r\n\r\n")
    }
}
