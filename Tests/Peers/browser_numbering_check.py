"""A wall of modules with no numbers numbered from the page, on a phone-sized screen in headless
Chromium; prints what it saw as JSON.

Usage: browser_numbering_check.py BASE_URL API_KEY SIMULATOR_STDOUT SIMULATOR_PID PLACES
flapd drives a wall (ROWSxCOLUMNS, from PLACES) of Universal Firmware modules with no IDs, run by
`flapctl simulate-hardware --swap-on-signal 2`, which says on SIMULATOR_STDOUT what its modules
show, in its own order. PLACES is JSON: [[row, column], ...], where each of the simulator's
modules hangs, in its order. The owner taps "Number its modules"; each time the wall shows a
module with "?" (as the simulator says: the owner's eyes), the check taps that module's place on
the page's grid. Then the wall shows READY, and a message; the module at row 1, column 2 is
swapped for a new one (SIGUSR1) and numbered alone.
"""
import json
import os
import signal
import sys
import time
import urllib.request

from selenium.webdriver.common.by import By

from browser_support import console_errors, browser, sign_in, tap, wait

base, key, simulator_out, simulator_pid, places = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), json.loads(sys.argv[5])
rows, columns = max(p[0] for p in places), max(p[1] for p in places)


def shown():
    """The simulator's last report of its modules at rest, in its own order."""
    with open(simulator_out) as f:
        lines = [line[len("rs485: "):].rstrip("\n") for line in f if line.startswith("rs485: ") and "swapped" not in line]
    return lines[-1] if lines else ""


def wall():
    """What the wall shows, row by row, each module at its place."""
    flaps = shown()
    cells = [[" "] * columns for _ in range(rows)]
    for index, (row, column) in enumerate(places):
        if index < len(flaps):
            cells[row - 1][column - 1] = flaps[index]
    return ["".join(r) for r in cells]


def marked():
    """The one module that shows ?, by the simulator's order, or None."""
    flaps = shown()
    showing = [i for i, flap in enumerate(flaps) if flap == "?"]
    return showing[0] if len(showing) == 1 else None


out = {"taps": []}
driver = browser()
try:
    driver.set_window_size(390, 844)
    sign_in(driver, base, key)
    wait(lambda: driver.find_element(By.ID, "app").is_displayed())
    panels = lambda: driver.find_element(By.ID, "panels")
    notes = []  # every note the page showed, with the seconds since the check began: what a failure says
    began = time.time()

    def note():
        text = driver.find_element(By.ID, "numbering-note").text
        if not notes or notes[-1][1] != text:
            notes.append([round(time.time() - began, 1), text])
        return text

    def start_numbering():
        tap(driver, lambda: next(b for b in panels().find_elements(By.TAG_NAME, "button") if b.text == "Number its modules"))

    def number(expected):
        """Taps the place of each module the wall marks, `expected` of them."""
        done = set()
        for _ in range(expected):
            if not wait(lambda: marked() is not None and marked() not in done and "tap where it hangs" in note(), seconds=180):
                out["stuck"] = {"note": note(), "shown": shown()}
                return False
            index = marked()
            row, column = places[index]
            tap(driver, lambda: driver.find_element(By.CSS_SELECTOR, f'#numbering-grid button[data-row="{row}"][data-column="{column}"]'))
            out["taps"].append([row, column])
            done.add(index)
            wait(lambda: "tap where it hangs" not in note() or marked() != index, seconds=60)
        return True

    out["offered"] = wait(lambda: any(b.text == "Number its modules" for b in panels().find_elements(By.TAG_NAME, "button")))
    start_numbering()
    out["grid"] = wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#numbering-grid button")) == rows * columns)
    out["numbered"] = number(len(places))
    out["ready"] = wait(lambda: note() == "Every place answers: the board shows READY.", seconds=60)
    out["readyShown"] = wait(lambda: "READY" in "".join(wall()), seconds=60)
    out["wallAfterNumbering"] = wall()
    out["grid"] = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#numbering-grid button")]

    # A message, each letter on the module that hangs where the board has it.
    request = urllib.request.Request(base + "/v1/messages", data=json.dumps({"id": "numbered", "text": "NUMBERED\nBY PHONE"}).encode(),
                                     headers={"Authorization": "Bearer " + key, "Content-Type": "application/json"}, method="POST")
    urllib.request.urlopen(request).read()
    out["message"] = wait(lambda: wall() == ["NUMBERED", "BY PHONE"], seconds=60)
    out["wallAfterMessage"] = wall()

    # The module at row 1, column 2 breaks; a new one takes its place, and only it is numbered.
    swapped = places.index([1, 2])
    os.kill(simulator_pid, signal.SIGUSR1)
    wait(lambda: "module 2 swapped for" in open(simulator_out).read(), seconds=30)
    tap(driver, lambda: driver.find_element(By.ID, "numbering-close"))
    start_numbering()
    out["oneToGo"] = wait(lambda: "(1 place to go)" in note() or "1 place to go" in note(), seconds=180)
    out["swappedMarked"] = wait(lambda: marked() == swapped and "tap where it hangs" in note(), seconds=180)
    tap(driver, lambda: driver.find_element(By.CSS_SELECTOR, '#numbering-grid button[data-row="1"][data-column="2"]'))
    out["renumbered"] = wait(lambda: note() == "Every place answers: the board shows READY.", seconds=60)
    out["note"] = note()
    out["notes"] = notes[-40:]
    out["consoleErrors"] = console_errors(driver)
finally:
    driver.quit()
print(json.dumps(out))
