"""The page as a household uses it on a phone (390×844 CSS px), in a real headless Chromium:
nothing scrolls sideways, paint targets and colour chips are a finger wide, white and filled look
different, status is in plain words, a message shows its length and roughly how long the flip
takes, Clear can be undone for a few seconds, and a message written while flapd is stopped waits
on the phone and is sent once when flapd is back. Screenshots of each part go to SHOTS.

Usage: browser_phone_check.py FLAPD STATE_DIR API_KEY SHOTS
Starts and stops flapd itself; prints what it saw as JSON.
"""
import json
import os
import sys

from selenium.webdriver.common.by import By

from browser_support import Flapd, accessibility, board_text, browser, click, console_errors, sign_in, submit, wait

flapd_path, state, key, shots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
flapd = Flapd(flapd_path, state, key).start()
out = {}
page = browser()


def shot(name, element_id=None):
    if element_id:
        page.execute_script("document.getElementById(arguments[0]).scrollIntoView()", element_id)
    page.save_screenshot(os.path.join(shots, f"phone-{name}.png"))


def slots():
    return [slot.get("senderName") or slot["sender"] for slot in flapd.request("GET", "/v1/slots")["slots"]]


def width(selector):
    return page.execute_script("return document.querySelector(arguments[0]).getBoundingClientRect().width", selector)


try:
    flapd.post({"text": "Good morning", "sender": {"id": "mum", "name": "Mum"}})
    flapd.post({"text": "Back at six", "sender": {"id": "hall", "name": "Hall"}})
    # A phone's screen: 390×844 CSS pixels, touch, scroll bars that overlay the page.
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    page.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    sign_in(page, flapd.base, key)
    wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["boardShown"] = wait(lambda: "BACK AT SIX" in board_text(page))
    shot("board")

    # Sizes at a phone's width.
    out["pageWidth"] = page.execute_script("return document.documentElement.scrollWidth")
    out["paintCell"] = width("#canvas .cell[data-index='0']")
    out["paletteChip"] = width("#palette .chip")
    out["colourChip"] = width("#chips .chip")
    styles = page.execute_script("""return ['69', '71', '70', '0'].map((code) => {
        const chip = document.querySelector(`#palette .chip[data-code='${code}']`);
        const style = getComputedStyle(chip);
        return [style.backgroundColor, style.backgroundImage, style.boxShadow].join(' | ');
      });""")
    out["swatches"] = dict(zip(["white", "filled", "black", "blank"], styles))
    shot("paint", "paint-title")

    # Composing: the count, the flip's length, then an emoji from the table.
    text = page.find_element(By.ID, "text")
    text.send_keys("DINNER AT 7")
    out["count"] = wait(lambda: "about" in page.find_element(By.ID, "compose-count").text) and page.find_element(By.ID, "compose-count").text
    shot("compose", "compose-title")

    # Clear, then Undo: the message stays. A second clear, left alone, happens after its few
    # seconds; by then the first, had Undo not taken it back, would have gone too.
    out["undoOffered"] = click(page, "#slots button[aria-label='Clear Mum']") and \
        wait(lambda: page.find_elements(By.CSS_SELECTOR, "#slots button[aria-label='Undo clearing Mum']"))
    shot("undo", "slots-title")
    click(page, "#slots button[aria-label='Undo clearing Mum']")
    click(page, "#slots button[aria-label='Clear Hall']")
    out["hallClearedLater"] = wait(lambda: "Hall" not in slots())
    out["mumKept"] = "Mum" in slots()

    # Status in plain words; the rule and reason one tap away.
    wait(lambda: "Clock" in page.find_element(By.ID, "links").text)
    out["status"] = page.find_element(By.ID, "links").text + "\n" + page.find_element(By.ID, "panels").text
    shot("status", "status-title")
    out["axe"] = accessibility(page)

    # Every control a finger can hit: 44×44 CSS px at least, the element or a label of it (tapping
    # a label works its control). Every details opened first, so what is inside is measured too.
    page.execute_script("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    out["smallTargets"] = page.execute_script("""
      const small = [];
      const controls = document.querySelectorAll("a[href], button, input, select, textarea, summary, [role=button], [tabindex]:not([tabindex='-1'])");
      for (const el of controls) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        const boxes = [box, ...Array.from(el.labels || []).map((l) => l.getBoundingClientRect())];
        if (boxes.some((b) => b.width >= 43.5 && b.height >= 43.5)) continue;
        const name = (el.getAttribute("aria-label") || el.textContent || el.value || "").trim().slice(0, 30);
        small.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""} "${name}": ${Math.round(box.width)}×${Math.round(box.height)}`);
      }
      return small;""")
    out["controlsMeasured"] = page.execute_script(
        "return document.querySelectorAll(\"a[href], button, input, select, textarea, summary\").length")
    page.execute_script("document.querySelectorAll('details').forEach((d) => { d.open = false; })")

    # Written while flapd is stopped: kept on the phone, shown as waiting, sent once flapd is back.
    flapd.stop()
    page.execute_script("window.scrollTo(0, 0)")
    text.clear()
    text.send_keys("WRITTEN OFFLINE")
    submit(page, "compose")
    out["waitingNote"] = wait(lambda: "waiting" in page.find_element(By.ID, "receipt").text) and page.find_element(By.ID, "receipt").text
    out["waitingListed"] = wait(lambda: "WRITTEN OFFLINE" in page.find_element(By.ID, "outbox").text)
    shot("waiting", "compose-title")
    flapd.start()
    out["sentWhenBack"] = wait(lambda: "WRITTEN OFFLINE" in board_text(page))
    out["outboxEmptied"] = wait(lambda: not page.find_element(By.ID, "outbox").is_displayed())
    receipts = flapd.request("GET", "/v1/receipts?limit=50")["receipts"]
    out["offlineSends"] = [r["status"] for r in receipts if r.get("text") == "WRITTEN OFFLINE"]
    out["pageWidthAfter"] = page.execute_script("return document.documentElement.scrollWidth")
    out["consoleErrors"] = console_errors(page)
finally:
    page.quit()
    flapd.stop()
print(json.dumps(out))
