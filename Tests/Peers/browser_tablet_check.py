"""A tablet as a panel of its own (`[[panel]] driver = "browser"`, `model = "note"`): the page's
TV links name each panel; the tablet's link, opened in a headless Chromium at a tablet's
1024x768, shows a 3x15 board that flips to the message; its plans carry the board's volume for
the tablet to play, while flapd plays no clack of its own for a browser panel. The other panel
("tv") is in its quiet hours: its view is dimmed, the tablet's is not. Screenshots go to SHOTS.

Usage: browser_tablet_check.py BASE API_KEY SHOTS
Prints what it saw as JSON.
"""
import json
import os
import sys
import threading
import urllib.request

from selenium.webdriver.common.by import By

from browser_support import browser, console_errors, wait

base, key, shots = sys.argv[1], sys.argv[2], sys.argv[3]
out = {}


def call(method, path, body=None, token=key):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None, method=method,
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read() or b"{}")


def plans(viewer, into, ready):
    """The tablet panel's plan events, read with the viewer key as the tablet reads them."""
    request = urllib.request.Request(base + "/v1/events", headers={"Authorization": f"Bearer {viewer}"})
    with urllib.request.urlopen(request, timeout=120) as stream:
        name = None
        for raw in stream:
            ready.set()
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: ") and name == "plan":
                event = json.loads(line[6:])
                if event["panel"] == "tablet":
                    into.append(event)


links = call("GET", "/v1/viewer")
out["links"] = [(each["panel"], each["driver"], each["url"].split("#")[0]) for each in links["panels"]]
link = next(each["url"] for each in links["panels"] if each["panel"] == "tablet")
viewer = link.split("#key=")[1]
# The link names the board as the household reaches it (HOSTNAME.local here); this machine
# reaches it on loopback, on the same port.
out["linkPort"] = link.split("://")[1].split("/")[0].rsplit(":", 1)[1]
tablet = base + link[link.index("/tv"):]
page = browser()
try:
    page.set_window_size(1024, 768)
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1024, "height": 768, "deviceScaleFactor": 1, "mobile": False})
    page.get(tablet)
    wait(lambda: page.find_elements(By.CSS_SELECTOR, ".tv-board .cell"))
    out["cells"] = len(page.find_elements(By.CSS_SELECTOR, ".tv-board .cell"))
    out["boardSize"] = page.execute_script("const r = document.querySelector('.tv-board .board').getBoundingClientRect(); return [r.width, r.height];")
    out["scrolls"] = page.execute_script("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    seen, ready = [], threading.Event()
    threading.Thread(target=plans, args=(viewer, seen, ready), daemon=True).start()
    ready.wait(120)
    call("POST", "/v1/messages", {"text": "HI TABLET", "sender": {"id": "kitchen"}})
    wait(lambda: seen)
    out["planVolume"] = seen[-1].get("volume")
    out["planSize"] = [seen[-1]["rows"], seen[-1]["columns"]]
    # While the tablet's panel moves, flapd's own speaker is not playing it.
    wait(lambda: any(p["id"] == "tablet" and p["moving"] for p in call("GET", "/v1/board")["panels"]))
    out["soundWhileMoving"] = call("GET", "/v1/sound")["state"]
    out["shown"] = wait(lambda: "HI TABLET" in (page.execute_script(
        "return document.querySelector('.tv-board .board').getAttribute('aria-label')") or ""), 60)
    page.save_screenshot(os.path.join(shots, "tv-tablet-note.png"))
    out["tabletDimmed"] = page.execute_script("return document.body.classList.contains('quiet')")
    page.get(base + f"/tv#key={viewer}")
    out["tvDimmed"] = wait(lambda: page.execute_script("return document.body.classList.contains('quiet')"))
    # The dimming fades in over 2 s: the picture once it has.
    wait(lambda: page.execute_script("return getComputedStyle(document.querySelector('.tv-board')).filter") == "brightness(0.3)")
    page.save_screenshot(os.path.join(shots, "tv-quiet-hours.png"))
    out["consoleErrors"] = console_errors(page)
finally:
    page.quit()
print(json.dumps(out))
