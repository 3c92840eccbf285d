import ArgumentParser
import Foundation

/// Settings that a flag or an environment variable gives, the flag winning; an invalid value
/// stops start-up with a message naming the flag or variable it came from.
///
/// ```swift
/// let port = try Setting.int(flag: port, env: "SOLARSYSTEM_PORT", flagName: "--port", default: 8080, in: 0...65535)
/// ```
enum Setting {
    /// The process environment; tests replace it.
    nonisolated(unsafe) static var environment: [String: String] = ProcessInfo.processInfo.environment

    /// The variable's value, nil when unset or empty.
    static func env(_ name: String) -> String? {
        guard let v = environment[name], !v.isEmpty else { return nil }
        return v
    }


    static func string(flag: String?, env name: String, default value: String) -> String {
        flag ?? env(name) ?? value
    }

    static func optionalString(flag: String?, env name: String) -> String? {
        flag ?? env(name)
    }

    static func int(flag: Int?, env name: String, flagName: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        if let flag {
            guard range.contains(flag) else { throw ValidationError("\(flagName) must be \(range.lowerBound)…\(range.upperBound) (got \(flag))") }
            return flag
        }
        guard let text = env(name) else { return value }
        guard let v = Int(text), range.contains(v) else {
            throw invalid(name, text, "must be an integer \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }

    static func double(flag: Double?, env name: String, flagName: String, default value: Double, in range: ClosedRange<Double>) throws -> Double {
        if let flag {
            guard range.contains(flag) else { throw ValidationError("\(flagName) must be \(range.lowerBound)…\(range.upperBound) (got \(flag))") }
            return flag
        }
        guard let text = env(name) else { return value }
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            throw invalid(name, text, "must be a number \(range.lowerBound)…\(range.upperBound)")
        }
        return v
    }

    static func oneOf(flag: String?, env name: String, flagName: String, default value: String, allowed: [String]) throws -> String {
        let (text, fromFlag) = flag.map { ($0, true) } ?? (env(name).map { ($0, false) } ?? (value, true))
        guard allowed.contains(text) else {
            let rule = "must be one of \(allowed.joined(separator: ", "))"
            if !fromFlag { throw invalid(name, text, rule) }
            throw ValidationError("\(flagName) \(text): \(rule)")
        }
        return text
    }

    /// An invalid environment value: one line naming the variable and its value, not a usage
    /// error (the command line was fine). A `tcp://…` value is what Kubernetes injects for a
    /// Service named `solarsystem` (`SOLARSYSTEM_PORT=tcp://10.0.0.1:80`), so that case says so.
    static func invalid(_ name: String, _ value: String, _ rule: String) -> CLIError {
        var message = "\(name)=\(value) (environment): \(rule)"
        if value.hasPrefix("tcp://") || value.hasPrefix("udp://") {
            message += "; this looks like a Kubernetes service link for a Service named after the prefix: set enableServiceLinks: false in the pod spec, or set \(name) explicitly"
        }
        return CLIError(message)
    }
}
