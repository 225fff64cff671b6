"""flapd's direct-drive stepper panel on a real Linux kernel's GPIO: run inside the virtual machine
of scripts/test-gpio-kernel, as root, in the host's files (read-only) with the machine's own
/proc, /sys, /dev and /tmp.

It makes a gpio-sim chip through configfs (ten lines: two modules' IN1-IN4, then their two hall
sensors), starts flapd on it with the libgpiod it is told to use, and follows every value flapd
sets through the kernel's gpio_value trace event (a 28BYJ-48 steps every 1.6 ms: reading values
back from sysfs could not keep up; the trace records each one the kernel was asked for). The
sensors are driven through gpio-sim's sysfs `pull`: each module steps while looking for home until
its sensor is pulled low, and must stop its calibrated offset after that edge. Then a message: the
coils must step exactly the steps the plan's paths need, each step the next phase of the
two-phase sequence.

Usage: gpio_kernel_check.py REPO OUT API where API is 1 or 2 (the libgpiod flapd must report).
Writes OUT/result-API.json; exits 0 when every check held.
"""
import http.client
import json
import os
import subprocess
import sys
import threading
import time

REPO, OUT, API = sys.argv[1], sys.argv[2], int(sys.argv[3])
CONFIGFS = "/sys/kernel/config/gpio-sim/flapd"
TRACING = "/sys/kernel/tracing"
PORT, KEY = 8080, "gpio-kernel-key"
# The 28BYJ-48's full steps a turn and the chainlink52 drum's flaps (flapd's StepperProfile):
# flap f shows from step ceil(f * 2048 / 52) of a turn.
STEPS_PER_TURN, FLAPS = 2048, 52
# Two-phase full steps, bits IN1..IN4 (StepperModule.coilPatterns).
PHASES = [0b1100, 0b0110, 0b0011, 0b1001]
OFFSETS = [60, 80]  # each module's calibration: steps from the sensor's edge to flap 0
COILS = [[0, 1, 2, 3], [4, 5, 6, 7]]
SENSORS = [8, 9]

started = time.monotonic()
checks = []
facts = {"api": API}


def check(name, ok, detail=""):
    checks.append({"check": name, "ok": bool(ok), "detail": detail})
    print(f"{'ok  ' if ok else 'FAIL'} {name} {detail}", flush=True)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read().strip()


def finish():
    facts["seconds"] = round(time.monotonic() - started, 1)
    result = {"checks": checks, "facts": facts, "passed": bool(checks) and all(c["ok"] for c in checks)}
    write(os.path.join(OUT, f"result-{API}.json"), json.dumps(result, indent=1))
    sys.exit(0 if result["passed"] else 1)


class Trace:
    """Every gpio_value the kernel was asked to set, and the test's own markers, in order."""

    def __init__(self, base):
        self.base = base
        self.events = []  # ("set", offset, value) or ("mark", text)
        self.lock = threading.Lock()
        threading.Thread(target=self.follow, daemon=True).start()

    def follow(self):
        with open(f"{TRACING}/trace_pipe") as pipe:
            for line in pipe:
                if "gpio_value:" in line:
                    gpio, kind, value = line.split("gpio_value:")[1].split()
                    if kind == "set":
                        with self.lock:
                            self.events.append(("set", int(gpio) - self.base, int(value)))
                elif "tracing_mark_write:" in line:
                    with self.lock:
                        self.events.append(("mark", line.split("tracing_mark_write:")[1].strip()))

    def mark(self, text):
        write(f"{TRACING}/trace_marker", text)

    def steps(self):
        """Each module's coil patterns as set, one per change, with the markers between."""
        with self.lock:
            events = list(self.events)
        levels = [0] * 8
        shown = [0, 0]
        out = [[], []]
        batch = []

        def settle():
            for m in range(2):
                pattern = sum(levels[COILS[m][b]] << (3 - b) for b in range(4))
                if pattern != shown[m]:
                    shown[m] = pattern
                    out[m].append(pattern)
            batch.clear()

        for event in events:
            if event[0] == "mark":
                settle()
                out[0].append(event[1])
                out[1].append(event[1])
                continue
            _, offset, value = event
            # One set call traces its lines in offset order: a lower offset starts the next call.
            if batch and offset <= batch[-1]:
                settle()
            if 0 <= offset < 8:
                levels[offset] = value
                batch.append(offset)
        settle()
        return out


def count_steps(patterns, after=None, before=None):
    """Steps (non-zero patterns) between two markers, and whether each was the next phase."""
    counting = after is None
    steps, in_order, previous = 0, True, None
    for p in patterns:
        if isinstance(p, str):
            if p == after:
                counting = True
            if p == before:
                break
            continue
        if p == 0:
            continue
        if previous is not None and PHASES[(PHASES.index(previous) + 1) % 4] != p:
            in_order = False
        previous = p
        if counting:
            steps += 1
    return steps, in_order


def api(method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
    connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = connection.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else None)


def wait(what, condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.02)
    check(f"waiting for {what}", False, f"not within {seconds} s")
    return False


def still(module, trace, seconds=1.0):
    """Whether the module's coils stay as they are for `seconds`."""
    before = len([p for p in trace.steps()[module] if not isinstance(p, str)])
    time.sleep(seconds)
    return len([p for p in trace.steps()[module] if not isinstance(p, str)]) == before


def main():
    # The chip: ten lines, named as a board would be wired.
    os.makedirs(f"{CONFIGFS}/bank0")
    write(f"{CONFIGFS}/bank0/num_lines", "10")
    for offset, name in enumerate(["m1-in1", "m1-in2", "m1-in3", "m1-in4", "m2-in1", "m2-in2", "m2-in3", "m2-in4", "m1-hall", "m2-hall"]):
        os.makedirs(f"{CONFIGFS}/bank0/line{offset}")
        write(f"{CONFIGFS}/bank0/line{offset}/name", name)
    write(f"{CONFIGFS}/live", "1")
    chip, device = read(f"{CONFIGFS}/bank0/chip_name"), read(f"{CONFIGFS}/dev_name")
    sim = f"/sys/devices/platform/{device}/{chip}"
    base = next(int(read(f"/sys/class/gpio/{c}/base")) for c in os.listdir("/sys/class/gpio")
                if c.startswith("gpiochip") and read(f"/sys/class/gpio/{c}/label").startswith(device))
    facts["chip"] = chip
    # A3144 hall sensors read low at the magnet: away from it, pulled up.
    for line in SENSORS:
        write(f"{sim}/sim_gpio{line}/pull", "pull-up")

    write(f"{TRACING}/tracing_on", "0")
    write(f"{TRACING}/buffer_size_kb", "16384")
    write(f"{TRACING}/events/gpio/gpio_value/filter", "get == 0")
    write(f"{TRACING}/events/gpio/gpio_value/enable", "1")
    write(f"{TRACING}/trace", "")
    write(f"{TRACING}/tracing_on", "1")
    trace = Trace(base)

    state = "/tmp/flapd-state"
    os.makedirs(state, exist_ok=True)
    write(f"{state}/calibration-wall.json", json.dumps({"offsets": OFFSETS}))
    write("/tmp/flapd.toml", f"""[[panel]]
id = "wall"
driver = "gpio"
device = "{chip}"
drum = "chainlink52"
pins = [[0, 1, 2, 3, 8], [4, 5, 6, 7, 9]]
""")
    environment = dict(os.environ, HOME="/tmp")
    libgpiod3 = os.path.join(REPO, ".build/libgpiod3")
    if API == 2 and os.path.isdir(libgpiod3):
        environment["LD_LIBRARY_PATH"] = libgpiod3
    else:
        environment.pop("LD_LIBRARY_PATH", None)
    log = open("/tmp/flapd.log", "w")
    flapd = subprocess.Popen(
        [os.path.join(REPO, ".build/debug/flapd"), "--config", "/tmp/flapd.toml", "--state-dir", state, "--no-sound",
         "--api-port", str(PORT), "--https-port", "0", "--local-api-port", "0", "--api-key", KEY],
        stdout=log, stderr=subprocess.STDOUT, env=environment)
    try:
        run(flapd, trace, sim)
    finally:
        flapd.terminate()
        try:
            flapd.wait(30)
        except subprocess.TimeoutExpired:
            flapd.kill()
        log.close()
        facts["flapdLog"] = open("/tmp/flapd.log").read()[-4000:]


def run(flapd, trace, sim):
    # Both modules look for home at start; each sensor is pulled low once it has turned a while.
    for module, after in [(0, 150), (1, 300)]:
        if not wait(f"module {module + 1} looking for home", lambda: count_steps(trace.steps()[module])[0] >= after, 240):
            return
        # Marked on both sides: the module may read the edge, and step, before the second mark.
        trace.mark(f"pulling-{module}")
        write(f"{sim}/sim_gpio{SENSORS[module]}/pull", "pull-down")
        trace.mark(f"pulled-{module}")
    for module in range(2):
        if not wait(f"module {module + 1} at rest after homing", lambda: still(module, trace), 60):
            return
        patterns = trace.steps()[module]
        homing, in_order = count_steps(patterns, before=f"pulling-{module}")
        from_before, _ = count_steps(patterns, after=f"pulling-{module}")
        from_after, _ = count_steps(patterns, after=f"pulled-{module}")
        facts[f"module{module + 1}HomingSteps"] = homing
        check(f"module {module + 1} looked for home until its sensor's edge", homing >= [150, 300][module] and in_order, f"{homing} steps")
        # From the tick that reads the edge the module turns its offset and stops (that tick's
        # own step included). A tick steps on the sensor read by the exchange before it, so one
        # search step may follow the pull; none may be missing from just before it.
        offset = OFFSETS[module]
        check(f"module {module + 1} stopped at flap 0, its offset past the edge", from_after <= offset + 1 and from_before >= offset,
              f"{from_before} steps from just before the pull, {from_after} from just after; offset {offset}")
    # The magnet passes.
    for module in range(2):
        write(f"{sim}/sim_gpio{SENSORS[module]}/pull", "pull-up")

    status, answer = api("GET", "/v1/status")
    panel = (answer or {}).get("panels", [{}])[0]
    library = panel.get("library") or ""
    facts["library"] = library
    check("flapd drives the chip through the libgpiod asked for", library.startswith(f"libgpiod {API}."), library)
    check("no module reports a fault", panel.get("faults") == [], json.dumps(panel.get("faults")))

    plans = []
    threading.Thread(target=follow_plans, args=(plans,), daemon=True).start()
    time.sleep(1)
    trace.mark("message")
    status, _ = api("POST", "/v1/messages", {"id": "kernel", "text": "AZ"})
    check("the message was taken", status == 202, str(status))
    if not wait("the board at rest on the message", lambda: board_shows("kernel"), 120):
        return
    for module in range(2):
        wait(f"module {module + 1} still", lambda: still(module, trace, 0.5), 30)
    plan = plans[-1] if plans else None
    check("the plan was seen on /v1/events", plan is not None)
    if plan is None:
        return
    for module in range(2):
        path = plan["modules"][module]["path"]
        target = len(path) - 1  # from flap 0, one landing a flap
        expected = -(-target * STEPS_PER_TURN // FLAPS)
        steps, in_order = count_steps(trace.steps()[module], after="message")
        facts[f"module{module + 1}Steps"] = {"planned": expected, "kernel": steps}
        check(f"module {module + 1}'s coils stepped the plan's steps", steps == expected, f"kernel {steps}, plan {expected} ({target} flaps)")
        check(f"module {module + 1}'s every step was the next phase", in_order)
    facts["planDurationMs"] = plan.get("duration")


def board_shows(message):
    _, answer = api("GET", "/v1/board")
    panel = answer["panels"][0]
    return panel.get("message") == message and not panel.get("moving")


def follow_plans(plans):
    connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=300)
    connection.request("GET", "/v1/events", headers={"Authorization": f"Bearer {KEY}", "Accept": "text/event-stream"})
    response = connection.getresponse()
    event = None
    while True:
        line = response.readline().decode().rstrip("\n")
        if not line and response.isclosed():
            return
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:") and event == "plan":
            plans.append(json.loads(line[5:]))


if __name__ == "__main__":
    try:
        if not wait("the kernel's tracing", lambda: os.path.exists(f"{TRACING}/events/gpio/gpio_value"), 5):
            finish()
        main()
    except Exception as error:  # every failure ends in the result file, which the host reads
        check("the check ran to its end", False, repr(error))
    finish()
