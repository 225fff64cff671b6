"""What a flood of connections does to flapd: its resident memory and open descriptors idle,
while 20 000 connections are opened to its native API and held (sending nothing), after flapd
has closed them, and after 1 000 event streams were opened and closed while the board was still.

    swift build -c release --static-swift-stdlib --product flapd
    .build/test-venv/bin/python Benchmarks/connection_flood.py
"""
import argparse
import os
import resource
import select
import shutil
import socket
import subprocess
import sys
import tempfile
import time

FLAPD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release", "flapd")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure(pid):
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return rss // 1024, len(os.listdir(f"/proc/{pid}/fd"))


def wait_until_closed(sockets, limit):
    """Reads each socket until flapd closes it, or `limit` seconds pass; returns how many are still open."""
    poller = select.poll()
    by_fd = {s.fileno(): s for s in sockets}
    for fd in by_fd:
        poller.register(fd, select.POLLIN | select.POLLHUP)
    deadline = time.monotonic() + limit
    while by_fd and time.monotonic() < deadline:
        for fd, _ in poller.poll(100):
            s = by_fd.get(fd)
            if s is None:
                continue
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if not data:
                poller.unregister(fd)
                del by_fd[fd]
    return len(by_fd)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=20_000)
    parser.add_argument("--streams", type=int, default=1_000)
    arguments = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if arguments.connections > hard - 100:
        arguments.connections = hard - 100
        print(f"this process may open {hard} files: {arguments.connections} connections")
    state = tempfile.mkdtemp(prefix="flapd-flood-")
    port = free_port()
    flapd = subprocess.Popen([FLAPD, "--simulate", "--no-sound", "--state-dir", state, "--api-port", str(port),
                              "--https-port", "0", "--local-api-port", "0", "--api-key", "flood"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        time.sleep(1)
        rss, fds = measure(flapd.pid)
        print(f"idle: {rss} MiB resident, {fds} descriptors")

        held, refused = [], 0
        started = time.monotonic()
        peak = (rss, fds)
        for index in range(arguments.connections):
            try:
                held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            except OSError:
                refused += 1
            if index % 2000 == 1999:
                now = measure(flapd.pid)
                peak = (max(peak[0], now[0]), max(peak[1], now[1]))
        opened = time.monotonic() - started
        now = measure(flapd.pid)
        peak = (max(peak[0], now[0]), max(peak[1], now[1]))
        healthz = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", f"http://127.0.0.1:{port}/healthz"],
                                 capture_output=True, text=True).stdout
        print(f"{len(held)} connections opened in {opened:.1f} s ({refused} could not connect): "
              f"at most {peak[0]} MiB resident, {peak[1]} descriptors; /healthz meanwhile: {healthz} s")
        still = wait_until_closed(held, 30)
        for s in held:
            s.close()
        time.sleep(1)
        rss, fds = measure(flapd.pid)
        print(f"after flapd closed them ({still} still open after 30 s): {rss} MiB resident, {fds} descriptors")

        # In rounds of 100, each once the last round's were let go: a closed stream counts against
        # the port's 256 until its heartbeat finds it gone (10 to 20 s).
        request = b"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer flood\r\n\r\n"
        baseline = fds
        for start in range(0, arguments.streams, 100):
            deadline = time.monotonic() + 30
            while measure(flapd.pid)[1] > baseline + 110 and time.monotonic() < deadline:
                time.sleep(0.5)
            streams = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(min(100, arguments.streams - start))]
            for s in streams:
                s.sendall(request)
            for s in streams:
                seen = b""
                while b"event:" not in seen:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    seen += chunk
                s.close()
        right_after = measure(flapd.pid)
        time.sleep(25)
        rss, fds = measure(flapd.pid)
        print(f"{arguments.streams} event streams opened and closed: {right_after[1]} descriptors right after, "
              f"{fds} after 25 s; {rss} MiB resident")
    finally:
        flapd.terminate()
        flapd.wait(30)
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
