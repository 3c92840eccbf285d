// libFuzzer target for the element-set readers (built by scripts/fuzz-elements.sh: Sources/Ephemeris
// as a module of its own, then Sources/Satellites with this file). Each input is read as an
// element-set file — TLE, OMM JSON or OMM XML, told apart by its first character — and every set
// it yields is given to SGP4 and propagated at its epoch, a day, a year and a thousand years on;
// then the input is asked whether it looks unfinished. Any crash, sanitizer report or timeout is
// a finding: a file is the operator's, but nothing in it may trap, hang or read out of bounds.
//
// seeds/: a 3-line TLE pair, CelesTrak-shaped OMM JSON and XML, and the shapes the hostile
// tests use (scripts/make-hostile-files.py writes the large ones).
import Ephemeris

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = ElementSetFile.looksUnfinished(bytes)
    guard let file = try? ElementSetFile(bytes: bytes) else { return 0 }
    let catalogue = SatelliteCatalogue(files: [("fuzz", file)], reservedNames: ["moon"])
    for s in catalogue.satellites.prefix(8) {
        for minutes in [0.0, 1_440, 525_960, 525_960_000, -525_960, .nan] {
            _ = try? s.propagator.propagate(minutesSinceEpoch: minutes)
        }
    }
    return 0
}
