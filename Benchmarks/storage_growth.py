"""How big flapd's files get and how much it writes, over a million messages.

Starts a release flapd (simulated panel, no sound, no rate limit) with a state directory of its
own and a mosquitto broker beside it, then:

1. single messages: 1 000 POST /v1/messages, one at a time, each after the last was answered,
   and the bytes flapd wrote to storage meanwhile (/proc/PID/io write_bytes: what reaches the
   block layer, the SD card's wear) per message;
2. a burst: N messages from 1 000 senders published over MQTT (QoS 1) as fast as paho-mqtt can,
   with the files' sizes every tenth of the way, and the bytes written per message;
3. a restart with that inbox against a restart with an empty one (exec to "ready" in the log).

Run from the repository, after a release build:
    swift build -c release --static-swift-stdlib --product flapd
    .build/test-venv/bin/python Benchmarks/storage_growth.py --messages 1000000
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import paho.mqtt.client as mqtt

FLAPD = os.path.join(os.path.dirname(__file__), "..", ".build", "release", "flapd")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


class Flapd:
    """A flapd process, its log, and its ports."""

    def __init__(self, state, broker_port):
        self.state = state
        self.api_port = free_port()
        self.log_path = state + ".log"
        self.started = time.monotonic()
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen(
            [FLAPD, "--simulate", "--no-sound", "--rate-limit", "0", "--state-dir", state, "--api-port", str(self.api_port),
             "--https-port", "0", "--local-api-port", "0", "--api-key", "bench", "--mqtt", f"mqtt://127.0.0.1:{broker_port}", "--device-id", "bench"],
            stdout=subprocess.DEVNULL, stderr=self.log)

    def text(self):
        with open(self.log_path) as log:
            return log.read()

    def ready_seconds(self):
        """Seconds from exec until the log says ready (what systemd's READY=1 follows)."""
        wait_for(lambda: "INFO ready" in self.text(), 120, "flapd to be ready")
        return time.monotonic() - self.started

    def request(self, method, path, body=None):
        request = urllib.request.Request(f"http://127.0.0.1:{self.api_port}{path}", method=method, data=body,
                                         headers={"Authorization": "Bearer bench", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def written(self):
        with open(f"/proc/{self.process.pid}/io") as io:
            return int(next(line for line in io if line.startswith("write_bytes:")).split()[1])

    def committed(self):
        """Messages committed since start, by the Prometheus counter (receipts are pruned, the counter is not)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.api_port}/metrics", timeout=30) as answer:
            text = answer.read().decode()
        return sum(int(float(line.rsplit(" ", 1)[1])) for line in text.splitlines() if line.startswith("flapd_messages_accepted_total"))

    def stop(self):
        self.process.terminate()
        self.process.wait(30)
        self.log.close()


def sizes(state):
    def size(name):
        path = os.path.join(state, name)
        return os.path.getsize(path) if os.path.exists(path) else 0
    return {name: size(name) for name in ("inbox.sqlite", "inbox.sqlite-wal")}


def mib(count):
    return f"{count / 1048576:.1f} MiB"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--senders", type=int, default=1000)
    parser.add_argument("--keep", action="store_true", help="keep the state directory (its path is printed)")
    arguments = parser.parse_args()
    work = tempfile.mkdtemp(prefix="flapd-growth-")
    broker_port = free_port()
    broker_dir = os.path.join(work, "broker")
    os.makedirs(broker_dir)
    with open(os.path.join(broker_dir, "mosquitto.conf"), "w") as conf:
        conf.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\nmax_inflight_messages 0\n")
    broker = subprocess.Popen(["mosquitto", "-c", os.path.join(broker_dir, "mosquitto.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    state = os.path.join(work, "state")
    os.makedirs(state)
    try:
        first = Flapd(state, broker_port)
        first.ready_seconds()
        first.stop()
        flapd = Flapd(state, broker_port)
        empty_start = flapd.ready_seconds()
        wait_for(lambda: "connected to the MQTT broker" in flapd.text(), 30, "MQTT")

        # 1. Single messages.
        before = flapd.written()
        for index in range(1000):
            status, _ = flapd.request("POST", "/v1/messages", json.dumps(
                {"id": f"single-{index}", "sender": {"id": f"s{index % arguments.senders}"}, "text": f"SINGLE {index}"}).encode())
            assert status in (200, 202), status
        single = (flapd.written() - before) / 1000
        print(f"single messages: {single:,.0f} bytes written a message (1 000, one at a time)", flush=True)

        # 2. The burst over MQTT.
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="growth-bench", protocol=mqtt.MQTTv311)
        client.max_inflight_messages_set(1000)
        client.max_queued_messages_set(0)
        client.connect("127.0.0.1", broker_port)
        client.loop_start()
        before = flapd.written()
        started = time.monotonic()
        step = max(1, arguments.messages // 10)
        for index in range(arguments.messages):
            payload = json.dumps({"id": f"b{index}", "sender": {"id": f"s{index % arguments.senders}"}, "text": f"BURST {index}"})
            info = client.publish("vestawidget/bench/message", payload, qos=1)
            if index % 5000 == 4999:
                info.wait_for_publish(60)
            if (index + 1) % step == 0:
                wait_for(lambda: flapd.committed() >= 1000 + index + 1 - 20_000, 600, "flapd to catch up")
                files = sizes(state)
                print(f"  {index + 1:>9,} sent: inbox {mib(files['inbox.sqlite'])}, WAL {mib(files['inbox.sqlite-wal'])}, "
                      f"written {mib(flapd.written() - before)}", flush=True)
        wait_for(lambda: flapd.committed() >= 1000 + arguments.messages, 900, "every message")
        elapsed = time.monotonic() - started
        burst = (flapd.written() - before) / arguments.messages
        client.loop_stop()
        time.sleep(2)
        files = sizes(state)
        _, status = flapd.request("GET", "/v1/status")
        print(f"burst: {arguments.messages:,} messages from {arguments.senders} senders in {elapsed:.0f} s "
              f"({arguments.messages / elapsed:,.0f}/s), {burst:,.0f} bytes written a message", flush=True)
        print(f"after: inbox {mib(files['inbox.sqlite'])}, WAL {mib(files['inbox.sqlite-wal'])}, receipts kept {status.get('receipts')}")
        flapd.stop()

        # 3. Restarts: the full inbox against an empty one.
        full = Flapd(state, broker_port)
        full_start = full.ready_seconds()
        full.stop()
        print(f"restart to ready: {full_start * 1000:.0f} ms with this inbox, {empty_start * 1000:.0f} ms with an empty one")
    finally:
        broker.terminate()
        if arguments.keep:
            print(f"state directory kept: {state}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
