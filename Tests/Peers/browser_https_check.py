"""flapd's page over HTTPS, reached by a name that is not localhost, in Debian's headless Chromium:
without flapd's authority Chromium refuses the certificate; with it in a throwaway NSS database,
the page is a secure context, its service worker in control, installable, and the board it last
showed is there after flapd stops. Nowhere is a certificate error ignored.

Usage: browser_https_check.py FLAPD WORK_DIR API_KEY SCREENSHOT_DIR
Starts and stops flapd itself ([api] tls_names = ["flapd.test"]); prints what it saw as JSON.
"""
import json
import os
import sys

from selenium.webdriver.common.by import By

from browser_support import Flapd, board_text, browser, console_errors, sign_in, trusting, wait

flapd_path, work, key, shots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
config = os.path.join(work, "flapd.toml")
with open(config, "w") as file:
    file.write('[api]\ntls_names = ["flapd.test"]\n')
flapd = Flapd(flapd_path, os.path.join(work, "state"), key, ["--config", config])
resolve = ["--host-resolver-rules=MAP flapd.test 127.0.0.1"]
out = {}
flapd.start()
# Once started: a port taken meanwhile is chosen again.
secure = f"https://flapd.test:{flapd.https_port}"
plain = f"http://flapd.test:{flapd.port}"
try:
    # No authority: the certificate is refused, and plain HTTP by name is not a secure context.
    stranger = browser(trusting(os.path.join(work, "stranger")), resolve)
    try:
        stranger.get(secure + "/")
        out["refusedWithoutAuthority"] = wait(lambda: "ERR_CERT_AUTHORITY_INVALID" in stranger.page_source)
        out["refusedTitle"] = stranger.title
        stranger.get(plain + "/")
        out["plainSecureContext"] = stranger.execute_script("return window.isSecureContext")
    finally:
        stranger.quit()

    flapd.post({"text": "HELLO FROM HTTPS", "sender": {"id": "kitchen"}})
    page = browser(trusting(os.path.join(work, "phone"), os.path.join(work, "state", "tls", "ca.crt")), resolve)
    try:
        sign_in(page, secure, key)
        out["secureContext"] = page.execute_script("return window.isSecureContext")
        out["location"] = page.current_url
        out["signedIn"] = wait(lambda: page.find_element(By.ID, "app").is_displayed())
        out["board"] = wait(lambda: "HELLO FROM HTTPS" in board_text(page))
        out["workerInControl"] = wait(lambda: page.execute_script("return !!navigator.serviceWorker.controller"), 20) or \
            (page.refresh() or wait(lambda: page.execute_script("return !!navigator.serviceWorker.controller")))

        def installable():
            out["installabilityErrors"] = page.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
            return not out["installabilityErrors"]
        out["installable"] = wait(installable)
        # The page's own requests stay on HTTPS: its cookie is for HTTPS only.
        out["cookieSecure"] = [c.get("secure") for c in page.get_cookies() if c["name"] == "flapd_session"]

        # Opened again while online, as an installed app is: the worker keeps the board it passes on.
        page.get(secure + "/")
        wait(lambda: "HELLO FROM HTTPS" in board_text(page))
        flapd.stop()
        page.refresh()
        out["offlineBoard"] = wait(lambda: "HELLO FROM HTTPS" in board_text(page))
        out["offlineBadge"] = wait(lambda: page.find_element(By.ID, "offline").is_displayed())
        page.save_screenshot(os.path.join(shots, "https-offline.png"))
        out["consoleErrors"] = console_errors(page)
    finally:
        page.quit()
finally:
    flapd.stop()
print(json.dumps(out))
