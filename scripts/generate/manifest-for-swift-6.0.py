#!/usr/bin/env python3
"""Writes Package@swift-6.0.swift, the manifest SwiftPM reads on a Swift 6.0 compiler (Debian 13's
swiftlang 6.0.3), from Package.swift: the same products, targets and dependencies, with the
tools version 6.0 and without package traits, which 6.0 does not know (a dependency's traits are
then those of a 6.0 build: none, so Hummingbird links no Foundation there either).

Run from the project's root after changing Package.swift; scripts/test fails while the two differ:
python3 scripts/generate/manifest-for-swift-6.0.py
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def manifest_for_6_0(text):
    lines = text.splitlines(keepends=True)
    if not lines[0].startswith("// swift-tools-version:"):
        raise SystemExit("Package.swift does not begin with its swift-tools-version line")
    header = ("// swift-tools-version: 6.0\n"
              "// Written by scripts/generate/manifest-for-swift-6.0.py from Package.swift, for Swift 6.0\n"
              "// (Debian 13's swiftlang); edit Package.swift and run the script again.\n")
    body = "".join(lines[1:])
    body = re.sub(r",\s*traits:\s*\[\]", "", body)
    code = "\n".join(line.split("//", 1)[0] for line in body.splitlines())
    if "traits:" in code:
        raise SystemExit("Package.swift uses package traits beyond `traits: []`: say how a 6.0 build goes without them")
    return header + body


def main():
    wanted = manifest_for_6_0((ROOT / "Package.swift").read_text())
    target = ROOT / "Package@swift-6.0.swift"
    if "--check" in sys.argv:
        if not target.exists() or target.read_text() != wanted:
            raise SystemExit("Package@swift-6.0.swift is not Package.swift's: run python3 scripts/generate/manifest-for-swift-6.0.py")
        return
    target.write_text(wanted)


main()
