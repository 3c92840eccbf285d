#!/usr/bin/env bash
# Resources/constellations/roman1987-boundaries.dat: the IAU constellation boundaries (Delporte
# 1930) as tabulated by Roman (1987, PASP 99, 695; CDS catalogue VI/42, file data.dat): rows of
# RA low (h), RA high (h), Dec low (deg, B1875.0), constellation, ordered from the north pole south.
# Taken from the copy astropy ships (astropy/coordinates/data/constellation_data_roman87.dat, BSD
# licence), fetched from PyPI with pip; this script records which version it came from.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-8.0.2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pip download -q --no-deps --only-binary=:all: -d "$tmp" "astropy==$version"
wheel=$(ls "$tmp"/astropy-*.whl | head -1)
out=Resources/constellations/roman1987-boundaries.dat
mkdir -p "$(dirname "$out")"
{
    echo "# IAU constellation boundaries (Delporte 1930), B1875.0, as tabulated by Roman 1987 (PASP 99, 695; CDS VI/42)."
    echo "# Columns: RA low (hours), RA high (hours), Dec low (degrees), IAU abbreviation; first matching row from the top."
    echo "# Made by scripts/make-constellation-table.sh from $(basename "$wheel") (astropy/coordinates/data/constellation_data_roman87.dat)."
    python3 -c "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read('astropy/coordinates/data/constellation_data_roman87.dat').decode())" "$wheel" | grep -v '^#'
} >"$out"
echo "wrote $out ($(grep -vc '^#' "$out") rows)"
