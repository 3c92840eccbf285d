import Foundation
import Logging
import Testing
@testable import HTTP

@Suite("Log handlers")
struct LogHandlerTests {
    @Test func jsonLinesKeepTypes() throws {
        let out = LogOutput.memory()
        var logger = Logger(label: "http") { JSONLogHandler(label: $0, level: .debug, output: out) }
        logger[metadataKey: "requestId"] = "abc"
        logger.info("request", metadata: ["status": .stringConvertible(200), "durationMs": .stringConvertible(1.5), "path": "/x\"y", "ok": .stringConvertible(true)])
        logger.trace("hidden")
        #expect(out.lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(out.lines[0].utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request")
        #expect(object["level"] as? String == "info")
        #expect(object["logger"] as? String == "http")
        #expect(object["status"] as? Int == 200)
        #expect(object["durationMs"] as? Double == 1.5)
        #expect(object["path"] as? String == "/x\"y")
        #expect(object["requestId"] as? String == "abc")
        #expect(object["ok"] as? Bool == true)
        #expect((object["ts"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func textLines() {
        let out = LogOutput.memory()
        let logger = Logger(label: "http") { TextLogHandler(label: $0, output: out) }
        logger.warning("dropped", metadata: ["peer": "127.0.0.1:5", "note": "two words"])
        #expect(out.lines.count == 1)
        #expect(out.lines[0].contains(" warning http: dropped note=\"two words\" peer=127.0.0.1:5"))
    }

    @Test func concurrentLinesNeverInterleave() async throws {
        let out = LogOutput.memory()
        let logger = Logger(label: "c") { JSONLogHandler(label: $0, output: out) }
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<4 {
                group.addTask { for i in 0..<250 { logger.info("m", metadata: ["t": "\(t)", "i": "\(i)"]) } }
            }
        }
        #expect(out.lines.count == 1000)
        for line in out.lines { _ = try JSONSerialization.jsonObject(with: Data(line.utf8)) }
    }
}

@Suite("Access log")
struct AccessLogTests {
    /// The line as the generic JSON handler writes it, from the same fields.
    static func handlerLine(aborted: Bool) -> String {
        let out = LogOutput.memory()
        let logger = Logger(label: "http") { JSONLogHandler(label: $0, level: .info, output: out) }
        var metadata: Logger.Metadata = [
            "method": "GET", "path": "/v1/scene?date=\"x\"", "status": .stringConvertible(200), "bytes": .stringConvertible(12_345),
            "durationMs": .stringConvertible(0.125), "requestId": "abc-1", "peer": "[::1]:5000", "route": "/v1/scene",
        ]
        if aborted { metadata["aborted"] = .stringConvertible(true) }
        logger.info("request", metadata: metadata)
        return out.lines[0]
    }

    /// Drops the `ts` member, which differs between two lines.
    static func withoutTimestamp(_ line: String) -> String {
        guard let comma = line.firstIndex(of: ",") else { return line }
        return String(line[comma...])
    }

    @Test("the direct line is byte for byte the JSON handler's line for the same fields", arguments: [false, true])
    func directLineEqualsTheHandlers(aborted: Bool) {
        let out = LogOutput.memory()
        DirectJSONLine(output: out, label: "http", level: .info).write(
            method: "GET", path: "/v1/scene?date=\"x\"", status: 200, bytes: 12_345, durationMs: 0.125, requestId: "abc-1",
            peer: "[::1]:5000", route: "/v1/scene", aborted: aborted)
        #expect(out.lines.count == 1)
        #expect(Self.withoutTimestamp(out.lines[0]) == Self.withoutTimestamp(Self.handlerLine(aborted: aborted)))
        #expect(out.lines[0].hasPrefix("{\"ts\":\"") && out.lines[0].contains("Z\",\"level\":\"info\""))
    }

    @Test("the middleware writes directly only through a JSON handler without metadata of its own")
    func directOnlyWhenEquivalent() {
        let out = LogOutput.memory()
        let plain = Logger(label: "http") { JSONLogHandler(label: $0, output: out) }
        #expect(AccessLogMiddleware(logger: plain).direct != nil)
        var tagged = plain
        tagged[metadataKey: "instance"] = "a"
        #expect(AccessLogMiddleware(logger: tagged).direct == nil)
        let text = Logger(label: "http") { TextLogHandler(label: $0, output: out) }
        #expect(AccessLogMiddleware(logger: text).direct == nil)
    }
}

@Suite("Log output to a descriptor")
struct LogOutputTests {
    /// Reads everything the pipe holds now (non-blocking).
    static func drain(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return out }
            out += buf[0..<n]
        }
    }

    @Test("a burst of lines arrives whole and in order; a line after a pause arrives without a flush; dropped lines are counted")
    func burstsPausesAndDrops() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let out = LogOutput(fileDescriptor: fds[1], capacityBytes: 1 << 20, coalescing: .milliseconds(50))
        // Two threads, as two event loops: each thread's lines in order, none split.
        DispatchQueue.concurrentPerform(iterations: 2) { t in
            for i in 0..<2000 { out.write(line: Array("t\(t) line \(i) \(String(repeating: "x", count: i % 40))\n".utf8)) }
        }
        // The pipe holds 64 KiB: read while the writer writes.
        var received: [UInt8] = []
        var flushed = false
        for _ in 0..<100 where !flushed {
            received += Self.drain(fds[0])
            flushed = out.flush(timeout: 0.05)
        }
        #expect(flushed)
        received += Self.drain(fds[0])
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 4000)
        for t in 0..<2 {
            let mine = lines.filter { $0.hasPrefix("t\(t) ") }.map { Int($0.split(separator: " ")[2]) ?? -1 }
            #expect(mine == Array(0..<2000), "thread \(t)'s lines in order and whole")
        }
        // Idle writer: the next line is woken for, not left for a flush.
        usleep(200_000)
        out.write(line: Array("after a pause\n".utf8))
        // A writer that waited for a flush would never write it: the deadline only detects that.
        var got: [UInt8] = []
        let deadline = Date().addingTimeInterval(30)
        while got.isEmpty, Date() < deadline { usleep(5_000); got = Self.drain(fds[0]) }
        #expect(String(decoding: got, as: UTF8.self) == "after a pause\n")
        #expect(out.droppedLines == 0)
    }

    @Test("when the reader stops, the buffer fills, lines are dropped and counted, and nothing blocks")
    func stalledReaderDropsLines() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let out = LogOutput(fileDescriptor: fds[1], capacityBytes: 4096)
        // 64 KiB of pipe and 4 KiB of buffer cannot take 1 MB. Order, not speed: every write
        // returns while nothing reads the pipe (reading starts only after the last one). A write
        // that waited for the reader would never return; the deadline is a hang detector only,
        // so that such a regression fails instead of hanging the suite.
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for i in 0..<10_000 { out.write(line: Array("line \(i) \(String(repeating: "y", count: 90))\n".utf8)) }
            written.signal()
        }
        let returnedUnread = written.wait(timeout: .now() + 60) == .success
        #expect(returnedUnread, "write(line:) waited for the reader")
        #expect(out.droppedLines > 0)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        // After a failure above, read until the writes return, so the test ends.
        while !returnedUnread, written.wait(timeout: .now() + .milliseconds(10)) == .timedOut { _ = Self.drain(fds[0]) }
        var received: [UInt8] = []
        for _ in 0..<200 {
            received += Self.drain(fds[0])
            if out.flush(timeout: 0.05) { break }
        }
        received += Self.drain(fds[0])
        // What was not dropped arrives, as whole lines, in order.
        #expect(received.last == UInt8(ascii: "\n"))
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 10_000 - out.droppedLines)
        let numbers = lines.map { Int($0.split(separator: " ")[1]) ?? -1 }
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
        #expect(lines.allSatisfy { $0.hasSuffix(String(repeating: "y", count: 90)) })
    }
}
