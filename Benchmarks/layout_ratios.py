"""flapctl layout --jsonl against vesta on 400 texts, as the three ratios the package issue names.

Usage: python Benchmarks/layout_ratios.py FLAPCTL [--runs N] [--seed S]
(run it with a Python that has vesta==0.15.0, such as .build/test-venv/bin/python after
`bash scripts/test`; FLAPCTL is a release build: .build/release/flapctl, or /usr/bin/flapctl).

Two sets of 400 plain-ASCII texts from a seeded generator: "options" (line breaks, {codes},
fill, margin, every alignment) and "plain" (the text alone). Each is timed as
  - flapctl:   `FLAPCTL layout --jsonl` as a whole process, the requests on stdin;
  - bare:      vesta's encode_text called on the 400 texts inside this process (no start-up,
               no JSON), the best case for vesta;
  - script:    a CPython process reading the same JSON lines, calling encode_text and writing
               JSON lines, as a program would use vesta.
Every figure is the median of --runs runs; the answers are checked equal first. Prints each time
and each ratio (how many times as fast flapctl is).
"""
import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time

from vesta.chars import encode_text

WORDS = "THE DINNER AT 7 KITCHEN WORLD WEATHER MEET SAYS TODAY SUNNY RAIN 72 HELLO BACK SOON GONE OUT " \
        "LUNCH IS READY PICK UP MILK CALL MOM TRAIN LATE 8:15 WELCOME HOME MEETING ROOM 4B".split()
COLOURS = {"red": 63, "orange": 64, "yellow": 65, "green": 66, "blue": 67, "violet": 68, "white": 69}


def requests(seed, with_options):
    rng = random.Random(seed)
    out = []
    for _ in range(400):
        lines = []
        for _ in range(rng.randint(1, 4)):
            words = [rng.choice(WORDS) for _ in range(rng.randint(1, 5))]
            if with_options and rng.random() < 0.3:
                words.insert(rng.randrange(len(words) + 1), "{%d}" % rng.choice(list(COLOURS.values())))
            lines.append(" ".join(words))
        request = {"text": "\n".join(lines)}
        if with_options:
            request["align"] = rng.choice(["left", "center", "right"])
            request["valign"] = rng.choice(["top", "middle", "bottom"])
            request["margin"] = rng.choice([0, 0, 1, 2])
            request["fill"] = rng.choice([0, 0] + list(COLOURS))
        out.append(request)
    return out


def vesta_arguments(request):
    fill = request.get("fill", 0)
    return dict(align=request.get("align", "left"), valign=request.get("valign", "top"),
                margin=request.get("margin", 0), fill=COLOURS.get(fill, fill))


SCRIPT = """
import json, sys
from vesta.chars import encode_text
COLOURS = %r
out = sys.stdout
for line in sys.stdin:
    r = json.loads(line)
    fill = r.get("fill", 0)
    try:
        rows = encode_text(r["text"], align=r.get("align", "left"), valign=r.get("valign", "top"),
                           margin=r.get("margin", 0), fill=COLOURS.get(fill, fill))
        out.write(json.dumps({"rows": rows}) + "\\n")
    except ValueError as e:
        out.write(json.dumps({"error": str(e)}) + "\\n")
""" % (COLOURS,)


def median_seconds(runs, action):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def process(arguments, path):
    def run():
        with open(path, "rb") as stdin:
            subprocess.run(arguments, stdin=stdin, stdout=subprocess.DEVNULL, check=True)
    return run


def measure(flapctl, runs, name, batch):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as file:
        file.write("".join(json.dumps(r) + "\n" for r in batch))
    answers = subprocess.run([flapctl, "layout", "--jsonl"], stdin=open(file.name, "rb"),
                             capture_output=True, check=True).stdout.decode().splitlines()
    for request, answer in zip(batch, answers, strict=True):
        rows = json.loads(answer)["rows"]
        expected = encode_text(request["text"], **vesta_arguments(request))
        if rows != expected:
            sys.exit(f"flapctl and vesta differ on {request}: {rows} != {expected}")
    ours = median_seconds(runs, process([flapctl, "layout", "--jsonl"], file.name))
    bare = median_seconds(runs, lambda: [encode_text(r["text"], **vesta_arguments(r)) for r in batch])
    script = median_seconds(runs, process([sys.executable, "-c", SCRIPT], file.name))
    print(f"{name}: flapctl {ours * 1e3:.2f} ms, vesta bare {bare * 1e3:.2f} ms, "
          f"vesta script {script * 1e3:.2f} ms (medians of {runs} runs, 400 texts)")
    print(f"{name}: flapctl is {bare / ours:.2f}x vesta bare, {script / ours:.1f}x the script")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("flapctl")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=31)
    arguments = parser.parse_args()
    measure(arguments.flapctl, arguments.runs, "with options", requests(arguments.seed, True))
    measure(arguments.flapctl, arguments.runs, "no options", requests(arguments.seed, False))


main()
