"""The board on a TV (/tv) in a real headless Chromium at 1920x1080, opened with the viewer key in
the address's fragment: it fills the screen, each cell reaches its letter when the panel's plan
lands it (never before), the plan being read by this script from the same live stream, and the
view reconnects by itself after flapd restarts. With sound allowed by a tap, every landing still to
come when the plan reaches the page is scheduled with Web Audio at its landing time, with the board's
sample, its gain and the board's volume; muted on the board, the TV schedules nothing. Web Audio's
own `start` and `connect` are watched (wrapped before the page loads) to see what was scheduled.
A screenshot goes to SHOTS.

Usage: browser_tv_check.py FLAPD STATE_DIR API_KEY SHOTS
Starts and stops flapd itself; prints what it saw as JSON.
"""
import json
import os
import statistics
import sys
import threading
import urllib.request

from selenium.webdriver.common.by import By

from browser_support import Flapd, browser, console_errors, wait

flapd_path, state, key, shots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
# The ALSA `null` device: flapd plays its clacks into nothing, so they are on and at its volume.
flapd = Flapd(flapd_path, state, key, sound_device="null").start()
viewer = open(os.path.join(state, "viewer-key")).read().strip()
out = {}
page = browser()


def plans(into, ready, stop):
    """Every plan event of the live stream, read with the viewer key, as the TV reads it."""
    request = urllib.request.Request(flapd.base + "/v1/events", headers={"Authorization": f"Bearer {viewer}"})
    with urllib.request.urlopen(request, timeout=120) as stream:
        name = None
        for raw in stream:
            ready.set()
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name == "plan":
                into.append(json.loads(line[6:]))
            if stop.is_set():
                return


# Runs in the page before its own scripts: each clack the page schedules, when it will be heard (by
# the audio output's own timestamp, else the audio clock), its gain, and the buffer's length.
WATCH_AUDIO = """
window.scheduledClacks = [];
const connect = AudioNode.prototype.connect;
AudioNode.prototype.connect = function (target, ...rest) {
  if (this instanceof AudioBufferSourceNode && target instanceof GainNode) this.watchedGain = target;
  return connect.call(this, target, ...rest);
};
const start = AudioBufferSourceNode.prototype.start;
AudioBufferSourceNode.prototype.start = function (when = 0, ...rest) {
  const context = this.context, stamp = context.getOutputTimestamp();
  const wallOfPerformanceZero = Date.now() - performance.now();
  const heard = stamp.performanceTime > 0
    ? wallOfPerformanceZero + stamp.performanceTime + (when - stamp.contextTime) * 1000
    : Date.now() + (when - context.currentTime) * 1000;
  window.scheduledClacks.push({ heard, scheduledAt: Date.now(), gain: this.watchedGain ? this.watchedGain.gain.value : null,
    seconds: this.buffer.length / this.buffer.sampleRate });
  return start.call(this, when, ...rest);
};
"""


def clacks_against(plan, scheduled):
    """Each landing of `plan` against what the page scheduled. The landings still to come when the
    page began scheduling (those before had landed before the plan reached it) must each have a
    clack heard at its time with the plan's gain times its volume; no clack may be where no flap
    lands."""
    if not scheduled:
        return {"scheduled": 0}
    arrived = min(c["scheduledAt"] for c in scheduled)
    landings = [(plan["startedAt"] + at, module["gains"][k] * plan["volume"]) for module in plan["modules"] for k, at in enumerate(module["landings"])]

    def nearest(at, among):
        return min((abs(c[0] - at), c) for c in among)

    clacks = [(c["heard"], c["gain"]) for c in scheduled]
    to_come = [landing for landing in landings if landing[0] >= arrived + 1]
    apart, gains_wrong = [], 0
    for at, gain in to_come:
        # The nearest clack with this gain (two modules can land at the same instant).
        distance, _ = nearest(at, [c for c in clacks if abs(c[1] - gain) <= 0.002] or clacks)
        apart.append(distance)
        gains_wrong += not any(abs(c[0] - at) <= 2 and abs(c[1] - gain) <= 0.002 for c in clacks)
    extra = sum(1 for heard, _ in clacks if nearest(heard, landings)[0] > 2)
    return {"landings": len(landings), "toCome": len(to_come), "scheduled": len(scheduled), "extra": extra,
            "apartMax": max(apart) if apart else None, "gainsWrong": gains_wrong,
            "sampleSeconds": sorted({round(c["seconds"], 3) for c in scheduled})}


try:
    page.set_window_size(1920, 1080)
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
    page.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH_AUDIO})
    page.get(f"{flapd.base}/tv#key={viewer}")
    wait(lambda: page.find_elements(By.CSS_SELECTOR, ".tv-board .cell"))
    out["soundBefore"] = page.find_element(By.ID, "sound").text
    page.find_element(By.ID, "sound").click()
    wait(lambda: "Sound on" in page.find_element(By.ID, "sound").text)
    out["soundAfter"] = page.find_element(By.ID, "sound").text
    out["cells"] = len(page.find_elements(By.CSS_SELECTOR, ".tv-board .cell"))
    box = page.execute_script("const r = document.querySelector('.tv-board .board').getBoundingClientRect(); return [r.width, r.height];")
    out["boardSize"] = box
    out["scrolls"] = page.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    # Each cell's moments of change, by the page's clock (the same machine's as flapd's here).
    page.execute_script("""window.changes = [];
        const cells = [...document.querySelectorAll('.tv-board .cell')];
        new MutationObserver((records) => { const now = Date.now();
          for (const r of records) window.changes.push([cells.indexOf(r.target), Number(r.target.dataset.code), now]); })
          .observe(document.querySelector('.tv-board .board'), { subtree: true, attributes: true, attributeFilter: ['data-code'] });""")
    seen, ready, stop = [], threading.Event(), threading.Event()
    threading.Thread(target=plans, args=(seen, ready, stop), daemon=True).start()
    ready.wait(120)
    flapd.post({"text": "HELLO TV", "sender": {"id": "kitchen"}})
    wait(lambda: seen)
    plan = seen[-1]
    done_at = plan["startedAt"] + plan["duration"]
    wait(lambda: page.execute_script("return Date.now()") > done_at + 500)
    changes = page.execute_script("return window.changes")
    early, late, wrong = [], [], []
    for index, module in enumerate(plan["modules"]):
        if not module["landings"]:
            continue
        final, lands = module["path"][-1], plan["startedAt"] + module["landings"][-1]
        reached = [at for cell, code, at in changes if cell == index and code == final]
        if not reached:
            wrong.append(index)
            continue
        (early if reached[-1] < lands - 20 else late).append(reached[-1] - lands)
    out["modulesMoved"] = sum(1 for m in plan["modules"] if m["landings"])
    out["planVolume"] = plan.get("volume")
    out["sound"] = clacks_against(plan, page.execute_script("return window.scheduledClacks"))
    out["landedEarly"] = early
    out["landedWrong"] = wrong
    out["lateMilliseconds"] = {"median": statistics.median(late) if late else None, "max": max(late) if late else None}
    out["text"] = page.execute_script("return document.querySelector('.tv-board .board').getAttribute('aria-label')")
    page.save_screenshot(os.path.join(shots, "tv.png"))

    # Muted on the board: the next plan says so, and the TV schedules nothing for it.
    flapd.request("PATCH", "/v1/sound", {"mute": True})
    page.execute_script("window.scheduledClacks = []")
    count = len(seen)
    flapd.post({"text": "SHH", "sender": {"id": "kitchen"}})
    wait(lambda: len(seen) > count)
    muted = seen[-1]
    wait(lambda: page.execute_script("return Date.now()") > muted["startedAt"] + muted["duration"] + 500)
    out["mutedPlanVolume"] = muted.get("volume", "absent")
    out["mutedScheduled"] = len(page.execute_script("return window.scheduledClacks"))
    out["mutedLabel"] = page.execute_script("return document.getElementById('sound').textContent")
    stop.set()

    # flapd restarts: the TV says it is reconnecting, then shows what was sent after.
    flapd.stop()
    out["reconnecting"] = wait(lambda: "Reconnecting" in page.find_element(By.ID, "state").text)
    flapd.start()
    flapd.post({"text": "BACK AGAIN", "sender": {"id": "kitchen"}})
    out["afterRestart"] = wait(lambda: "BACK AGAIN" in (page.execute_script("return document.querySelector('.tv-board .board').getAttribute('aria-label')") or ""))
    out["stateAfter"] = page.find_element(By.ID, "state").text
    out["consoleErrors"] = [e for e in console_errors(page) if "events" not in e and "Failed to load resource" not in e]
finally:
    page.quit()
    flapd.stop()
print(json.dumps(out))
