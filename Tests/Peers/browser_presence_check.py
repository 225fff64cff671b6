"""Two members on their own phones, two Chromium profiles over HTTPS: each sees the other here,
then writing (never the text), then gone a moment after the page closes; with one's "Show me as
here" off, the other sees nothing of them, across a restart of flapd. Then the share target:
the manifest names it, and its route opens the composer filled in with its preview.

Usage: browser_presence_check.py FLAPD WORK_DIR API_KEY SCREENSHOT_DIR
Prints what it saw as JSON.
"""
import json
import os
import sys
import time
import urllib.parse

from selenium.webdriver.common.by import By

from browser_support import Household, browser, click, console_errors, trusting, wait

flapd_path, work, key, shots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
household = Household(flapd_path, work, key)
flapd, resolve, authority = household.flapd, household.resolve, household.authority


def person(page, sender):
    """How `page` shows `sender` beside the board; None when it does not."""
    found = page.find_elements(By.CSS_SELECTOR, f"#presence li[data-sender='{sender}']")
    return found[0].text if found else None


def signed_in(name):
    invitation = flapd.request("POST", "/v1/members", {"name": name, "host": "flapd.test"})["invitation"]["url"]
    page = browser(trusting(os.path.join(work, name.lower()), authority), resolve)
    page.get(invitation)
    wait(lambda: page.current_url.rstrip("/") == secure and page.find_element(By.ID, "app").is_displayed())
    return page


out = {}
flapd.start()
secure = household.secure  # once started: a port taken meanwhile is chosen again
mum = james = None
try:
    mum, james = signed_in("Mum"), signed_in("James")
    out["eachSeesTheOther"] = [wait(lambda: person(mum, "james") == "James · here now"), wait(lambda: person(james, "mum") == "Mum · here now")]
    out["ownerListed"] = person(mum, "owner")

    # Mum types: James's page says so, and never what she types.
    mum.find_element(By.ID, "text").send_keys("Secret dinner plan")
    out["writingShown"] = wait(lambda: james.find_element(By.ID, "writing").text != "") and james.find_element(By.ID, "writing").text
    out["textNeverSent"] = "secret" not in james.page_source.lower()
    james.save_screenshot(os.path.join(shots, "presence-writing.png"))
    # It ends by itself 5 s after her last keystroke.
    out["writingEnded"] = wait(lambda: james.find_element(By.ID, "writing").text == "")

    # Her page closes: gone a moment later.
    closed = time.monotonic()
    mum.get("about:blank")
    out["goneAfterClosing"] = wait(lambda: (person(james, "mum") or "").startswith("Mum · ") and "here now" not in person(james, "mum"))
    out["goneSeconds"] = round(time.monotonic() - closed, 1)
    out["goneReads"] = person(james, "mum")

    # James hides himself: Mum, back, sees nothing of him, and not after a restart either.
    mum.get(secure + "/")
    wait(lambda: mum.find_element(By.ID, "app").is_displayed())
    wait(lambda: person(mum, "james") == "James · here now")
    click(james, "#show-me")
    out["hiddenFromMum"] = wait(lambda: person(mum, "james") is None)
    flapd.stop()
    flapd.start()
    for page in (mum, james):
        page.refresh()
        wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["mumSeesAfterRestart"] = wait(lambda: person(mum, "owner") is not None) and person(mum, "james")
    out["jamesSettingKept"] = wait(lambda: person(james, "mum") == "Mum · here now") and \
        not james.find_element(By.ID, "show-me").is_selected()
    mum.save_screenshot(os.path.join(shots, "presence-hidden.png"))

    # The share target: named by the manifest, its route opens Mum's composer filled in.
    manifest = mum.execute_async_script(
        "const done = arguments[0]; fetch('/manifest.webmanifest').then((r) => r.json()).then(done, () => done(null));")
    out["shareTarget"] = (manifest or {}).get("share_target")
    query = urllib.parse.urlencode({"title": "Dinner", "text": "Pasta at 7", "url": "https://example.com/r"})
    mum.get(f"{secure}/share?{query}")
    out["sharedText"] = wait(lambda: mum.find_element(By.ID, "text").get_attribute("value") != "") and \
        mum.find_element(By.ID, "text").get_attribute("value")
    out["sharedPreview"] = wait(lambda: len(mum.find_elements(By.CSS_SELECTOR, "#preview .board")) > 0)
    out["sharedNote"] = mum.find_element(By.ID, "preview-note").text
    out["sharedAddress"] = mum.current_url
    out["sharedSender"] = mum.find_element(By.ID, "sender").get_attribute("value")
    mum.save_screenshot(os.path.join(shots, "presence-shared.png"))
    out["consoleErrors"] = console_errors(mum) + console_errors(james)
finally:
    for page in (mum, james):
        if page:
            page.quit()
    flapd.stop()
print(json.dumps(out))
