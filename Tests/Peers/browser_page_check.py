"""Drives flapd's web page in a real headless Chromium (selenium) and prints what it saw as JSON.

Usage: browser_page_check.py BASE_URL API_KEY SCREENSHOT_PATH
Checks: a wrong key is refused; the right one signs in; a message composed on the page is
previewed by flapd and sent, and the page's board cells reach its text; a second browser sees the
first one's message flip; axe-core's serious and critical violations on the sign-in page and the
signed-in page; no error in either browser's console.
"""
import json
import os
import sys
import time

import axe_playwright_python

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

base, key, screenshot = sys.argv[1], sys.argv[2], sys.argv[3]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # No GPU to emulate: the tests run beside timing-sensitive ones on two cores.
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1200,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(condition, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if condition():
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return False


def click(driver, selector):
    """Clicks the element, again if the page redrew it in between (the lists refresh themselves)."""
    def attempt():
        driver.find_element(By.CSS_SELECTOR, selector).click()
        return True
    return wait(attempt, 10)


def board_text(driver, selector="#boards .board"):
    cells = driver.find_elements(By.CSS_SELECTOR, selector + " .cell")
    return "".join(cell.text or " " for cell in cells)


AXE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8").read()


def accessibility(driver):
    """axe-core's serious and critical violations on the page as it is: (rule, impact, nodes)."""
    driver.execute_script(AXE)
    driver.set_script_timeout(30)
    result = driver.execute_async_script("const done = arguments[arguments.length - 1]; axe.run(document).then(r => done(r.violations));")
    return [(v["id"], v["impact"], len(v["nodes"])) for v in result if v["impact"] in ("serious", "critical")]


def sign_in(driver, typed):
    driver.get(base + "/")
    wait(lambda: driver.find_element(By.ID, "key").is_displayed())
    field = driver.find_element(By.ID, "key")
    field.clear()
    field.send_keys(typed)
    driver.find_element(By.CSS_SELECTOR, "#sign-in-form button").click()


out = {}
first, second = browser(), browser()
try:
    sign_in(first, "not-the-key")
    out["wrongKeyRefused"] = wait(lambda: "wrong" in first.find_element(By.ID, "sign-in-error").text)
    out["axeSignIn"] = accessibility(first)
    out["keyLabel"] = first.find_element(By.ID, "key").accessible_name
    sign_in(first, key)
    out["signedIn"] = wait(lambda: first.find_element(By.ID, "app").is_displayed())
    # The page shows itself, then fetches and draws the boards.
    wait(lambda: len(first.find_elements(By.CSS_SELECTOR, "#boards .cell")) > 0)
    out["boardCells"] = len(first.find_elements(By.CSS_SELECTOR, "#boards .cell"))
    sign_in(second, key)
    wait(lambda: second.find_element(By.ID, "app").is_displayed())

    text = first.find_element(By.ID, "text")
    text.send_keys("HELLO FROM CHROMIUM")
    out["previewShown"] = wait(lambda: "HELLO" in board_text(first, "#preview .board"))
    first.find_element(By.CSS_SELECTOR, "#compose button[type=submit]").click()
    out["firstSawIt"] = wait(lambda: "HELLO" in board_text(first) and "CHROMIUM" in board_text(first))
    out["secondSawIt"] = wait(lambda: "CHROMIUM" in board_text(second))
    out["receipt"] = first.find_element(By.ID, "receipt").text
    wait(lambda: "displayed" in first.find_element(By.ID, "receipt").text)
    out["receiptDisplayed"] = "displayed" in first.find_element(By.ID, "receipt").text
    out["boardLabel"] = first.find_element(By.CSS_SELECTOR, "#boards .board").get_attribute("aria-label")

    # A quick message saved from the compose form, sent from its list, then its slot cleared.
    text.clear()
    text.send_keys("LUNCH TIME")
    first.find_element(By.ID, "template-name").send_keys("lunch")
    first.find_element(By.ID, "save-template").click()
    out["templateListed"] = wait(lambda: "lunch" in first.find_element(By.ID, "templates").text)
    out["templateSent"] = click(first, "#templates button[aria-label='Send lunch']")
    out["templateShown"] = wait(lambda: "LUNCH" in board_text(first) and "LUNCH" in board_text(second))
    out["slotsListed"] = wait(lambda: "quick-messages" in first.find_element(By.ID, "slots").text and "web" in first.find_element(By.ID, "slots").text)
    out["slotClearClicked"] = click(first, "#slots button[aria-label='Clear quick-messages']")
    out["slotCleared"] = wait(lambda: "CHROMIUM" in board_text(first) and "quick-messages" not in first.find_element(By.ID, "slots").text)
    out["axeApp"] = accessibility(first)
    first.save_screenshot(screenshot)
    out["pageSource"] = first.page_source
    out["consoleErrors"] = [entry["message"] for b in (first, second) for entry in b.get_log("browser") if entry["level"] == "SEVERE"
                            and "401" not in entry["message"]]
finally:
    first.quit()
    second.quit()
print(json.dumps(out))
