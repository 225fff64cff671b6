"""The Wematch room on flapd's web page in a headless Chromium; prints what it saw as JSON.

Usage: browser_room_check.py BASE_URL API_KEY SCREENSHOT_PATH RATE
Checks: the room's plot appears with a heart in the member's colour, labelled for screen
readers; the page's text never shows the heart rate; axe-core; no console error.
"""
import json
import re
import sys
import time

from selenium.webdriver.common.by import By

from browser_support import accessibility, browser, sign_in, wait

base, key, screenshot, rate = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]

out = {}
driver = browser()
try:
    sign_in(driver, base, key)
    out["roomShown"] = wait(lambda: driver.find_element(By.ID, "room").is_displayed())
    out["hearts"] = wait(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#room-plot .heart")) > 0) and \
        len(driver.find_elements(By.CSS_SELECTOR, "#room-plot .heart"))
    out["label"] = driver.find_element(By.CSS_SELECTOR, "#room-plot svg").get_attribute("aria-label")
    out["legend"] = driver.find_element(By.CSS_SELECTOR, "#room-plot .legend").text
    time.sleep(1.5)
    text = driver.find_element(By.TAG_NAME, "body").text + (driver.find_element(By.ID, "room").get_attribute("innerHTML") or "")
    out["rateShown"] = re.search(r"(^|[^0-9A-Za-z.])" + rate + r"([^0-9A-Za-z]|$)", text) is not None
    out["axe"] = accessibility(driver)
    driver.execute_script("document.getElementById('room').scrollIntoView()")
    time.sleep(0.3)
    driver.save_screenshot(screenshot)
    out["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
finally:
    driver.quit()
print(json.dumps(out))
