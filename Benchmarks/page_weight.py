"""The web page's weight as a browser first loads it, plain and gzip-compressed.

Usage: python3 Benchmarks/page_weight.py http://127.0.0.1:8080
Fetches the page and every file it loads before signing in (styles, scripts, the glyph table,
the icon and the manifest), once without and once with `Accept-Encoding: gzip`, and prints the
bytes each took on the wire and the totals.
"""
import re
import sys
import urllib.request

base = sys.argv[1].rstrip("/")


def fetch(path, gzip):
    request = urllib.request.Request(base + path, headers={"Accept-Encoding": "gzip"} if gzip else {})
    with urllib.request.urlopen(request) as answer:
        return answer.read(), answer.headers.get("Content-Encoding")


page, _ = fetch("/", False)
# What the page's head loads (styles, scripts, the icon and the manifest), not where its links go.
seen = {"/"} | {path.decode() for path in re.findall(rb'<(?:link|script)[^>]+(?:href|src)="(/[^"]+)"', page)}
# Modules import each other and fetch the glyph table: follow them too.
queue = [path for path in seen if path.endswith(".js")]
while queue:
    body, _ = fetch(queue.pop(), False)
    for found in re.findall(rb'from "(/web/[^"]+)"', body) + re.findall(rb'"(/web/[a-z]+\.json)"', body):
        path = found.decode()
        if path not in seen:
            seen.add(path)
            if path.endswith(".js"):
                queue.append(path)
paths = sorted(seen)
plain_total = gzip_total = 0
print(f"{'file':28} {'plain':>8} {'gzip':>8}")
for path in paths:
    plain, _ = fetch(path, False)
    compressed, encoding = fetch(path, True)
    plain_total += len(plain)
    gzip_total += len(compressed)
    print(f"{path:28} {len(plain):8} {len(compressed):8} {encoding or ''}")
print(f"{'total':28} {plain_total:8} {gzip_total:8}  ({gzip_total / plain_total:.0%})")
