import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SolarSystemClient

/// The server the tests talk to: `SOLARSYSTEM_URL` when set, else a release build started here
/// (`SOLARSYSTEM_BINARY`, default `../../.build/release/solarsystem`) on a free loopback port,
/// stopped when the test process exits.
enum LiveServer {
    struct Failure: Error, CustomStringConvertible { let description: String }

    static let url: Result<URL, Failure> = start()
    static var client: Client { get throws { Client.solarSystem(try url.get()) } }

    nonisolated(unsafe) private static var process: Process?

    private static func start() -> Result<URL, Failure> {
        let env = ProcessInfo.processInfo.environment
        if let given = env["SOLARSYSTEM_URL"], let url = URL(string: given) { return .success(url) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../..").standardized
        let binary = env["SOLARSYSTEM_BINARY"] ?? root.appendingPathComponent(".build/release/solarsystem").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            return .failure(Failure(description: "no server at \(binary): build it with `swift build -c release` in the repository, or set SOLARSYSTEM_BINARY or SOLARSYSTEM_URL"))
        }
        // The log goes to a file (a pipe nobody drains would block the server); the
        // "listening" line there names the port the kernel picked.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("solarsystem-client-tests-\(getpid()).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)   // a failure shows when the log is read
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        // From the repository, where ./Resources and ./Migrations are.
        p.currentDirectoryURL = root
        p.arguments = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:", "--log-format", "json"]
        p.standardOutput = try? FileHandle(forWritingTo: log)
        p.standardError = p.standardOutput
        do { try p.run() } catch { return .failure(Failure(description: "\(binary): \(error)")) }
        process = p
        atexit { LiveServer.stop() }
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, p.isRunning {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.contains("\"listening\"") {
                if let data = line.data(using: .utf8),
                   let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                   let port = (object["port"] as? Int) ?? (object["port"] as? String).flatMap(Int.init) ?? ((object["metadata"] as? [String: Any])?["port"] as? String).flatMap(Int.init) {
                    return .success(URL(string: "http://127.0.0.1:\(port)")!)
                }
            }
            usleep(50_000)
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return .failure(Failure(description: "the server did not report a port within 60 s:\n\(text.suffix(2000))"))
    }

    static func stop() {
        guard let p = process, p.isRunning else { return }
        p.terminate()
        p.waitUntilExit()
    }
}
