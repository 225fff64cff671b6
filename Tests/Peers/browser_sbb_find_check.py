"""An SBB wall's modules found from the page, on a phone-sized screen in headless Chromium;
prints what it saw as JSON.

Usage: browser_sbb_find_check.py BASE_URL API_KEY
flapd drives a simulated SBB wall of 1×4 modules at addresses 3, 5, 7 and 9. The owner taps
"Find its modules": the button says which address it is asking as the search goes, then each
module found, by address and by the row and column the panel gives it.
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
    button = lambda: next(b for b in panels().find_elements(By.TAG_NAME, "button") if b.get_attribute("data-find"))
    out["offered"] = wait(lambda: button().text == "Find its modules")
    tap(driver, button)
    out["progress"] = wait(lambda: button().text.startswith("Asking address"), seconds=30)
    out["found"] = wait(lambda: button().text.startswith("Found 4 modules") and button().is_enabled(), seconds=60)
    out["said"] = button().text
    out["consoleErrors"] = console_errors(driver)
finally:
    driver.quit()
print(json.dumps(out))
