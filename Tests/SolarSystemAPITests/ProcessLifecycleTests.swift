import Foundation
import HTTPTestSupport
import Testing

/// The real executable: started on an ephemeral port, stopped with SIGTERM while a mission
/// stream is open.
@Suite("solarsystem serve as a process")
struct ProcessLifecycleTests {
    /// Starts `solarsystem serve` and returns it with the port its start-up line reports.
    static func launch(_ extra: [String] = [], environment: [String: String] = [:]) throws -> (Process, Int, Pipe) {
        let exe = RepositoryFiles.executable
        guard FileManager.default.isExecutableFile(atPath: exe.path) else { throw ClientError(description: "no executable at \(exe.path)") }
        let p = Process()
        p.executableURL = exe
        p.currentDirectoryURL = RepositoryFiles.root
        p.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:", "--log-format", "json", "--shutdown-grace", "2"] + extra
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SOLARSYSTEM_") }
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        var text = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n") where line.contains("\"listening\"") {
                if let r = line.range(of: #""port":"?(\d+)"#, options: .regularExpression) {
                    let digits = line[r].filter(\.isNumber)
                    if let port = Int(digits) { return (p, port, out) }
                }
            }
        }
        p.terminate()
        throw ClientError(description: "no listening line; output: \(text)")
    }

    @Test("SIGTERM with an open mission stream: the stream gets `end`, the process exits 0")
    func sigtermEndsStreams() throws {
        let (process, port, _) = try Self.launch()
        let c = try RawClient(port: port, receiveTimeout: 20)
        defer { c.close() }
        try c.send("GET /v1/missions/apollo11/stream?speed=100&rate=5 HTTP/1.1\r\nHost: t\r\n\r\n")
        let first = try c.readUntil { String(decoding: $0, as: UTF8.self).contains("event: telemetry") }
        #expect(String(decoding: first, as: UTF8.self).contains("200"))
        kill(process.processIdentifier, SIGTERM)
        let rest = try c.readUntil { String(decoding: $0, as: UTF8.self).contains("event: end") }
        let text = String(decoding: rest, as: UTF8.self)
        #expect(text.contains("\"reason\":\"shutdown\""))
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
