/// Tolerances in named units (kilometres, km/s and seconds underneath), for every suite here.
func km(_ x: Double) -> Double { x }
func metres(_ x: Double) -> Double { x / 1000 }
func metresPerSecond(_ x: Double) -> Double { x / 1000 }
func kmPerS(_ x: Double) -> Double { x }
func seconds(_ x: Double) -> Double { x }
