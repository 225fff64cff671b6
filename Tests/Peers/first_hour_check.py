"""The first hour on a board installed from the package (scripts/package-lifecycle with
VESTAWIDGET_FIRST_HOUR=1): flapd runs in a Debian root as its unit runs it, beside a simulated
RS-485 wall and Chainlink controller on pseudo-terminals (flapctl simulate-hardware). A
phone-sized headless Chromium reaches it by the name a phone uses (HOSTNAME.local, which the
board's certificate carries with nothing configured), installs the authority the board
serves (/ca.crt) into its trust store, reads the setup code where a person would find it on a
simulated panel (flapd's log), and takes the page's first steps (setup_flow.py).

Usage: first_hour_check.py PLAIN_PORT HTTPS_PORT FLAPD_LOG SIMULATOR_LOG WORK_DIR
Prints what it saw as JSON, with the seconds from opening the page to the hello on the modules.
"""
import json
import os
import re
import socket
import sys
import threading
import time
import urllib.request

from browser_support import browser, console_errors, trusting
from setup_flow import first_steps

plain_port, https_port, flapd_log, simulator_log, work = sys.argv[1:6]
name = socket.gethostname().split(".")[0] + ".local"
plain, secure = f"http://{name}:{plain_port}", f"https://{name}:{https_port}"
simulator_said = []


def follow():
    with open(simulator_log) as said:
        while True:
            line = said.readline()
            if line:
                simulator_said.append(line)
            else:
                time.sleep(0.2)


def code():
    with open(flapd_log) as log:
        # "code=2484 7141": typed as a person reads it off the board, the space and all.
        return re.findall(r"code=([0-9]+(?: [0-9]+)*)", log.read())[-1]


threading.Thread(target=follow, daemon=True).start()
# The authority as the page's install link serves it, installed as a phone's settings install it.
authority = os.path.join(work, "ca.crt")
with urllib.request.urlopen(f"http://127.0.0.1:{plain_port}/ca.crt", timeout=30) as answer, open(authority, "wb") as kept:
    kept.write(answer.read())
page = browser(trusting(os.path.join(work, "phone"), authority), [f"--host-resolver-rules=MAP {name} 127.0.0.1"])
out = {}
try:
    page.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    first_steps(page, plain, secure, code, simulator_said, work, out)
    out["consoleErrors"] = [e for e in console_errors(page) if "/v1/setup/claim" not in e]
finally:
    page.quit()
print(json.dumps(out))
