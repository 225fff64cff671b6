"""A wall's modules checked from the page, on a phone-sized screen in headless Chromium; prints
what it saw as JSON.

Usage: browser_modules_check.py BASE_URL API_KEY
flapd drives a Universal Firmware wall whose module at row 1, column 2 has a dead Hall sensor.
The owner taps "Check its modules": the button counts the modules as it goes, and the panel's
status then names that module by row and column in words. "Test its motors" then runs each
module's motor test, with its progress on its button.
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import console_errors, owner_on_a_phone, tap, wait

base, key = sys.argv[1], sys.argv[2]

out = {}
driver = owner_on_a_phone(base, key)
try:
    panels = lambda: driver.find_element(By.ID, "panels")
    button = lambda: next(b for b in panels().find_elements(By.TAG_NAME, "button") if b.text.startswith(("Check", "Checking")))
    out["offered"] = wait(lambda: button().text == "Check its modules")
    tap(driver, button)
    out["counted"] = wait(lambda: button().text.startswith("Checking module"), seconds=30)
    out["found"] = wait(lambda: "Row 1, column 2: the magnet is not seen" in panels().text)
    # The third module runs firmware v7: not a fault, said on the button once the check ends.
    out["untested"] = wait(lambda: "Firmware v7, which cannot test itself: row 1, column 3." in panels().text, seconds=60)
    out["panels"] = panels().text
    motors = lambda: next(b for b in panels().find_elements(By.TAG_NAME, "button") if b.text.startswith(("Test its motors", "Testing motor", "Firmware v7")) and b.get_attribute("data-motor"))
    tap(driver, motors)
    out["motorProgress"] = wait(lambda: motors().text == "Testing motor 1 of 3 (about 20 s each)…", seconds=30)
    out["motorsDone"] = wait(lambda: motors().text == "Firmware v7, which cannot test itself: row 1, column 3." and motors().is_enabled(), seconds=240)
    out["consoleErrors"] = console_errors(driver)
finally:
    driver.quit()
print(json.dumps(out))
