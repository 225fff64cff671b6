"""Devices on the home network with no key holding every connection of one of flapd's native API
ports by being chatty, while the owner uses the API; prints what each got, as JSON.

Usage: connection_hog.py PORT TLS OWNER_KEY HOGS ADDRESSES SECONDS
- HOGS keep-alive connections (over TLS when TLS is 1), spread over ADDRESSES source addresses
  (127.0.0.10 and on: every 127/8 address is this machine's), each sending a complete
  `GET /healthz` every 1 to 1.8 s and connecting again at once whenever flapd closes it;
- once they are connected, for SECONDS the owner asks `GET /v1/board` and `GET /v1/members` in
  turn, each on a new connection as a phone would, four times a second;
- prints the owner's statuses and latencies (p50, p95, the slowest) and what the hogs got.
Every loop is bounded in time; the hogs stop with the owner.
"""
import json
import random
import resource
import socket
import ssl
import sys
import threading
import time

port, tls, owner_key = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3]
hog_count, addresses, seconds = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
stop = threading.Event()
lock = threading.Lock()
hogs = {"connected": 0, "answers": {}, "closedByFlapd": 0}


def connect(source="127.0.0.1"):
    s = socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
    return context.wrap_socket(s) if tls else s


def answer(s):
    """The status of one answer read to its end; 0 when the connection closed first."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            return 0
        data += chunk
    headers, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in headers.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = s.recv(65536)
        if not chunk:
            return 0
        body += chunk
    return int(headers.split(b" ")[1])


def count(kind, key=None):
    with lock:
        if key is None:
            hogs[kind] += 1
        else:
            hogs[kind][key] = hogs[kind].get(key, 0) + 1


def hog(source):
    while not stop.is_set():
        try:
            s = connect(source)
        except OSError:
            stop.wait(0.1)
            continue
        count("connected")
        try:
            while not stop.is_set():
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                status = answer(s)
                if status == 0:
                    count("closedByFlapd")
                    break
                count("answers", str(status))
                stop.wait(random.uniform(1.0, 1.8))
        except OSError:
            count("closedByFlapd")
        finally:
            s.close()


threads = [threading.Thread(target=hog, args=(f"127.0.0.{10 + i % addresses}",), daemon=True) for i in range(hog_count)]
for thread in threads:
    thread.start()
deadline = time.monotonic() + 30
while hogs["connected"] < hog_count and time.monotonic() < deadline:
    time.sleep(0.1)
time.sleep(2)  # every hog has asked at least once

owner = {"statuses": {}, "latenciesMs": []}
paths = ["/v1/board", "/v1/members"]
started = time.monotonic()
n = 0
while time.monotonic() - started < seconds:
    path = paths[n % 2]
    n += 1
    began = time.monotonic()
    try:
        s = connect()
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {owner_key}\r\nConnection: close\r\n\r\n".encode())
        status = answer(s)
        s.close()
    except OSError:
        status = 0
    owner["latenciesMs"].append((time.monotonic() - began) * 1000)
    owner["statuses"][str(status)] = owner["statuses"].get(str(status), 0) + 1
    time.sleep(0.25)
stop.set()
for thread in threads:
    thread.join(timeout=35)
latencies = sorted(owner.pop("latenciesMs"))
owner["p50Ms"] = round(latencies[len(latencies) // 2], 1)
owner["p95Ms"] = round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.95))], 1)
owner["maxMs"] = round(latencies[-1], 1)
print(json.dumps({"owner": owner, "hogs": hogs}))
