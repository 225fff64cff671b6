#!/usr/bin/env python3
"""How FlapServiceTests run flapd. Each @Test is counted as one of:
- starting a flapd process (FlapdProcess, the flapd binary, a kiosk process, or a helper of its
  file that does);
- an appliance in the test's own process (InProcessFlapd) on the virtual clock, the default;
- an appliance in the test's process on the real clock (`time: .real`, for a device on a wire);
- no flapd at all (configuration, errors).
Usage: python3 scripts/service-test-shape.py [--files] [--names]"""
import glob
import re
import sys
from collections import Counter

PROCESS = r'FlapdProcess\.start|builtProduct\("flapd"\)|KioskProcess\.start|FlapdProcess\('
IN_PROCESS = r'InProcessFlapd\.start'
REAL = r'time: \.real'
counts = Counter()
by_file = Counter()
names = {}


def helpers_matching(text, pattern):
    return [m.group(1) for m in re.finditer(r'func (\w+)\([^{]*\{((?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*)\}', text) if re.search(pattern, m.group(2))]


for path in sorted(glob.glob("Tests/FlapServiceTests/*.swift")):
    text = open(path, encoding="utf-8").read()
    process_helpers = helpers_matching(text, PROCESS)
    in_process_helpers = helpers_matching(text, IN_PROCESS)
    real_helpers = helpers_matching(text, REAL)

    def uses(body, pattern, helpers):
        return re.search(pattern, body) or any(re.search(r'\b' + h + r'\(', body) for h in helpers)

    for body in re.split(r'\n\s*@Test', text)[1:]:
        name = re.search(r'func (\w+)', body).group(1)
        if uses(body, PROCESS, process_helpers):
            kind = "process"
            by_file[path.split("/")[-1]] += 1
        elif uses(body, IN_PROCESS, in_process_helpers):
            kind = "real clock" if uses(body, REAL, real_helpers) else "virtual clock"
        else:
            kind = "none"
        counts[kind] += 1
        names[name] = kind
total = sum(counts.values())
in_process = counts["virtual clock"] + counts["real clock"] + counts["none"]
print(f"{total} tests: {in_process} with no flapd process ({100 * in_process // total} %), {counts['process']} starting one")
print(f"  in the test's process on the virtual clock: {counts['virtual clock']}; on the real clock: {counts['real clock']}; no flapd: {counts['none']}")
if "--files" in sys.argv:
    for name, count in by_file.most_common():
        print(f"  {count}  {name}")
if "--names" in sys.argv:
    for name, kind in sorted(names.items()):
        print(f"{kind}\t{name}")
