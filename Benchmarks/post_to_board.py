"""How long from a message's POST until the boards start to show it: the first byte a real
Vestaboard (its Local API, played here by a small server) receives, and the start of a local
panel's first frame (the plan's `startedAt` on the live stream), each as a median over N messages.
The nearest peer, FiestaBoard's backend, writes to the board inline in about 3 ms on the same
machine; flapd commits the message to its inbox (fsync) before the board moves.

Usage: python3 Benchmarks/post_to_board.py FLAPD [N]     (FLAPD: .build/release/flapd; N: 50)
It starts flapd on free loopback ports with a state directory of its own, a simulated panel and a
Vestaboard panel on the small server, sends N messages one at a time, and prints both medians.
Run before and after a change in one sitting, on the same machine: the figures are for ratios.
"""
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

flapd = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 50
arrivals = []  # when each write to the Vestaboard arrived, in order
arrived = threading.Condition()


class Vestaboard(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        at = time.time()  # the request's head has arrived: its first bytes were written before
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        with arrived:
            arrivals.append(at)
            arrived.notify_all()
        self.send_response(201)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        data = json.dumps({"message": [[0] * 22 for _ in range(6)]}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


board = ThreadingHTTPServer(("127.0.0.1", 0), Vestaboard)
threading.Thread(target=board.serve_forever, daemon=True).start()
folder = tempfile.mkdtemp(prefix="post-to-board-")
with open(f"{folder}/vestaboard-key", "w") as f:
    f.write("benchmark-key\n")
api_port = free_port()
with open(f"{folder}/flapd.toml", "w") as f:
    f.write(f"""listen = "127.0.0.1"
[api]
port = {api_port}
https_port = 0
[local_api]
port = 0
[[panel]]
id = "main"
driver = "simulated"
size = "flagship"
show = "none"
[[panel]]
id = "wall"
driver = "vestaboard"
api = "local"
url = "http://127.0.0.1:{board.server_address[1]}"
key_file = "{folder}/vestaboard-key"
""")
process = subprocess.Popen(
    [flapd, "--config", f"{folder}/flapd.toml", "--state-dir", f"{folder}/state", "--no-sound"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(600):
        try:
            http.client.HTTPConnection("127.0.0.1", api_port, timeout=1).request("GET", "/healthz")
            break
        except OSError:
            time.sleep(0.05)
    key = open(f"{folder}/state/api-key").read().strip()
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    events = http.client.HTTPConnection("127.0.0.1", api_port)
    events.request("GET", "/v1/events", headers=headers)
    stream = events.getresponse()
    api = http.client.HTTPConnection("127.0.0.1", api_port)
    to_board, to_frame = [], []
    for n in range(count):
        text = f"BENCHMARK {n}"
        with arrived:
            before = len(arrivals)
        posted = time.time()
        api.request("POST", "/v1/messages", body=json.dumps({"text": text}), headers=headers)
        api.getresponse().read()
        # The local panel's plan for it: the first `plan` event of panel main after the POST.
        while True:
            line = stream.readline().decode()
            if line.startswith("data: ") and '"panel":"main"' in line and '"startedAt"' in line:
                started = json.loads(line[6:])["startedAt"] / 1000
                if started >= posted - 0.001:
                    to_frame.append(started - posted)
                    break
        with arrived:
            if not arrived.wait_for(lambda: len(arrivals) > before, timeout=30):
                sys.exit(f"the Vestaboard got no write for message {n} in 30 s")
            to_board.append(arrivals[before] - posted)
        time.sleep(0.2)  # let the boards come to rest before the next
    print(f"POST to a Vestaboard's first byte: median {statistics.median(to_board) * 1000:.1f} ms over {count}")
    print(f"POST to a local panel's first frame: median {statistics.median(to_frame) * 1000:.1f} ms over {count}")
finally:
    process.terminate()
    process.wait()
