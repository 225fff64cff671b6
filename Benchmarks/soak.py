"""A long run of a release flapd under the life a wall appliance has, sampling what could leak.

For --minutes N (30 by default) it keeps going, all on this machine's loopback:
- messages over HTTP (POST /v1/messages, 2 a second, 50 senders) and over MQTT (2 a second);
- 20 web pages' event streams (GET /v1/events), each open 5 to 40 s, then closed and opened again;
- the MQTT broker restarted every 5 minutes (its persistence keeps flapd's session);
- the fake Vestaboard (Tests/Peers/fake_vestaboard.py) that flapd writes to as a second panel
  going away for 40 s every 7 minutes, and coming back;
- two heart-rate straps (serial pulse sensors on pseudo-terminals) in a Wematch room, one of them
  falling silent for 30 s every 3 minutes (its wearer walks away) and coming back;
and every minute it samples flapd's resident memory (VmRSS), private dirty memory
(smaps_rollup), open descriptors, threads, and the state directory's file sizes. At the end it
prints the samples and, after the first 5 minutes (warm-up), each one's slope per hour by least
squares.

    swift build -c release --static-swift-stdlib --product flapd
    .build/test-venv/bin/python Benchmarks/soak.py --minutes 60

With --heaptrack FILE, flapd runs under heaptrack (its own LD_PRELOAD, no debugger attached):
`heaptrack_print -f FILE.zst -l 1` lists what was allocated and not freed, by call stack; two
runs of different lengths, each killed (kill -9) rather than stopped, compared with
`heaptrack_print -f LONGER.zst -d SHORTER.zst`, show what grows.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt

HERE = os.path.dirname(os.path.abspath(__file__))
FLAPD = os.path.join(HERE, "..", ".build", "release", "flapd")
FAKE_VESTABOARD = os.path.join(HERE, "..", "Tests", "Peers", "fake_vestaboard.py")
stopping = threading.Event()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def every(seconds, action):
    """Runs `action` every `seconds` until the soak ends, in a thread of its own."""
    def loop():
        while not stopping.wait(seconds):
            try:
                action()
            except Exception as error:  # a peer's hiccup must not end the soak; it is counted
                problems.append(f"{action.__name__}: {error}")
    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    return thread


problems = []


class Broker:
    def __init__(self, work):
        self.port = free_port()
        self.conf = os.path.join(work, "mosquitto.conf")
        with open(self.conf, "w") as conf:
            conf.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence true\n"
                       f"persistence_location {work}/\nmax_queued_messages 0\n")
        self.start()

    def start(self):
        self.process = subprocess.Popen(["mosquitto", "-c", self.conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.3)

    def restart(self):
        self.process.terminate()
        self.process.wait(10)
        self.start()

    def stop(self):
        self.process.terminate()


class FakeBoard:
    def __init__(self, work):
        self.work = work
        self.port = free_port()
        self.start()

    def start(self):
        self.process = subprocess.Popen([sys.executable, FAKE_VESTABOARD, "--port", str(self.port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def away_and_back(self):
        self.process.terminate()
        self.process.wait(10)
        if not stopping.wait(40):
            self.start()

    def stop(self):
        self.process.terminate()


class Strap:
    """A serial pulse sensor on a pseudo-terminal; `leave` silences it for a while."""

    def __init__(self, bpm):
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        self.slave = slave
        self.bpm = bpm
        self.silent_until = 0
        threading.Thread(target=self.beat, daemon=True).start()

    def beat(self):
        while not stopping.wait(1):
            if time.monotonic() >= self.silent_until:
                os.write(self.master, f"HR:{self.bpm + random.randint(-2, 2)}\r\n".encode())

    def leave(self):
        self.silent_until = time.monotonic() + 30


def sample(pid, state):
    def status(key):
        with open(f"/proc/{pid}/status") as f:
            return int(next(line for line in f if line.startswith(key + ":")).split()[1])
    with open(f"/proc/{pid}/smaps_rollup") as f:
        dirty = sum(int(line.split()[1]) for line in f if line.startswith("Private_Dirty:"))
    files = {name: os.path.getsize(os.path.join(state, name)) for name in sorted(os.listdir(state))
             if name.endswith((".sqlite", ".sqlite-wal"))}
    return {"rss_kib": status("VmRSS"), "private_dirty_kib": dirty, "fds": len(os.listdir(f"/proc/{pid}/fd")),
            "threads": status("Threads"), "files_kib": sum(files.values()) // 1024}


def flapd_pid(started):
    """The pid of flapd itself: `started`, or its descendant when a profiler wraps it."""
    for _ in range(100):
        pending = [started]
        while pending:
            pid = pending.pop()
            try:
                if os.path.basename(os.readlink(f"/proc/{pid}/exe")) == "flapd":
                    return pid
                with open(f"/proc/{pid}/task/{pid}/children") as f:
                    pending += [int(child) for child in f.read().split()]
            except OSError:
                pass
        time.sleep(0.1)
    raise SystemExit("flapd did not start")


def slope_per_hour(points):
    """Least-squares slope of (minute, value) points, per hour."""
    n = len(points)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return 60 * sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--heaptrack", metavar="FILE",
                        help="run flapd under heaptrack, writing FILE (.zst); read the growth with "
                             "heaptrack_print --print-massif")
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flapd-soak-")
    state = os.path.join(work, "state")
    os.makedirs(state)
    broker = Broker(work)
    board = FakeBoard(work)
    straps = [Strap(72), Strap(74)]
    with open(os.path.join(work, "board-key"), "w") as key:
        key.write("local-key\n")
    config = os.path.join(work, "flapd.toml")
    with open(config, "w") as f:
        f.write(f"""state_dir = "{state}"
[api]
port = {free_port()}
key = "soak"
[local_api]
port = 0
[messages]
rate_limit = 0
[sound]
enabled = false
[mqtt]
url = "mqtt://127.0.0.1:{broker.port}"
device_id = "soak"
[room]
name = "soak"
[[panel]]
id = "main"
driver = "simulated"
show = "none"
[[panel]]
id = "family"
driver = "vestaboard"
api = "local"
url = "http://127.0.0.1:{board.port}"
key_file = "{work}/board-key"
""" + "".join(f"""[[sensor]]
driver = "serial"
device = "{strap.path}"
format = "prefix:HR:"
""" for strap in straps))
    api_port = int(open(config).read().split("port = ")[1].split("\n")[0])
    log = open(os.path.join(work, "flapd.log"), "w")
    command = [FLAPD, "--config", config]
    if arguments.heaptrack:
        command = ["heaptrack", "-o", arguments.heaptrack] + command
    flapd = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    pid = flapd_pid(flapd.pid)
    samples = []
    try:
        base = f"http://127.0.0.1:{api_port}"
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        counter = {"n": 0}

        def post_message():
            counter["n"] += 1
            n = counter["n"]
            body = json.dumps({"id": f"h{n}", "sender": {"id": f"s{n % 50}"}, "text": f"HTTP {n}"}).encode()
            request = urllib.request.Request(base + "/v1/messages", data=body, method="POST",
                                             headers={"Authorization": "Bearer soak", "Content-Type": "application/json"})
            urllib.request.urlopen(request, timeout=10).read()

        publisher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="soak-publisher")
        publisher.connect_async("127.0.0.1", broker.port)
        publisher.loop_start()
        mqtt_counter = {"n": 0}

        def publish_message():
            mqtt_counter["n"] += 1
            n = mqtt_counter["n"]
            publisher.publish("vestawidget/soak/message", json.dumps({"id": f"q{n}", "sender": {"id": f"m{n % 20}"}, "text": f"MQTT {n}"}), qos=1)

        def page():
            while not stopping.is_set():
                connection = http.client.HTTPConnection("127.0.0.1", api_port, timeout=60)
                try:
                    connection.request("GET", "/v1/events", headers={"Authorization": "Bearer soak"})
                    answer = connection.getresponse()
                    until = time.monotonic() + random.uniform(5, 40)
                    while time.monotonic() < until and not stopping.is_set():
                        if not answer.fp.readline():
                            break
                except OSError as error:
                    problems.append(f"page: {error}")
                finally:
                    connection.close()
                stopping.wait(random.uniform(0.5, 3))

        every(0.5, post_message)
        every(0.5, publish_message)
        for _ in range(20):
            threading.Thread(target=page, daemon=True).start()
        every(300, broker.restart)
        every(420, board.away_and_back)
        every(180, straps[0].leave)

        started = time.monotonic()
        minute = 0
        while time.monotonic() - started < arguments.minutes * 60:
            if flapd.poll() is not None:
                raise SystemExit(f"flapd exited with {flapd.returncode}")
            samples.append((minute, sample(pid, state)))
            print(f"minute {minute:3}: " + ", ".join(f"{k} {v}" for k, v in samples[-1][1].items()), flush=True)
            minute += 1
            time.sleep(max(0, started + minute * 60 - time.monotonic()))
        samples.append((minute, sample(pid, state)))
    finally:
        stopping.set()
        os.kill(pid, 15)
        flapd.wait(60)
        broker.stop()
        board.stop()
    warm = [(m, s) for m, s in samples if m >= 5]
    print(f"\nafter {arguments.minutes:g} minutes: {counter['n']} HTTP and {mqtt_counter['n']} MQTT messages; "
          f"{len(problems)} peer hiccups (broker and board restarts make some)")
    for key in samples[0][1]:
        values = [s[key] for _, s in warm]
        if values:
            print(f"{key:>18}: {min(values)} to {max(values)}, slope {slope_per_hour([(m, s[key]) for m, s in warm]):+.1f} an hour")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
