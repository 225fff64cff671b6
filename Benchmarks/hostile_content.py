"""What the worst content from outside costs flapd: CPU time and peak memory of the whole process.

Each case starts a flapd of its own (simulated panel, no sound) under /usr/bin/time -v, hands it
one input, waits until flapd has dealt with it (the source read or refused, the preview answered
or refused) or until --limit seconds have passed, then stops it and reads the CPU time (user +
system) and the largest resident set from time's report. The same run with an ordinary input is
the baseline beside each.

Cases (their inputs are the kept fuzz findings in Fuzz/regressions):
  calendar-10    ten events counted a billion times from the year 1 (count-bomb.ics; calendars are
                 sent with LF line ends, which builds before CRLF support read too)
  calendar-4000  4 000 such events
  feed-nested    an RSS item with elements nested 3 000 deep (nested-3000.rss)
  feed-nested-100k  the same 100 000 deep (700 KB: a release build's smaller frames outlast 3 000)
  vbml-loops     three nested sections over a 280-item prop, through POST /v1/layout

Run from the repository, after a release build (or pass --flapd another one, such as an older
commit's, to compare):
    swift build -c release --static-swift-stdlib --product flapd
    python3 Benchmarks/hostile_content.py [--flapd PATH] [--limit 60] [CASE ...]
"""
import argparse
import http.server
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
REGRESSIONS = os.path.join(ROOT, "Fuzz", "regressions")

ORDINARY_CALENDAR = """BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:bins\r\nSUMMARY:Bins\r\n\
DTSTART:20260105T070000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"""
ORDINARY_FEED = """<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>\
<item><title>Local team wins</title></item></channel></rss>"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def read(name):
    with open(os.path.join(REGRESSIONS, name), "rb") as f:
        return f.read()


def many_bombs(count):
    event = ("BEGIN:VEVENT\r\nUID:bomb-{n}\r\nSUMMARY:Bomb {n}\r\nDTSTART:00010101T000000\r\n"
             "RRULE:FREQ=YEARLY;COUNT=1000000000;BYDAY=MO,TU,WE,TH,FR,SA,SU\r\nEND:VEVENT\r\n")
    return ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + "".join(event.format(n=n) for n in range(count)) + "END:VCALENDAR\r\n").encode()


def deep_feed(depth):
    return ("<rss><channel><title>T</title><item><title>" + "<a>" * depth + "x" + "</a>" * depth +
            "</title></item></channel></rss>").encode()


def lf(body):
    """LF line ends: what flapd read before it read CRLF calendars, so both builds read the same file."""
    return body.replace(b"\r\n", b"\n")


def loops_document():
    template, props = read("mustache/loops").split(b"\x00", 1)
    template, props = template.decode(), props.decode()
    return {"vbml": {"props": json.loads(props), "components": [{"template": template}]}}


def serve(body):
    """A web server answering every GET with `body`, on a free loopback port."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


class Flapd:
    def __init__(self, binary, config):
        self.folder = tempfile.mkdtemp(prefix="hostile-")
        self.port = free_port()
        config_path = os.path.join(self.folder, "flapd.toml")
        with open(config_path, "w") as f:
            f.write(config)
        self.report = os.path.join(self.folder, "time.txt")
        self.log = open(os.path.join(self.folder, "flapd.log"), "w")
        self.process = subprocess.Popen(
            ["/usr/bin/time", "-v", "-o", self.report, binary, "--simulate", "--no-sound", "--config", config_path,
             "--state-dir", os.path.join(self.folder, "state"), "--api-port", str(self.port), "--https-port", "0",
             "--local-api-port", "0", "--api-key", "bench"],
            stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2).read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"flapd did not start: {open(self.log.name).read()[-2000:]}")

    def request(self, method, path, body=None, timeout=5):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": "Bearer bench", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def stop(self):
        """Stops flapd; (exit status, CPU seconds, peak resident MB)."""
        if self.process.poll() is None:
            # /usr/bin/time passes no signal on: stop flapd itself, its only child.
            children = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout.split()
            for child in children:
                os.kill(int(child), 15)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                for child in children:
                    os.kill(int(child), 9)
                self.process.wait(30)
        report = open(self.report).read()
        def field(name):
            return re.search(re.escape(name) + r": (.*)", report).group(1)
        cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
        status = re.search(r"Command terminated by signal (\d+)", report)
        exit = f"signal {status.group(1)}" if status else field("Exit status")
        return exit, cpu, int(field("Maximum resident set size (kbytes)")) / 1024


def source_case(binary, kind, body, limit):
    server = serve(body)
    config = f'[[source]]\nname = "hostile"\nkind = "{kind}"\nurl = "http://127.0.0.1:{server.server_port}/x"\nevery = "1h"\n'
    flapd = Flapd(binary, config)
    started = time.monotonic()
    outcome = f"not done after {limit} s"
    while time.monotonic() - started < limit:
        if flapd.process.poll() is not None:
            outcome = "flapd ended"
            break
        try:
            status, answer = flapd.request("GET", "/v1/sources/hostile")
        except OSError:
            status, answer = 0, {}
        if status == 200 and (answer.get("updated") or answer.get("error") or answer.get("failures")):
            outcome = f"{answer.get('state')} in {time.monotonic() - started:.1f} s" + (f": {answer['error']}" if answer.get("error") else "")
            if answer.get("warnings"):
                outcome += f" ({len(answer['warnings'])} warnings)"
            break
        time.sleep(0.2)
    server.shutdown()
    return outcome, flapd.stop()


def layout_case(binary, document, limit):
    flapd = Flapd(binary, "")
    started = time.monotonic()
    try:
        status, answer = flapd.request("POST", "/v1/layout", document, timeout=limit)
        outcome = f"{status} in {time.monotonic() - started:.1f} s" + (f": {json.dumps(answer)[:100]}" if status != 200 else "")
    except OSError as error:
        outcome = f"no answer in {limit} s ({error})"
    return outcome, flapd.stop()


CASES = {
    "calendar-10": lambda b, l: source_case(b, "calendar", lf(read("calendar/count-bomb.ics")), l),
    "calendar-4000": lambda b, l: source_case(b, "calendar", lf(many_bombs(4000)), l),
    "feed-nested": lambda b, l: source_case(b, "feed", read("feed/nested-3000.rss"), l),
    "feed-nested-100k": lambda b, l: source_case(b, "feed", deep_feed(100_000), l),
    "vbml-loops": lambda b, l: layout_case(b, loops_document(), l),
}
BASELINES = {
    "calendar": lambda b, l: source_case(b, "calendar", lf(ORDINARY_CALENDAR.encode()), l),
    "feed": lambda b, l: source_case(b, "feed", ORDINARY_FEED.encode(), l),
    "vbml": lambda b, l: layout_case(b, {"vbml": {"components": [{"template": "HELLO {{who}}"}], "props": {"who": "SAM"}}}, l),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--flapd", default=os.path.join(ROOT, ".build", "release", "flapd"))
    parser.add_argument("--limit", type=float, default=60, help="seconds a case may take before flapd is stopped")
    parser.add_argument("cases", nargs="*", default=list(CASES))
    arguments = parser.parse_args()
    print(f"{'case':<18} {'outcome':<60} {'exit':<10} {'CPU s':>7} {'peak MB':>8}")
    for name in ["baseline-" + k for k in BASELINES] + arguments.cases:
        run = BASELINES[name[9:]] if name.startswith("baseline-") else CASES[name]
        outcome, (exit, cpu, peak) = run(arguments.flapd, arguments.limit)
        print(f"{name:<18} {outcome[:60]:<60} {exit:<10} {cpu:7.2f} {peak:8.1f}", flush=True)


main()
