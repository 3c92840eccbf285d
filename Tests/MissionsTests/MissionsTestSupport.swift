import Foundation
import Ephemeris
import Scene
@testable import Missions

/// The engine and data as the tests use them, read from the repository's `Resources/`.
enum TestMissions {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ name: String) -> [UInt8] {
        guard let data = try? Data(contentsOf: root.appendingPathComponent("Resources/\(name)")) else {
            fatalError("Resources/\(name) not found from \(root.path)")
        }
        return [UInt8](data)
    }

    /// The analytical theories alone.
    static let ephemeris: Ephemeris = {
        do { return Ephemeris(catalogue: try Catalogue(json: bytes("bodies.json"))) } catch { fatalError("catalogue: \(error)") }
    }()

    static let layout = SceneLayout(catalogue: ephemeris.catalogue)
}

/// Tolerances in named units.
func km(_ x: Double) -> Double { x }
func au(_ x: Double) -> Double { x }
func kmPerS(_ x: Double) -> Double { x }

extension TestMissions {
    /// The engine as served: DE440 (`Resources/de440-1900-2100.bsp`) inside its span.
    static let de440: Ephemeris = {
        do {
            let kernel = try PlanetaryKernel(bytes: KernelBuffer(copying: bytes("de440-1900-2100.bsp")), file: "Resources/de440-1900-2100.bsp")
            return Ephemeris(catalogue: ephemeris.catalogue, kernel: kernel)
        } catch { fatalError("kernel: \(error)") }
    }()

    /// TDB seconds past J2000 of a UTC calendar time.
    static func tdbSeconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Double = 0) -> Double {
        do { return try TimeScale.utc(year: year, month: month, day: day, hour: hour, minute: minute, second: second).daysSinceJ2000TDB * Constants.secondsPerDay } catch {
            fatalError("\(error)")
        }
    }
}

extension TestMissions {
    static let missionBytes = bytes("missions.json")

    /// A mission of the shipped file, as the catalogue decodes it (closest approaches unresolved).
    static func mission(_ id: String) -> Mission {
        guard let m = ServedMissions.catalogue[id] else { fatalError("no mission \(id)") }
        return m
    }

    /// An instant written in ISO 8601 UTC.
    static func date(_ text: String) -> Instant {
        do { return try TimeScale.parse(text) } catch { fatalError("\(text): \(error)") }
    }

    /// TDB seconds past J2000 of an instant (what the kernels read).
    static func tdbSeconds(_ t: Instant) -> Double { t.daysSinceJ2000TDB * Constants.secondsPerDay }

    /// The raw JSON array, for building malformed variants.
    static func rawMissions() -> [[String: Any]] {
        guard let a = try? JSONSerialization.jsonObject(with: Data(missionBytes)) as? [[String: Any]] else { fatalError("missions.json") }
        return a
    }

    static func encode(_ object: Any) -> [UInt8] {
        guard let d = try? JSONSerialization.data(withJSONObject: object) else { fatalError("encode") }
        return [UInt8](d)
    }

    /// The shipped file with `edit` applied to the mission `id`, decoded.
    static func catalogue(editing id: String, _ edit: (inout [String: Any]) -> Void) throws(MissionDataError) -> MissionCatalogue {
        var all = rawMissions()
        guard let i = all.firstIndex(where: { $0["id"] as? String == id }) else { fatalError("no \(id)") }
        edit(&all[i])
        return try MissionCatalogue(json: encode(all))
    }

    /// The error the shipped file gives with `edit` applied to the mission `id` (nil: it loads).
    static func error(editing id: String, _ edit: (inout [String: Any]) -> Void) -> MissionDataError? {
        do {
            _ = try catalogue(editing: id, edit)
            return nil
        } catch {
            return error
        }
    }
}

/// One step of a path into the JSON (`["vehicles", 1, "phases", 4, "body"]`).
enum JSONKey: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case key(String)
    case index(Int)

    init(stringLiteral value: String) { self = .key(value) }
    init(integerLiteral value: Int) { self = .index(value) }
}

/// A JSON value to put into the file.
indirect enum JSONValue: Sendable, ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByBooleanLiteral {
    case string(String)
    case number(Double)
    case int(Int)
    case bool(Bool)
    case null
    case array([JSONValue])

    init(stringLiteral value: String) { self = .string(value) }
    init(floatLiteral value: Double) { self = .number(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(booleanLiteral value: Bool) { self = .bool(value) }

    var object: Any {
        switch self {
        case let .string(s): return s
        case let .number(x): return x
        case let .int(n): return n
        case let .bool(b): return b
        case .null: return NSNull()
        case let .array(a): return a.map(\.object)
        }
    }
}

enum JSONEdit {
    /// Sets (or, with nil, removes) the value at `path` in a mission object.
    static func set(_ path: [JSONKey], _ value: JSONValue?) -> @Sendable (inout [String: Any]) -> Void {
        { mission in mission = setting(value?.object, at: path[...], in: mission) as? [String: Any] ?? mission }
    }

    /// The value at `path` (nil where there is none).
    static func get(_ path: [JSONKey], in node: Any) -> Any? {
        var node: Any? = node
        for step in path {
            switch step {
            case let .key(k): node = (node as? [String: Any])?[k]
            case let .index(i): node = (node as? [Any]).flatMap { i < $0.count ? $0[i] : nil }
            }
        }
        return node
    }

    static func setting(_ value: Any?, at path: ArraySlice<JSONKey>, in node: Any) -> Any? {
        guard let head = path.first else { return value }
        switch head {
        case let .key(k):
            guard var dict = node as? [String: Any] else { fatalError("not an object at \(k)") }
            dict[k] = setting(value, at: path.dropFirst(), in: dict[k] ?? [String: Any]())
            return dict
        case let .index(i):
            guard var list = node as? [Any], i <= list.count else { fatalError("no element \(i)") }
            let new = setting(value, at: path.dropFirst(), in: i < list.count ? list[i] : [String: Any]())
            if i == list.count {
                if let new { list.append(new) }
            } else if let new {
                list[i] = new
            } else {
                list.remove(at: i)
            }
            return list
        }
    }
}
