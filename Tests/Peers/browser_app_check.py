"""flapd's page as an installed app, in a real headless Chromium: installable (asked through the
DevTools protocol), the widget views at phone size (live, axe-clean), and offline: flapd stopped,
the app reloaded shows the last board with the offline badge, flapd started again, the new board.

Usage: browser_app_check.py FLAPD STATE_DIR API_KEY SCREENSHOT_DIR
Starts and stops flapd itself (FLAPD --simulate with STATE_DIR on a free port) so it can stop and
restart it under the page; prints what it saw as JSON.
"""
import json
import os
import sys
import time

from selenium.webdriver.common.by import By

from browser_support import Flapd, accessibility, board_text, browser, console_errors, sign_in, wait

flapd_path, state, key, shots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
flapd = Flapd(flapd_path, state, key)


def send(text, sender, codes=None):
    flapd.post({"codes": codes, "sender": {"id": sender}} if codes else {"text": text, "sender": {"id": sender}})


out = {}
flapd.start()
base = flapd.base  # once started: a port taken meanwhile is chosen again
page = browser()
try:
    # Written as people write: the widgets show it as the board does, in capitals.
    send("Good morning", "kitchen")
    # Before signing in, a widget is a placeholder whose link signs in.
    page.get(f"{base}/widget?size=small")
    out["placeholder"] = wait(lambda: page.find_element(By.ID, "placeholder").is_displayed())
    out["placeholderLink"] = page.find_element(By.ID, "open").text
    sign_in(page, base, key)
    wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["signedIn"] = wait(lambda: "GOOD MORNING" in board_text(page))

    # Installable: the service worker controls the page, and Chromium names no installability error.
    out["workerReady"] = wait(lambda: page.execute_script("return !!navigator.serviceWorker.controller"), 20) or \
        (page.refresh() or wait(lambda: page.execute_script("return !!navigator.serviceWorker.controller")))
    def installable():
        out["installabilityErrors"] = page.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
        return not out["installabilityErrors"]
    out["installable"] = wait(installable)
    manifest = page.execute_cdp_cmd("Page.getAppManifest", {})
    out["manifestErrors"] = manifest.get("errors", [])
    out["manifestName"] = json.loads(manifest.get("data") or "{}").get("name")

    # The widget views at phone size, each live.
    page.set_window_size(360, 800)
    out["widgets"] = {}
    for size, word in (("small", "HELLO SMALL"), ("medium", "HELLO MEDIUM"), ("large", "HELLO LARGE")):
        page.get(f"{base}/widget?size={size}")
        seen = {}
        if size == "small":
            seen["drawn"] = wait(lambda: "GOOD MORNING" in page.find_element(By.ID, "text").text or "HELLO" in page.find_element(By.ID, "text").text)
        else:
            seen["drawn"] = wait(lambda: len(page.find_elements(By.CSS_SELECTOR, "#boards .board .cell")) == 132)
        if size == "large":
            seen["recent"] = wait(lambda: len(page.find_elements(By.CSS_SELECTOR, "#recent li")) >= 1)
            seen["recentText"] = page.find_element(By.ID, "recent").text
        send(word, f"widget-{size}")
        if size == "small":
            seen["live"] = wait(lambda: word in page.find_element(By.ID, "text").text)
            # A painting edge to edge: its tiles, and still no sideways scrolling.
            colours = [63, 64, 65, 66, 67, 68, 69, 70]
            send(None, "widget-small", codes=[[colours[(r + c) % 8] for c in range(22)] for r in range(6)])
            seen["paintingTiles"] = wait(lambda: len(page.find_elements(By.CSS_SELECTOR, "#text .tile")) == 132)
            seen["paintingWidth"] = page.execute_script("return document.documentElement.scrollWidth")
            page.save_screenshot(os.path.join(shots, "widget-small-painting.png"))
            send("HELLO SMALL AGAIN", "widget-small")
            wait(lambda: "AGAIN" in page.find_element(By.ID, "text").text)
        else:
            seen["live"] = wait(lambda: word in board_text(page))
        seen["opensApp"] = page.find_element(By.ID, "open").get_attribute("href") == base + "/"
        seen["width"] = page.execute_script("return document.documentElement.scrollWidth")
        seen["axe"] = accessibility(page)
        page.save_screenshot(os.path.join(shots, f"widget-{size}.png"))
        out["widgets"][size] = seen
    page.set_window_size(1200, 900)

    # Offline: flapd stopped, the app reloaded from what the service worker kept.
    page.get(base + "/")
    wait(lambda: "HELLO LARGE" in board_text(page))
    flapd.stop()
    started = time.perf_counter()
    page.refresh()
    out["offlineBoard"] = wait(lambda: "HELLO LARGE" in board_text(page))
    out["offlineShownMs"] = round((time.perf_counter() - started) * 1000)
    # The page's own mark: from the start of the reload to the boards drawn.
    out["offlineFirstBoardMs"] = page.execute_script("return performance.getEntriesByName('first-board')[0]?.startTime")
    out["offlineBadge"] = wait(lambda: page.find_element(By.ID, "offline").is_displayed())
    out["offlineText"] = page.find_element(By.ID, "offline").text
    # The widget too, offline.
    page.get(f"{base}/widget?size=medium")
    out["widgetOffline"] = wait(lambda: "Offline since" in page.find_element(By.ID, "state").text)
    page.get(base + "/")
    wait(lambda: "HELLO LARGE" in board_text(page))

    # flapd again: the page catches up by itself.
    flapd.start()
    send("BACK AGAIN", "kitchen")
    out["caughtUp"] = wait(lambda: "BACK AGAIN" in board_text(page))
    out["badgeGone"] = wait(lambda: not page.find_element(By.ID, "offline").is_displayed())
    out["consoleErrors"] = console_errors(page)
finally:
    page.quit()
    flapd.stop()
print(json.dumps(out))
