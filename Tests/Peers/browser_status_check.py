"""A directly driven panel's status on flapd's web page, on a phone-sized screen, in headless
Chromium; prints what it saw as JSON.

Usage: browser_status_check.py BASE_URL API_KEY
Checks: the page fits a phone's width with no sideways scrolling; the calibration form of the
spi panel nudges a module (row 1, column 3) on; the clock's verdict is shown; axe-core; no
console error.
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import accessibility, click, owner_on_a_phone, wait

base, key = sys.argv[1], sys.argv[2]

out = {}
driver = owner_on_a_phone(base, key)
try:
    out["calibrationShown"] = wait(lambda: driver.find_element(By.ID, "cal-row").is_displayed())
    out["sidewaysScroll"] = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    column = driver.find_element(By.ID, "cal-column")
    column.clear()
    column.send_keys("3")
    click(driver, "#calibration button[data-tenths='1']")
    out["nudged"] = wait(lambda: "Nudged" in driver.find_element(By.ID, "cal-note").text)
    out["panels"] = driver.find_element(By.ID, "panels").text
    # Quiet now and the default flip, saved from the phone.
    wait(lambda: driver.find_element(By.CSS_SELECTOR, "#controls button").is_enabled())
    driver.find_element(By.ID, "paused").click()
    driver.execute_script("document.getElementById('default-transition').value = 'diagonal'")
    click(driver, "#controls button")
    out["controlsSaved"] = wait(lambda: "Saved." in driver.find_element(By.ID, "controls-note").text)
    out["controlsNote"] = driver.find_element(By.ID, "controls-note").text
    out["clockShown"] = wait(lambda: "Clock" in driver.find_element(By.ID, "links").text)
    out["links"] = driver.find_element(By.ID, "links").text
    out["axe"] = accessibility(driver)
    out["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
finally:
    driver.quit()
print(json.dumps(out))
