"""What a dashboard polling the board's picture costs flapd: the median time and bytes of a
`GET /v1/board.png` answered 200 (the picture) and of one answered 304 (the ETag matched).

Usage: python3 Benchmarks/picture_poll.py http://127.0.0.1:8080 KEY [N]
One keep-alive connection, N requests of each kind (default 500), as a dashboard makes them.
"""
import http.client
import statistics
import sys
import time
import urllib.parse

base, key = sys.argv[1], sys.argv[2]
count = int(sys.argv[3]) if len(sys.argv) > 3 else 500
url = urllib.parse.urlparse(base)
connection = http.client.HTTPConnection(url.hostname, url.port)
headers = {"Authorization": f"Bearer {key}"}


def ask(extra):
    start = time.perf_counter()
    connection.request("GET", "/v1/board.png?width=800", headers={**headers, **extra})
    answer = connection.getresponse()
    body = answer.read()
    return (time.perf_counter() - start) * 1e6, answer.status, len(body), answer.getheader("ETag")


_, _, _, tag = ask({})
for name, extra in (("200 (the picture)", {}), ("304 (unchanged)", {"If-None-Match": tag})):
    runs = [ask(extra) for _ in range(count)]
    statuses = {run[1] for run in runs}
    print(f"{name:18} median {statistics.median(r[0] for r in runs):7.0f} µs, {runs[0][2]:6} bytes of body, statuses {sorted(statuses)}")
