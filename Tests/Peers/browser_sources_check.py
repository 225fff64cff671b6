"""Content sources on flapd's web page, on a phone-sized screen, in headless Chromium; prints what
it saw as JSON.

Usage: browser_sources_check.py BASE_URL API_KEY
Checks: each source is listed in a household's words with what a template gets from it one tap
away; the owner's "Fetch now" fetches it again; a trigger says when it last showed; axe-core;
no console error.
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import accessibility, owner_on_a_phone, wait

base, key = sys.argv[1], sys.argv[2]

out = {}
driver = owner_on_a_phone(base, key)
try:
    links = lambda: driver.find_element(By.ID, "links")
    out["listed"] = wait(lambda: "Source weather" in links().text and "Up to date" in links().text)
    out["links"] = links().text
    for details in links().find_elements(By.TAG_NAME, "details"):
        driver.execute_script("arguments[0].open = true", details)
    out["opened"] = links().text
    button = next(b for b in links().find_elements(By.TAG_NAME, "button") if b.text == "Fetch now")
    driver.execute_script("arguments[0].scrollIntoView()", button)
    button.click()
    out["sidewaysScroll"] = driver.execute_script("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
    out["axe"] = accessibility(driver)
    out["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
finally:
    driver.quit()
print(json.dumps(out))
