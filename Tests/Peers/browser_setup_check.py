"""A board no one owns yet, as a fresh install starts it (no key given), set up from a phone-sized
headless Chromium: the page asks for the code the board shows, a wrong code is refused saying how
many tries are left, the right one signs the phone in as the owner and opens the app, and a
message sent from it reaches the board. Screenshots go to SHOTS.

Usage: browser_setup_check.py FLAPD STATE_DIR SHOTS
Starts and stops flapd itself; prints what it saw as JSON.
"""
import json
import os
import sys

from selenium.webdriver.common.by import By

from browser_support import Flapd, board_text, browser, console_errors, submit, wait

flapd_path, state, shots = sys.argv[1], sys.argv[2], sys.argv[3]
flapd = Flapd(flapd_path, state, None).start()
out = {}
page = browser()


def code():
    with open(os.path.join(state, "setup-code")) as shown:
        return shown.read().strip()


try:
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    page.get(flapd.base + "/")
    out["setUpShown"] = wait(lambda: page.find_element(By.ID, "set-up").is_displayed())
    out["signInHidden"] = not page.find_element(By.ID, "sign-in").is_displayed()
    page.save_screenshot(os.path.join(shots, "setup-code.png"))
    shown = code()
    last = (int(shown[-1]) + 1) % 10
    page.find_element(By.ID, "setup-code").send_keys(shown[:-1] + str(last))
    submit(page, "set-up-form")
    out["wrongSaid"] = wait(lambda: page.find_element(By.ID, "set-up-error").text) and page.find_element(By.ID, "set-up-error").text
    page.find_element(By.ID, "setup-code").send_keys(shown)
    submit(page, "set-up-form")
    out["appShown"] = wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["role"] = page.execute_script("return document.body.dataset.role")
    out["codeLeft"] = os.path.exists(os.path.join(state, "setup-code"))
    text = page.find_element(By.ID, "text")
    text.send_keys("HELLO FROM MY PHONE")
    submit(page, "compose")
    out["sent"] = wait(lambda: "HELLO FROM MY PHONE" in board_text(page))
    page.save_screenshot(os.path.join(shots, "setup-claimed.png"))
    # Opened again: signed in, no setup asked for.
    page.get(flapd.base + "/")
    out["reopenedSignedIn"] = wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["setUpHiddenAfter"] = not page.find_element(By.ID, "set-up").is_displayed()
    out["consoleErrors"] = [e for e in console_errors(page) if "/v1/setup/claim" not in e]
finally:
    page.quit()
    flapd.stop()

print(json.dumps(out))
