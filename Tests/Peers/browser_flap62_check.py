"""A board whose flap 62 is a heart (a Note, or a Flagship from 2026) on flapd's web page, in a
real headless Chromium: a message with hearts is drawn with the heart flap, in the preview and on
the live board, a degree sign is left out (it would show a heart), and the widget's text says it
too.

Usage: browser_flap62_check.py BASE_URL API_KEY CELLS; prints what it saw as JSON.
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import board_text, browser, console_errors, sign_in, submit, wait

base, key, cells = sys.argv[1], sys.argv[2], int(sys.argv[3])

out = {}
page = browser()
try:
    sign_in(page, base, key)
    wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["cells"] = wait(lambda: len(page.find_elements(By.CSS_SELECTOR, "#boards .board .cell")) == cells)
    text = page.find_element(By.ID, "text")
    text.send_keys("I ❤️ NY 💙 20°C")
    out["preview"] = wait(lambda: "I ♥ NY ♥ 20C" in board_text(page, "#preview .board"))
    submit(page, "compose")
    out["shown"] = wait(lambda: "I ♥ NY ♥ 20C" in board_text(page))
    out["board"] = board_text(page)
    page.get(base + "/widget?size=small")
    out["widget"] = wait(lambda: "I ♥ NY ♥ 20C" in page.find_element(By.TAG_NAME, "body").text)
    out["consoleErrors"] = console_errors(page)
finally:
    page.quit()
print(json.dumps(out))
