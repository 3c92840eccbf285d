/// Tolerances in named units.
func km(_ x: Double) -> Double { x }
func au(_ x: Double) -> Double { x }
