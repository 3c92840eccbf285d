#!/usr/bin/env python3
"""The module layering as docs/architecture.md states it, checked against the code.

docs/architecture.md holds a table (between `<!-- imports -->` and `<!-- /imports -->`) of what
each module may import. This fails (exit 1, naming each difference) when
  - a target of Package.swift (from `swift package dump-package`) has no row, or a row names a
    module Package.swift does not have;
  - a row differs from the target's dependencies in Package.swift;
  - a Swift file under Sources/<module>/ imports a module of this package or a package product
    its row does not list (Glibc, Darwin, Foundation, Dispatch, Synchronization and the like,
    the platform's own modules, are not listed and not checked).

usage: scripts/architecture-check.py        (from anywhere; runs swift package dump-package)
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PLATFORM = {"Glibc", "Darwin", "Foundation", "FoundationEssentials", "Dispatch", "Synchronization", "Musl", "_Concurrency", "os"}


def table():
    text = (ROOT / "docs/architecture.md").read_text()
    m = re.search(r"<!-- imports -->(.*?)<!-- /imports -->", text, re.S)
    if not m:
        sys.exit("architecture-check: docs/architecture.md has no <!-- imports --> table")
    rows = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("module", "") or set(cells[0]) <= {"-"}:
            continue
        rows[cells[0]] = {x.strip() for x in cells[1].split(",") if x.strip()}
    return rows


def package():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    targets = {}
    for t in json.loads(out)["targets"]:
        if t["type"] not in ("regular", "executable", "system") or (t.get("path") or "").startswith("Tests/"):
            continue  # tests and their support library may import what they test
        deps = set()
        for d in t.get("dependencies", []):
            for kind, value in d.items():
                deps.add(value[0])
        path = t.get("path") or f"Sources/{t['name']}"
        targets[t["name"]] = (deps, ROOT / path)
    return targets


def imports(directory):
    found = {}
    for f in sorted(directory.rglob("*.swift")):
        for n, line in enumerate(f.read_text().splitlines(), 1):
            m = re.match(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:public |internal |package |private |fileprivate )?import\s+(?:(?:struct|class|enum|func|var|let|protocol|typealias)\s+)?([A-Za-z_]\w*)", line)
            if m:
                found.setdefault(m.group(1), f"{f.relative_to(ROOT)}:{n}")
    return found


def main():
    rows = table()
    targets = package()
    problems = []
    known = set(targets)
    for name in sorted(set(rows) - known):
        problems.append(f"docs/architecture.md lists {name}, which Package.swift does not declare")
    for name, (deps, path) in sorted(targets.items()):
        if name not in rows:
            problems.append(f"{name} (Package.swift) has no row in docs/architecture.md")
            continue
        if rows[name] != deps:
            extra, missing = sorted(rows[name] - deps), sorted(deps - rows[name])
            problems.append(f"{name}: docs/architecture.md and Package.swift differ"
                            + (f"; only the docs list {', '.join(extra)}" if extra else "")
                            + (f"; only Package.swift lists {', '.join(missing)}" if missing else ""))
        if path.is_dir():
            for module, where in sorted(imports(path).items()):
                if module in PLATFORM or module == name:
                    continue
                if module not in rows[name]:
                    problems.append(f"{where}: {name} imports {module}, which its row in docs/architecture.md does not list")
    for p in problems:
        print(f"architecture-check: {p}")
    if problems:
        return 1
    print(f"architecture-check: {len(targets)} modules, their imports as docs/architecture.md draws them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
