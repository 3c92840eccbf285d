import Foundation
import HTTPTestSupport
import Testing

/// Every `curl` line of the README's shell blocks, run as written against a `solarsystem serve`
/// started with its defaults (no flags beyond an ephemeral port and an in-memory cache): a reader
/// who copies one gets a 2xx. A line that needs a flag or a file the README does not give fails
/// here.
@Suite("README: every curl example answers as written")
struct ReadmeExampleTests {
    struct Example: CustomStringConvertible {
        let line: Int
        let target: String
        let streams: Bool
        var description: String { "README.md:\(line) \(target)" }
    }

    /// The `curl` commands against localhost:8080 in the README's ```sh blocks (comments and
    /// lines of other tools skipped; `a; b` is two commands).
    static func examples() throws -> [Example] {
        let text = String(decoding: RepositoryFiles.bytes("README.md"), as: UTF8.self)
        var out: [Example] = [], inShell = false
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") { inShell = !inShell && line == "```sh"; continue }
            guard inShell, !line.hasPrefix("#") else { continue }
            for command in line.components(separatedBy: "; ") {
                let words = command.split(separator: " ")
                guard words.first == "curl" else { continue }
                guard let url = words.first(where: { $0.contains("localhost:8080") }) else { continue }
                // The shell's outer quotes only: a quote inside the URL (Horizons' `COMMAND='499'`) stays.
                var unquoted = Substring(url)
                if let q = unquoted.first, q == "'" || q == "\"", unquoted.count >= 2, unquoted.last == q {
                    unquoted = unquoted.dropFirst().dropLast()
                }
                guard let r = unquoted.range(of: "localhost:8080") else { continue }
                let target = String(unquoted[r.upperBound...])
                out.append(Example(line: i + 1, target: target.isEmpty ? "/" : target, streams: words.contains("-N")))
            }
        }
        return out
    }

    @Test("the README's curl lines, each 2xx from a fresh serve")
    func curlLines() throws {
        let examples = try Self.examples()
        // The tour, the sky, eclipses, satellites, small bodies: the README has at least these.
        #expect(examples.count >= 20, "\(examples.count) examples found")
        let (process, port, _) = try ProcessLifecycleTests.launch()
        defer {
            kill(process.processIdentifier, SIGTERM)
            ProcessLifecycleTests.waitForExit(process)
        }
        for example in examples {
            let c = try RawClient(port: port, receiveTimeout: 60)
            defer { c.close() }
            try c.send("GET \(example.target) HTTP/1.1\r\nHost: localhost:8080\r\nConnection: close\r\n\r\n")
            if example.streams {
                let head = String(decoding: try c.readUntil { String(decoding: $0, as: UTF8.self).contains("event: telemetry") }, as: UTF8.self)
                #expect(head.hasPrefix("HTTP/1.1 200"), "\(example): \(head.prefix(80))")
            } else {
                let r = try c.readResponse()
                #expect((200..<300).contains(r.status), "\(example): \(r.status) \(r.bodyText.prefix(300))")
            }
        }
    }
}
