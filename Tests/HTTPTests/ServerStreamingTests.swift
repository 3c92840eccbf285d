import Foundation
import Testing
@testable import HTTPCore
import HTTPTestSupport

/// Reads one chunk (size line, data, CRLF) off a chunked response by hand.
private func readChunk(_ c: RawClient) throws -> [UInt8] {
    let size = try #require(Int(try c.line(), radix: 16))
    let data = try c.take(size)
    #expect(try c.take(2) == [0x0D, 0x0A])
    return data
}

private func readHead(_ c: RawClient) throws -> [String] {
    var lines: [String] = []
    while true {
        let l = try c.line()
        if l.isEmpty { return lines }
        lines.append(l)
    }
}

@Suite("Server: streaming")
struct ServerStreamingTests {
    @Test func hundredThousandRowSeriesStreamsInChunks() throws {
        let s = try TestServer(routes: { r in
            r.get("/series") { _, _ in
                .stream(contentType: "text/csv", BodyProducer(state: 0) { i in
                    guard i < 100_000 else { return nil }
                    // 1,000 rows per chunk
                    var out: [UInt8] = []
                    for k in i..<(i + 1000) { out += Array("\(k),\(k * 3)\n".utf8) }
                    i += 1000
                    return out
                })
            }
        })
        let r = try s.get("/series")
        #expect(r.chunked)
        #expect(r.header("content-length") == nil)
        let lines = r.bodyText.split(separator: "\n")
        #expect(lines.count == 100_000)
        #expect(lines.last == "99999,299997")
    }

    @Test func sseFraming() throws {
        let s = try TestServer(routes: { r in
            r.get("/events") { req, _ in
                let resume = req.headers["last-event-id"] ?? "none"
                return .eventStream { stream in
                    stream.send(retry: 2500)
                    stream.send(event: "telemetry", id: "1000", data: "{\"met\":1}")
                    stream.send(event: "mission-event", id: "2000", data: "line one\nline two")
                    stream.comment("resume from \(resume)")
                    stream.send(data: "plain")
                    stream.close()
                }
            }
            r.get("/hello") { _, _ in .text("hello") }
        })
        let c = try s.client()
        try c.send("GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\nLast-Event-ID: 500\r\n\r\n")
        let r = try c.readResponse()
        #expect(r.status == 200)
        #expect(r.header("content-type") == "text/event-stream; charset=utf-8")
        #expect(r.header("cache-control") == "no-store")
        #expect(r.chunked)
        #expect(r.bodyText == """
        retry: 2500

        event: telemetry
        id: 1000
        data: {"met":1}

        event: mission-event
        id: 2000
        data: line one
        data: line two

        : resume from 500

        data: plain


        """)
        // After the app closed the stream the connection serves the next request.
        try c.send("GET /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try c.readResponse().bodyText == "hello")
    }

    @Test func sseHeartbeatsAndOneChunkPerEvent() throws {
        let holder = Recorder<EventStream>()
        let s = try TestServer(configure: { $0.eventStreamHeartbeatInterval = 0.2 }, routes: { r in
            r.get("/events") { _, _ in .eventStream { holder.append($0) } }
        })
        let c = try s.client()
        try c.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try readHead(c)
        #expect(head.first == "HTTP/1.1 200 OK")
        #expect(head.contains("Transfer-Encoding: chunked"))
        #expect(String(decoding: try readChunk(c), as: UTF8.self) == ": heartbeat\n\n")
        #expect(TestServer.eventually { holder.all.count == 1 })
        let stream = try #require(holder.all.first)
        #expect(s.server.openEventStreams == 1)
        stream.send(event: "tick", id: "1", data: "a")
        // One event arrives as one chunk (heartbeats may interleave).
        var chunk = try readChunk(c)
        while chunk == Array(": heartbeat\n\n".utf8) { chunk = try readChunk(c) }
        #expect(String(decoding: chunk, as: UTF8.self) == "event: tick\nid: 1\ndata: a\n\n")
    }

    @Test func clientDisconnectIsDetected() throws {
        let reasons = Recorder<EventStream.CloseReason>()
        let s = try TestServer(routes: { r in
            r.get("/events") { _, _ in .eventStream { $0.onClose { reasons.append($0) } } }
        })
        let c = try s.client()
        try c.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = try readHead(c)
        #expect(TestServer.eventually { s.server.openEventStreams == 1 })
        c.close()
        #expect(TestServer.eventually { reasons.all == [.clientGone] })
        #expect(TestServer.eventually { s.server.openEventStreams == 0 && s.server.openConnections == 0 })
    }

    @Test func slowSSEClientIsDroppedNotBufferedForever() throws {
        let reasons = Recorder<EventStream.CloseReason>()
        let stopped = Latch()
        let s = try TestServer(configure: { $0.eventStreamQueueLimit = 32 * 1024 }, routes: { r in
            r.get("/firehose") { _, _ in
                .eventStream { stream in
                    stream.onClose { reasons.append($0) }
                    let payload = String(repeating: "x", count: 1000)
                    DispatchQueue.global().async {
                        // Bounded: at most 200 MB are offered before giving up.
                        for i in 0..<200_000 {
                            if !stream.send(event: "tick", id: String(i), data: payload) { break }
                            if i % 64 == 0 { usleep(100) }
                        }
                        stopped.open()
                    }
                }
            }
            r.get("/hello") { _, _ in .text("hello") }
        })
        let c = try s.client(receiveBufferSize: 4096)
        try c.send("GET /firehose HTTP/1.1\r\nHost: t\r\n\r\n")
        // Never read: the kernel buffers fill, then the stream queue overflows.
        #expect(stopped.wait(timeout: 60))
        #expect(TestServer.eventually(timeout: 20) { reasons.all == [.dropped] })
        #expect(s.server.metrics.droppedStreams.value() == 1)
        #expect(TestServer.eventually { s.server.openEventStreams == 0 })
        #expect(s.logs.lines.contains { $0.contains("\"level\":\"warning\"") && $0.contains("event stream dropped") })
        #expect(try s.get("/hello").bodyText == "hello")
    }
}
