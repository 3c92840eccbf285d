// libFuzzer target for the DAF/SPK reader (built by scripts/fuzz-spk.sh together with
// Sources/Ephemeris/*.swift, which is pure Swift). Each input is opened as a kernel; when it
// opens, every segment and every body the engine takes from it are evaluated at the span's
// ends, its middle, outside it and at times taken from the input. Any crash or sanitizer
// report is a finding: a damaged kernel must be an SPKError, never a trap or a stray read.
//
// seeds/: two- and one-record excerpts of Resources/de440-1900-2100.bsp (12 segments each,
// little- and big-endian), written with the layout of Tests/EphemerisTests/SPKTestKernels.swift.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = KernelBuffer(copying: UnsafeBufferPointer(start: data, count: size))
    guard let spk = try? SPKKernel(bytes: bytes, file: "fuzz.bsp") else { return 0 }
    // Times from the input's last bytes, so the fuzzer can steer them.
    var extra = 0.0
    if size >= 8 {
        var bits: UInt64 = 0
        for i in 0..<8 { bits = bits << 8 | UInt64(data[size - 1 - i]) }
        extra = Double(bitPattern: bits)
    }
    for (i, s) in spk.segments.enumerated() {
        for t in [s.startSeconds, s.endSeconds, (s.startSeconds + s.endSeconds) / 2, s.startSeconds - 1e9, s.endSeconds + 1e9, extra, .nan, .infinity] {
            _ = spk.position(segment: i, secondsPastJ2000: t)
            _ = spk.state(segment: i, secondsPastJ2000: t)
        }
    }
    guard let kernel = try? PlanetaryKernel(spk) else { return 0 }
    let span = kernel.spanSeconds
    var helio = [Vector3](repeating: .zero, count: BodyID.count)
    var states = [StateVector](repeating: StateVector(positionAU: .zero, velocityAUPerDay: .zero), count: BodyID.count)
    for t in [span.lowerBound, span.upperBound, (span.lowerBound + span.upperBound) / 2, min(max(extra, span.lowerBound), span.upperBound)] {
        _ = kernel.positions(secondsPastJ2000: t, heliocentricAU: &helio)
        _ = kernel.states(secondsPastJ2000: t, into: &states)
        _ = kernel.moonGeocentricState(secondsPastJ2000: t)
        for body in PlanetaryKernel.bodies where body != .moon { _ = kernel.heliocentricState(body, secondsPastJ2000: t) }
    }
    _ = kernel.label
    _ = kernel.spanJDTDB
    return 0
}
