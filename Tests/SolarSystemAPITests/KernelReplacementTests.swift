import Foundation
import HTTPTestSupport
import Synchronization
import Testing

/// The kernels as an operator can break them under a running `solarsystem serve` (a real
/// process): truncated, overwritten in place, replaced by a FIFO, then by another valid kernel.
/// The server serves from its private copies whatever happens to the files, and takes a valid
/// replacement once it has held still, checked whole. Also: a FIFO as `--tle` or `--kernel` is
/// refused at start-up with a message (SIGTERM during start-up: `ProcessLifecycleTests`).
@Suite("Kernel files replaced under a running server", .serialized)
struct KernelReplacementTests {
    /// The process's output, read on a thread of its own, line by line.
    final class Output: Sendable {
        private let lines = Mutex<[String]>([])

        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                var pending = ""
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    pending += String(decoding: data, as: UTF8.self)
                    var parts = pending.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                    pending = parts.removeLast()
                    lines.withLock { $0 += parts }
                }
            }
        }

        var all: [String] { lines.withLock { $0 } }

        /// Waits (at most `timeout` s) for a line containing `text` after the first `after` lines.
        func wait(for text: String, after: Int = 0, timeout: Double = 30) -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if let line = all.dropFirst(after).first(where: { $0.contains(text) }) { return line }
                usleep(50_000)
            }
            return nil
        }
    }

    static let samples = "Tests/EphemerisTests/Fixtures/spk-samples"

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kernels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The bodies' positions answered, or the status when not 200.
    static func positions(_ port: Int, _ query: String) throws -> (status: Int, bodies: [[String: Any]]) {
        let r = try RawClient.get(port: port, "/v1/positions?" + query)
        return (r.status, r.objects("bodies"))
    }

    static func finite(_ b: [String: Any]) -> Bool {
        (b["position"] as? [Any])?.compactMap(number).filter(\.isFinite).count == 3
    }

    @Test("truncated, overwritten, a FIFO: still serving from the copies; a valid replacement is loaded")
    func kernelsReplacedUnderTheServer() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let kernel = dir.appendingPathComponent("k.bsp").path, ephemeris = dir.appendingPathComponent("de.bsp").path
        try Data(RepositoryFiles.bytes("\(Self.samples)/sat128.bsp")).write(to: URL(fileURLWithPath: kernel))
        try Data(RepositoryFiles.bytes("Resources/de440-1900-2100.bsp")).write(to: URL(fileURLWithPath: ephemeris))
        let (p, port, pipe) = try ProcessLifecycleTests.launch(["--kernel", kernel, "--ephemeris", ephemeris])
        let output = Output(pipe)
        defer { if p.isRunning { p.terminate() } }

        let saturnMoon = "date=2004-06-11T12:00:00Z&bodies=mars,naif:610&center=saturn"
        let before = try Self.positions(port, saturnMoon)
        #expect(before.status == 200 && before.bodies.count == 2 && before.bodies.allSatisfy(Self.finite))

        // Cut to nothing, both of them: the next answers come from the copies.
        #expect(truncate(kernel, 0) == 0 && truncate(ephemeris, 0) == 0)
        for hour in 13...15 {
            let r = try Self.positions(port, saturnMoon.replacing("T12", with: "T\(hour)"))
            #expect(r.status == 200 && r.bodies.allSatisfy(Self.finite), "\(hour)h: \(r)")
        }
        #expect(output.wait(for: "the changed files cannot be used") != nil, "\(output.all.suffix(5))")

        // Overwritten in place with noise of a kernel's length, then a FIFO moved over it.
        var noise = [UInt8](repeating: 0, count: 25_600)
        for i in noise.indices { noise[i] = UInt8(truncatingIfNeeded: i &* 2_654_435_761 >> 13) }
        try Data(noise).write(to: URL(fileURLWithPath: kernel))
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let seen = output.all.count
        #expect(rename(fifo, kernel) == 0)
        #expect(output.wait(for: "FIFO", after: seen) != nil, "\(output.all.suffix(5))")
        #expect(try Self.positions(port, saturnMoon).status == 200)

        // A valid kernel of other bodies, written elsewhere and renamed into place, and the DE
        // kernel back: both loaded, checked and served.
        let next = dir.appendingPathComponent("next.bsp").path
        try Data(RepositoryFiles.bytes("\(Self.samples)/synthetic-type19.bsp")).write(to: URL(fileURLWithPath: next))
        try Data(RepositoryFiles.bytes("Resources/de440-1900-2100.bsp")).write(to: URL(fileURLWithPath: ephemeris))
        let reloadedAfter = output.all.count
        #expect(rename(next, kernel) == 0)
        #expect(output.wait(for: "kernels reloaded", after: reloadedAfter) != nil, "\(output.all.suffix(5))")
        let replaced = try Self.positions(port, "date=2025-05-08T21:00:00Z&bodies=naif:-1900&center=earth")
        #expect(replaced.status == 200 && replaced.bodies.first.map(Self.finite) == true, "\(replaced)")
        #expect(try Self.positions(port, saturnMoon).status == 404, "naif:610 left with the old kernel")

        kill(p.processIdentifier, SIGTERM)
        ProcessLifecycleTests.waitForExit(p)
        #expect(p.terminationStatus == 0)
    }

    @Test("a FIFO as --tle or --kernel is refused at start-up, naming it, instead of hanging")
    func fifoRefusedAtStartUp() throws {
        let dir = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for flag in ["--tle", "--kernel"] {
            let (p, pipe) = try ProcessLifecycleTests.start(["serve", "--port", "0", "--db", ":memory:", flag, fifo], environment: [:])
            ProcessLifecycleTests.waitForExit(p, timeout: 60)
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(p.terminationStatus != 0)
            #expect(text.contains("FIFO (named pipe), not a regular file"), "\(flag): \(text.suffix(300))")
        }
    }
}
