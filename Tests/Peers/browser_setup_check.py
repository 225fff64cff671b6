"""A board no one owns yet, as a fresh install starts it (no key given), set up from a phone-sized
headless Chromium that reaches it by a name (flapd.test), as a phone on the home network does: the
page, on plain HTTP, asks for the code the board shows; a wrong code is refused saying how many
tries are left; the right one makes the phone the owner and leads it to the board's authority and
on to HTTPS, where it is signed in as the owner and a message sent from it reaches the board.
The profile trusts the authority from the start: installing it is the phone's own settings, which
a headless browser has none of. Screenshots go to SHOTS.

Usage: browser_setup_check.py FLAPD WORK_DIR SHOTS
Starts and stops flapd itself; prints what it saw as JSON.
"""
import json
import os
import subprocess
import sys
import threading

from selenium.webdriver.common.by import By

from browser_support import Household, browser, console_errors, trusting, wait
from setup_flow import first_steps

flapd_path, work, shots = sys.argv[1], sys.argv[2], sys.argv[3]
# The hardware to find: a simulated RS-485 wall (eight modules of Universal Firmware, and two new
# ones with no ID yet) and a Chainlink controller on pseudo-terminals, in a folder laid out as
# /dev (flapctl simulate-hardware), which flapd searches in place of /dev.
devices = os.path.join(work, "dev")
simulated = subprocess.Popen([os.path.join(os.path.dirname(flapd_path), "flapctl"), "simulate-hardware", "--devices", devices,
                              "--firmware", "universal", "--unnumbered", "2"],
                             stdout=subprocess.PIPE, text=True)
simulator_said = []


def listen():
    for line in iter(simulated.stdout.readline, ""):
        simulator_said.append(line)


threading.Thread(target=listen, daemon=True).start()
wait(lambda: len([line for line in simulator_said if " -> " in line]) == 2)
household = Household(flapd_path, work, None, ["--devices", devices], simulate=False)
flapd, state = household.flapd, household.flapd.state
flapd.start()
out = {}
page = browser(trusting(os.path.join(work, "phone"), household.authority), household.resolve)
plain = f"http://flapd.test:{flapd.port}"


def code():
    with open(os.path.join(state, "setup-code")) as shown:
        return shown.read().strip()


try:
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    first_steps(page, plain, household.secure, code, simulator_said, shots, out)
    out["codeLeft"] = os.path.exists(os.path.join(state, "setup-code"))
    # Opened again: signed in, no setup asked for.
    page.get(household.secure + "/")
    out["reopenedSignedIn"] = wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["setUpHiddenAfter"] = not page.find_element(By.ID, "set-up").is_displayed()
    out["consoleErrors"] = [e for e in console_errors(page) if "/v1/setup/claim" not in e]
finally:
    page.quit()
    flapd.stop()
    simulated.terminate()
    simulated.wait(30)

print(json.dumps(out))
