"""How long from a message's POST until the boards start to show it: the first byte a real
Vestaboard (its Local API, played here by a small server) receives, and the start of a local
panel's first frame (the plan's `startedAt` on the live stream), each as a median over N messages.
The nearest peer, FiestaBoard's backend, writes to the board inline in about 3 ms on the same
machine; flapd commits the message to its inbox (fsync) before the board moves.

Usage: python3 Benchmarks/post_to_board.py [-n N] FLAPD [FLAPD ...]
       (FLAPD: .build/release/flapd, or a copy of an earlier build; N: 50 messages each)
For each FLAPD it starts flapd on free loopback ports with a state directory of its own, a
simulated panel and a Vestaboard panel on the small server, sends messages one at a time, and
prints both medians. Given two builds (before and after a change), it takes turns between them,
five rounds of N/5 messages, so a busy spell on this shared machine falls on both alike: the
figures are for ratios between builds measured in one run.
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

arrivals = []  # when each write to the Vestaboard arrived, in order
arrived = threading.Condition()


def read_request(connection, buffered):
    """One HTTP request or answer from `connection`: (when its first byte arrived, its first line,
    what follows it); `buffered` is what was read of it already."""
    first = time.time() if buffered else None
    while b"\r\n\r\n" not in buffered:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        first = first or time.time()
        buffered += chunk
    head, rest = buffered.split(b"\r\n\r\n", 1)
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(rest) < length:
        rest += connection.recv(65536)
    return first, head.split(b"\r\n", 1)[0], rest[length:]


def serve_board(connection):
    """The Vestaboard's Local API on one connection, in as few steps as Python allows, so the
    figure is flapd's: the time taken is when the first byte of a write arrives."""
    buffered = b""
    with connection:
        while request := read_request(connection, buffered):
            at, line, buffered = request
            if line.startswith(b"POST "):
                with arrived:
                    arrivals.append(at)
                    arrived.notify_all()
                connection.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n")
            else:
                data = json.dumps({"message": [[0] * 22 for _ in range(6)]}).encode()
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(data) + data)


def serve_boards(listener):
    while True:
        connection, _ = listener.accept()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve_board, args=(connection,), daemon=True).start()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


board = socket.create_server(("127.0.0.1", 0))
threading.Thread(target=serve_boards, args=(board,), daemon=True).start()


def measure(flapd, count, to_board, to_frame):
    """Starts `flapd`, sends `count` messages, appends each one's delays in seconds."""
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
url = "http://127.0.0.1:{board.getsockname()[1]}"
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
        api = socket.create_connection(("127.0.0.1", api_port))
        api.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        for n in range(count):
            text = f"BENCHMARK {n}"
            with arrived:
                before = len(arrivals)
            body = json.dumps({"text": text}).encode()
            request = (
                f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
            # Taken as the request leaves, so the figure is flapd's rather than Python's.
            posted = time.time()
            api.sendall(request)
            answer = read_request(api, b"")
            if answer is None or not answer[1].startswith(b"HTTP/1.1 20"):
                sys.exit(f"flapd did not accept message {n}: {answer}")
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
    finally:
        process.terminate()
        process.wait()


arguments = sys.argv[1:]
count = 50
if arguments[:1] == ["-n"]:
    count, arguments = int(arguments[1]), arguments[2:]
if not arguments:
    sys.exit(__doc__)
rounds = 5 if len(arguments) > 1 else 1
results = {flapd: ([], []) for flapd in arguments}
for _ in range(rounds):
    for flapd in arguments:
        measure(flapd, count // rounds, *results[flapd])
first = None
for flapd, (to_board, to_frame) in results.items():
    medians = (statistics.median(to_board), statistics.median(to_frame))
    first = first or medians
    ratios = "" if medians is first else " (%.2f and %.2f of the first build's)" % (medians[0] / first[0], medians[1] / first[1])
    print(f"{flapd}:{ratios}")
    print(f"  POST to a Vestaboard's first byte: median {medians[0] * 1000:.2f} ms over {len(to_board)}")
    print(f"  POST to a local panel's first frame: median {medians[1] * 1000:.2f} ms over {len(to_frame)}")
