import Foundation
import Ephemeris
@testable import Sky

/// Fred Espenak's (NASA GSFC) eclipse and transit catalogues, read from the pages as NASA
/// published them (`Fixtures/espenak/`, web-archived HTML; column keys in the readme files).
enum EspenakCatalogue {
    struct Solar {
        let line: String
        let greatestTD: Instant
        let deltaT: Double
        let lunation: Int
        let saros: Int
        let type: String
        let gamma: Double
        let magnitude: Double
        let latitude: Double
        let longitude: Double
        let sunAltitude: Double
        let pathWidthKm: Double?
        let centralDurationSeconds: Double?
    }

    struct Lunar {
        let line: String
        /// Greatest eclipse, UT to the minute.
        let greatestUT: Instant
        let type: String
        let saros: Int
        let gamma: Double
        let penumbralMagnitude: Double
        let umbralMagnitude: Double
        let partialSemiDurationMinutes: Double?
        let totalSemiDurationMinutes: Double?
    }

    struct Transit {
        let line: String
        /// Contacts I, II, greatest, III, IV, UT to the minute (II and III nil for a grazing transit).
        let contacts: [Instant?]
        let minimumSeparationArcsec: Double
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The page's text without its markup, line by line.
    static func lines(_ file: String) -> [String] {
        guard let url = Bundle.module.url(forResource: "Fixtures/espenak/" + file, withExtension: nil),
              let html = try? String(contentsOf: url, encoding: .utf8) else { fatalError("fixture \(file) missing") }
        let text = html.replacingOccurrences(of: "<[^>]*>", with: "", options: .regularExpression)
        return text.components(separatedBy: "\n")
    }

    static func time(_ year: String, _ month: String, _ day: String, _ hms: String) -> Instant {
        let t = hms.split(separator: ":").map { Double($0)! }
        let m = months.firstIndex(of: month)! + 1
        return try! TimeScale.utc(year: Int(year)!, month: m, day: Int(day)!, hour: Int(t[0]), minute: Int(t[1]), second: t.count > 2 ? t[2] : 0)
    }

    /// A TD calendar time as an instant whose TT is that time.
    static func td(_ year: String, _ month: String, _ day: String, _ hms: String) -> Instant {
        let label = time(year, month, day, hms)
        return label.addingTT(seconds: -label.ttMinusUTCSeconds)
    }

    static func angle(_ s: String) -> Double {
        let v = Double(s.dropLast())!
        return s.hasSuffix("S") || s.hasSuffix("W") ? -v : v
    }

    static let solar: [Solar] = (lines("espenak-se1901.html") + lines("espenak-se2001.html")).compactMap { line in
        let f = line.split(separator: " ").map(String.init)
        guard f.count >= 14, f[0].count == 5, Int(f[0]) != nil, months.contains(f[2]) else { return nil }
        let duration: Double? = f.count > 16 && f[16].contains("m") ? {
            let p = f[16].dropLast().split(separator: "m")
            return Double(p[0])! * 60 + Double(p[1])!
        }() : nil
        return Solar(line: line, greatestTD: td(f[1], f[2], f[3], f[4]), deltaT: Double(f[5])!, lunation: Int(f[6])!, saros: Int(f[7])!,
                     type: String(f[8].prefix(1)), gamma: Double(f[9])!, magnitude: Double(f[10])!, latitude: angle(f[11]), longitude: angle(f[12]),
                     sunAltitude: Double(f[13])!, pathWidthKm: f.count > 15 ? Double(f[15]) : nil, centralDurationSeconds: duration)
    }

    static let lunar: [Lunar] = (lines("espenak-le1901.html") + lines("espenak-le2001.html")).compactMap { line in
        let f = line.split(separator: " ").map(String.init)
        guard f.count >= 12, f[0].count == 4, Int(f[0]) != nil, months.contains(f[1]), f[3].contains(":") else { return nil }
        func minutes(_ s: String) -> Double? { s.hasSuffix("m") ? Double(s.dropLast()) : nil }
        return Lunar(line: line, greatestUT: time(f[0], f[1], f[2], f[3]), type: String(f[4].prefix(1)), saros: Int(f[5])!, gamma: Double(f[6])!,
                     penumbralMagnitude: Double(f[7])!, umbralMagnitude: Double(f[8])!, partialSemiDurationMinutes: minutes(f[9]),
                     totalSemiDurationMinutes: minutes(f[10]))
    }

    /// NASA's ΔT at `t`, seconds: the solar catalogue's column (whole seconds), interpolated
    /// between its eclipses (the lunar and transit tables give UT computed with the same ΔT).
    static func deltaT(at t: Instant) -> Double {
        let x = t.jdTT
        guard let i = solar.firstIndex(where: { $0.greatestTD.jdTT > x }) else { return solar.last!.deltaT }
        guard i > 0 else { return solar[0].deltaT }
        let a = solar[i - 1], b = solar[i]
        let f = (x - a.greatestTD.jdTT) / (b.greatestTD.jdTT - a.greatestTD.jdTT)
        return a.deltaT + f * (b.deltaT - a.deltaT)
    }

    /// A UT of NASA's tables as TT, with NASA's ΔT.
    static func tdFromNASAUT(_ label: Instant) -> Instant {
        label.addingTT(seconds: deltaT(at: label) - label.ttMinusUTCSeconds)
    }

    /// The transits of 1901–2100 (the DE440 file's span) of `planet` ("mercury", "venus").
    static func transits(_ planet: String) -> [Transit] {
        lines("espenak-\(planet).html").compactMap { line in
            let f = line.split(separator: " ").map(String.init)
            guard f.count >= 10, f[0].count == 4, let year = Int(f[0]), (1901...2100).contains(year), months.contains(f[1]) else { return nil }
            // The date is greatest transit's: a contact before it with a later clock time was the
            // day before, one after it with an earlier clock time the day after.
            let day = time(f[0], f[1], f[2], "00:00")
            func seconds(_ hm: String) -> Double? {
                guard hm != "-" else { return nil }
                let p = hm.split(separator: ":").map { Double($0)! }
                return p[0] * 3600 + p[1] * 60
            }
            let greatest = seconds(f[5])!
            let contacts: [Instant?] = f[3...7].enumerated().map { i, hm in
                guard var x = seconds(hm) else { return nil }
                if i < 2, x > greatest { x -= 86_400 }
                if i > 2, x < greatest { x += 86_400 }
                return day.addingTT(seconds: x)
            }
            return Transit(line: line, contacts: contacts, minimumSeparationArcsec: Double(f[8])!)
        }
    }
}
