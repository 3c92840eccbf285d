// libFuzzer target for the DAF/SPK reader (built by scripts/fuzz-spk.sh together with
// Sources/Ephemeris/*.swift, which is pure Swift). Each input is opened as a kernel; when it
// opens, every segment is evaluated inside its coverage, at its ends, just outside and far
// outside them, at NaN and ±infinity and at a time taken from the input (after the interior
// check the server runs, whatever it says); type 19 segments also
// on their interval boundaries, the other directory-searched types on their first and last
// epochs. Then every body the engine takes from it. Any crash or sanitizer report is a
// finding: a damaged kernel must be an SPKError, never a trap or a stray read.
//
// seeds/: two- and one-record excerpts of Resources/de440-1900-2100.bsp (12 segments each,
// little- and big-endian), written with the layout of Tests/EphemerisTests/SPKTestKernels.swift.
// scripts/fuzz-spk.sh adds the test kernels of every type (Tests/EphemerisTests/Fixtures/
// spk-samples: real Cassini, Perseverance, BepiColombo, Saturn-moon and DE441 kernels and the
// synthetic ones of types 1, 8, 9, 12, 13, 18, 19, 21).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = KernelBuffer(copying: UnsafeBufferPointer(start: data, count: size))
    guard let spk = try? SPKKernel(bytes: bytes, file: "fuzz.bsp") else { return 0 }
    // The interior check the server runs before serving from a kernel: refuses or passes, never traps.
    _ = try? spk.checkData()
    // Times from the input's last bytes, so the fuzzer can steer them.
    var extra = 0.0
    if size >= 8 {
        var bits: UInt64 = 0
        for i in 0..<8 { bits = bits << 8 | UInt64(data[size - 1 - i]) }
        extra = Double(bitPattern: bits)
    }
    let r = spk.reader
    for (i, s) in spk.segments.enumerated() {
        let a = s.startSeconds, b = s.endSeconds, span = b - a
        var times = [a, b, a + 0.25 * span, (a + b) / 2, a + 0.75 * span, a.nextDown, b.nextUp, a - 1e9, b + 1e9,
                     extra, .nan, .infinity, -.infinity, -.greatestFiniteMagnitude]
        switch spk.models[i] {
        case .piecewise(let m):
            let n = m.boundaries.count
            for k in Set([0, 1, n / 2, n - 2, n - 1]) where k >= 0 && k < n { times.append(m.boundaries.epoch(r, k)) }
        case .packets(let m):
            times += [m.epochs.epoch(r, 0), m.epochs.epoch(r, m.count - 1)]
        case .discreteStates(let m):
            if let e = m.epochs { times += [e.epoch(r, 0), e.epoch(r, e.count - 1)] }
        case .differenceLines(let m):
            times += [m.epochs.epoch(r, 0), m.epochs.epoch(r, m.epochs.count - 1)]
        case .none:
            break
        }
        for t in times {
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
