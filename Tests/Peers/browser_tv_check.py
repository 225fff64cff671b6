"""The board on a TV (/tv) in a real headless Chromium at 1920x1080, opened with the viewer key in
the address's fragment: it fills the screen, each cell reaches its letter when the panel's plan
lands it (never before), the plan being read by this script from the same live stream, and the
view reconnects by itself after flapd restarts. A screenshot goes to SHOTS.

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
flapd = Flapd(flapd_path, state, key).start()
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


try:
    page.set_window_size(1920, 1080)
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": False})
    page.get(f"{flapd.base}/tv#key={viewer}")
    wait(lambda: page.find_elements(By.CSS_SELECTOR, ".tv-board .cell"), 20)
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
    ready.wait(20)
    flapd.post({"text": "HELLO TV", "sender": {"id": "kitchen"}})
    wait(lambda: seen, 30)
    plan = seen[-1]
    done_at = plan["startedAt"] + plan["duration"]
    wait(lambda: page.execute_script("return Date.now()") > done_at + 500, 60)
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
    out["landedEarly"] = early
    out["landedWrong"] = wrong
    out["lateMilliseconds"] = {"median": statistics.median(late) if late else None, "max": max(late) if late else None}
    out["text"] = page.execute_script("return document.querySelector('.tv-board .board').getAttribute('aria-label')")
    page.save_screenshot(os.path.join(shots, "tv.png"))
    stop.set()

    # flapd restarts: the TV says it is reconnecting, then shows what was sent after.
    flapd.stop()
    out["reconnecting"] = wait(lambda: "Reconnecting" in page.find_element(By.ID, "state").text, 20)
    flapd.start()
    flapd.post({"text": "BACK AGAIN", "sender": {"id": "kitchen"}})
    out["afterRestart"] = wait(lambda: "BACK AGAIN" in (page.execute_script("return document.querySelector('.tv-board .board').getAttribute('aria-label')") or ""), 60)
    out["stateAfter"] = page.find_element(By.ID, "state").text
    out["consoleErrors"] = [e for e in console_errors(page) if "events" not in e and "Failed to load resource" not in e]
finally:
    page.quit()
    flapd.stop()
print(json.dumps(out))
