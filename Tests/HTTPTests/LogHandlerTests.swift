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
