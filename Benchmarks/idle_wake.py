"""What waking from idle costs a request on this machine, apart from anything flapd does: the
median round trip of `GET /healthz` on one kept-alive connection, sent back to back and sent
after 0.2 s of quiet (as post_to_board.py sends its messages, so the boards come to rest).

Usage: python3 Benchmarks/idle_wake.py FLAPD [N]   (FLAPD: .build/release/flapd; N: 200 each)
The difference is the time the machine takes to wake the threads a request passes through
(on a virtual machine, its halted virtual CPUs); post_to_board.py's figures carry it in full.
"""
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def round_trips(connection, count, pause):
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    times = []
    for _ in range(count):
        time.sleep(pause)
        start = time.perf_counter()
        connection.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += connection.recv(65536)
        head, body = answer.split(b"\r\n\r\n", 1)
        length = next((int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")), 0)
        while len(body) < length:
            body += connection.recv(65536)
        times.append(time.perf_counter() - start)
    return statistics.median(times[count // 10:]) * 1000


if len(sys.argv) < 2:
    sys.exit(__doc__)
flapd, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200
port = free_port()
state = tempfile.mkdtemp(prefix="idle-wake-")
process = subprocess.Popen(
    [flapd, "--simulate", "--state-dir", state, "--api-port", str(port), "--https-port", "0", "--local-api-port", "0", "--no-sound"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(600):
        try:
            connection = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            time.sleep(0.05)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    warm = round_trips(connection, count, 0)
    idle = round_trips(connection, count, 0.2)
    print(f"GET /healthz round trip: median {warm:.3f} ms back to back, {idle:.3f} ms after 0.2 s idle ({idle - warm:.3f} ms to wake)")
finally:
    process.terminate()
    process.wait()
