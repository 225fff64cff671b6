#!/usr/bin/env python3
"""How FlapServiceTests run flapd: each @Test counted as starting a flapd process (FlapdProcess,
the flapd binary, a kiosk process, or a helper of its file that does) or not (flapd in the test's
own process, InProcessFlapd, or none at all). Usage: python3 scripts/service-test-shape.py [--files]"""
import glob
import re
import sys
from collections import Counter

PROCESS = r'FlapdProcess\.start|builtProduct\("flapd"\)|KioskProcess\.start|FlapdProcess\('
in_process = processes = 0
by_file = Counter()
for path in sorted(glob.glob("Tests/FlapServiceTests/*.swift")):
    text = open(path, encoding="utf-8").read()
    helpers = [m.group(1) for m in re.finditer(r'func (\w+)\([^{]*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}', text) if re.search(PROCESS, m.group(2))]
    for body in re.split(r'\n\s*@Test', text)[1:]:
        if re.search(PROCESS, body) or any(re.search(r'\b' + h + r'\(', body) for h in helpers):
            processes += 1
            by_file[path.split("/")[-1]] += 1
        else:
            in_process += 1
total = in_process + processes
print(f"{total} tests: {in_process} with no flapd process ({100 * in_process // total} %), {processes} starting one")
if "--files" in sys.argv:
    for name, count in by_file.most_common():
        print(f"  {count}  {name}")
