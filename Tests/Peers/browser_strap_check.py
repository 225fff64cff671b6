"""A heart-rate strap heard by "Listen for straps" and used with one tap, on a phone-sized screen
in headless Chromium; prints what it saw as JSON.

Usage: browser_strap_check.py BASE_URL API_KEY ADDRESS
flapd runs its configured drivers over a mocked BlueZ with one strap at ADDRESS that beats. The
page lists the strap with its reading, "Use this" makes it the kiosk's Bluetooth sensor without a
restart, and the kiosk then reads it: GET /v1/sensors has its beats, and listening again is
refused because the kiosk's own sensor holds the adapter.
"""
import json
import sys
import urllib.request

from selenium.webdriver.common.by import By

from browser_support import console_errors, browser, sign_in, wait

base, key, address = sys.argv[1], sys.argv[2], sys.argv[3]


def get(path):
    request = urllib.request.Request(base + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def setting(name):
    return next((s for s in get("/v1/settings")["settings"] if s["key"] == name), None)


def note(driver):
    return driver.find_element(By.ID, "straps-note").text


out = {}
driver = browser()
try:
    driver.set_window_size(390, 844)
    sign_in(driver, base, key)
    wait(lambda: driver.find_element(By.ID, "app").is_displayed())
    driver.execute_script("document.getElementById('straps-listen').scrollIntoView()")
    driver.find_element(By.ID, "straps-listen").click()
    out["heardSaid"] = wait(lambda: note(driver).startswith(("Heard through", "No strap heard"))) and note(driver)
    out["listed"] = driver.find_element(By.ID, "straps-list").text
    used = [b for b in driver.find_elements(By.CSS_SELECTOR, "#straps-list button") if b.text == "Use this"]
    out["useButtons"] = len(used)
    if used:
        used[0].click()
        out["usedSaid"] = wait(lambda: "strap now" in note(driver) or "refused" in note(driver).lower()) and note(driver)
        out["driver"] = setting("sensor[0].driver")
        out["straps"] = setting("sensor[0].straps")
        # Applied without a restart: the kiosk's own sensor connects to the strap and reads it.
        def reading():
            sensors = get("/v1/sensors")
            out["sensors"] = sensors
            return f"ble:{address}" in json.dumps(sensors) and '"bpm"' in json.dumps(sensors)
        out["kioskReads"] = wait(reading)
        driver.find_element(By.ID, "straps-listen").click()
        out["againSaid"] = wait(lambda: "uses the adapter" in note(driver)) and note(driver)
    out["consoleErrors"] = console_errors(driver)
finally:
    driver.quit()
print(json.dumps(out))
