import HTTPCore
import Sky

/// `/v1/sky?quantities=`: JPL Horizons' observer-table quantities, numbered as Horizons numbers
/// them (docs/horizons.md), as named fields of each body's `quantities` object (JSON) or as
/// extra columns (CSV). The values are ``ObserverQuantities``' — the ones the Horizons endpoint
/// prints — unrounded, in its units; null where a quantity does not apply to the body.
enum QuantityEncoding {
    enum Value {
        case number(Double?)
        case text(String?)
    }

    struct Field: Sendable {
        /// The JSON name.
        let name: String
        /// The CSV column: `q<number>_` and the name in snake_case (`q4_azimuth_deg`), apart
        /// from the classic columns of the same name.
        var column: String
        let value: @Sendable (ObserverQuantities) -> Value

        init(name: String, value: @escaping @Sendable (ObserverQuantities) -> Value) {
            self.name = name
            self.column = QuantityEncoding.snakeCase(name)
            self.value = value
        }
    }

    static func n(_ name: String, _ value: @escaping @Sendable (ObserverQuantities) -> Double?) -> Field {
        Field(name: name) { .number(value($0)) }
    }

    static func t(_ name: String, _ value: @escaping @Sendable (ObserverQuantities) -> String?) -> Field {
        Field(name: name) { .text(value($0)) }
    }

    /// The fields of quantity `number`, in Horizons' column order.
    static func fields(_ number: Int) -> [Field] {
        columns(number).map { f in
            var f = f
            f.column = "q\(number)_" + f.column
            return f
        }
    }

    static func columns(_ number: Int) -> [Field] {
        switch number {
        case 1: [n("astrometricRADeg") { $0.astrometricRADeg }, n("astrometricDecDeg") { $0.astrometricDecDeg }]
        case 2: [n("apparentRADeg") { $0.apparentRADeg }, n("apparentDecDeg") { $0.apparentDecDeg }]
        case 3: [n("raRateArcsecPerHour") { $0.raRateArcsecPerHour }, n("decRateArcsecPerHour") { $0.decRateArcsecPerHour }]
        case 4: [n("azimuthDeg") { $0.azimuthDeg }, n("elevationDeg") { $0.elevationDeg }]
        case 5: [n("azimuthRateArcsecPerMinute") { $0.azimuthRateArcsecPerMinute }, n("elevationRateArcsecPerMinute") { $0.elevationRateArcsecPerMinute }]
        case 7: [n("localSiderealTimeHours") { $0.localSiderealTimeHours }]
        case 8: [n("airmass") { $0.airmass }, n("extinctionMag") { $0.extinctionMag }]
        case 9: [n("magnitude") { $0.magnitude }, n("surfaceBrightness") { $0.surfaceBrightness }]
        case 10: [n("illuminatedPercent") { $0.illuminatedPercent }]
        case 11: [n("defectOfIlluminationArcsec") { $0.defectOfIlluminationArcsec }]
        case 13: [n("angularDiameterArcsec") { $0.angularDiameterArcsec }]
        case 14: [n("observerSubLongitudeDeg") { $0.observerSubLongitudeDeg }, n("observerSubLatitudeDeg") { $0.observerSubLatitudeDeg }]
        case 15: [n("sunSubLongitudeDeg") { $0.sunSubLongitudeDeg }, n("sunSubLatitudeDeg") { $0.sunSubLatitudeDeg }]
        case 16: [n("subSolarPositionAngleDeg") { $0.subSolarPositionAngleDeg }, n("subSolarDistanceArcsec") { $0.subSolarDistanceArcsec }]
        case 17: [n("northPolePositionAngleDeg") { $0.northPolePositionAngleDeg }, n("northPoleDistanceArcsec") { $0.northPoleDistanceArcsec }]
        case 18: [n("heliocentricEclipticLongitudeDeg") { $0.heliocentricEclipticLongitudeDeg }, n("heliocentricEclipticLatitudeDeg") { $0.heliocentricEclipticLatitudeDeg }]
        case 19: [n("sunRangeAU") { $0.sunRangeAU }, n("sunRangeRateKmS") { $0.sunRangeRateKmS }]
        case 20: [n("rangeAU") { $0.rangeAU }, n("rangeRateKmS") { $0.rangeRateKmS }]
        case 21: [n("lightTimeMinutes") { $0.lightTimeMinutes }]
        case 22: [n("speedWrtSunKmS") { $0.speedWrtSunKmS }, n("speedWrtObserverKmS") { $0.speedWrtObserverKmS }]
        case 23: [n("solarElongationDeg") { $0.solarElongationDeg }, t("elongationCode") { $0.elongationCode }]
        case 24: [n("sunTargetObserverDeg") { $0.sunTargetObserverDeg }]
        case 25: [n("lunarElongationDeg") { $0.lunarElongationDeg }, n("moonIlluminatedPercent") { $0.moonIlluminatedPercent }]
        case 26: [n("observerPrimaryTargetDeg") { $0.observerPrimaryTargetDeg }]
        case 27: [n("sunPositionAngleDeg") { $0.sunPositionAngleDeg }, n("velocityPositionAngleDeg") { $0.velocityPositionAngleDeg }]
        case 28: [n("orbitPlaneAngleDeg") { $0.orbitPlaneAngleDeg }]
        case 29: [t("constellation") { $0.constellation }]
        case 30: [n("tdbMinusUTSeconds") { $0.tdbMinusUTSeconds }]
        case 31: [n("observerEclipticLongitudeDeg") { $0.observerEclipticLongitudeDeg }, n("observerEclipticLatitudeDeg") { $0.observerEclipticLatitudeDeg }]
        case 32: [n("northPoleRADeg") { $0.northPoleRADeg }, n("northPoleDecDeg") { $0.northPoleDecDeg }]
        case 33: [n("galacticLongitudeDeg") { $0.galacticLongitudeDeg }, n("galacticLatitudeDeg") { $0.galacticLatitudeDeg }]
        case 34: [n("localSolarTimeHours") { $0.localSolarTimeHours }]
        case 35: [n("siteLightTimeMinutes") { $0.siteLightTimeMinutes }]
        case 41: [n("trueAnomalyDeg") { $0.trueAnomalyDeg }]
        case 42: [n("hourAngleHours") { $0.hourAngleHours }]
        case 43: [n("phaseAngleDeg") { $0.phaseAngleDeg }, n("bisectorLongitudeDeg") { $0.bisectorLongitudeDeg }, n("bisectorLatitudeDeg") { $0.bisectorLatitudeDeg }]
        case 44: [n("solarLongitudeDeg") { $0.solarLongitudeDeg }]
        case 45: [n("inertialApparentRADeg") { $0.inertialApparentRADeg }, n("inertialApparentDecDeg") { $0.inertialApparentDecDeg }]
        case 46: [n("inertialRARateArcsecPerHour") { $0.inertialRARateArcsecPerHour }, n("inertialDecRateArcsecPerHour") { $0.inertialDecRateArcsecPerHour }]
        case 47: [n("skyMotionArcsecPerMinute") { $0.skyMotionArcsecPerMinute }, n("skyMotionPositionAngleDeg") { $0.skyMotionPositionAngleDeg },
                  n("relativeVelocityAngleDeg") { $0.relativeVelocityAngleDeg }]
        default: []
        }
    }

    /// Horizons' flags, written whenever quantities are asked for: `*` daylight, `C`, `N`, `A`
    /// civil, nautical and astronomical twilight, null at night; `m` the Moon is up, else null.
    static let presence = [t("solarPresence") { $0.solarPresence == " " ? nil : String($0.solarPresence) },
                           t("lunarPresence") { $0.lunarPresence == " " ? nil : String($0.lunarPresence) }]

    static let accepted = "comma-separated numbers of JPL Horizons' observer quantities this server computes (1-5, 7-11, 13-35, 41-47; see docs/horizons.md), or all"

    /// `quantities=1,4,20` or `quantities=all`; nil when absent. A number Horizons defines but
    /// this server does not compute (6, 12, 36-40, 48) is refused, not answered with nulls.
    static func parse(_ q: QueryParameters) throws(ProblemDetails) -> QuantitySet? {
        guard let raw = try q.string("quantities") else { return nil }
        if raw.lowercased() == "all" { return .computed }
        var numbers: [Int] = []
        for part in raw.split(separator: ",", omittingEmptySubsequences: false) {
            guard part.utf8.count <= 2, let n = Int(part), QuantitySet.defined.contains(n) else {
                throw .invalidParameter("quantities", value: raw, accepted: accepted, reason: "\(part) is not a Horizons quantity number")
            }
            guard QuantitySet.computed.contains(n) else {
                throw .invalidParameter("quantities", value: raw, accepted: accepted, reason: "quantity \(n) is not computed by this server")
            }
            numbers.append(n)
        }
        return QuantitySet(numbers)
    }

    /// The fields of `set`, in Horizons' order, then the flags.
    static func fields(of set: QuantitySet) -> [Field] { set.flatMap { fields($0) } + presence }

    static func write(_ q: ObserverQuantities, fields: [Field], into w: inout JSONWriter) {
        w.key("quantities")
        w.object { w in
            for f in fields {
                w.key(f.name)
                switch f.value(q) {
                case let .number(v): if let v, v.isFinite { w.number(v) } else { w.null() }
                case let .text(s): if let s { w.string(s) } else { w.null() }
                }
            }
        }
    }

    /// `astrometricRADeg` → `astrometric_ra_deg`.
    static func snakeCase(_ name: String) -> String {
        let c = Array(name)
        var out = ""
        for (i, ch) in c.enumerated() {
            if ch.isUppercase, i > 0, c[i - 1].isLowercase || (i + 1 < c.count && c[i + 1].isLowercase && c[i - 1].isUppercase) { out.append("_") }
            out.append(contentsOf: ch.lowercased())
        }
        return out
    }

    static func csvHeader(_ fields: [Field]) -> String { fields.map { "," + $0.column }.joined() }

    /// The row's extra CSV cells, each led by a comma; empty for a null.
    static func csvCells(_ q: ObserverQuantities?, fields: [Field], into out: inout String) {
        for f in fields {
            out += ","
            guard let q else { continue }
            switch f.value(q) {
            case let .number(v): if let v, v.isFinite { out += "\(v)" }
            case let .text(s): if let s { out += s }
            }
        }
    }
}
