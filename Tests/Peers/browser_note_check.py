"""A Vestaboard Note (a 3 x 15 panel) on flapd's web page, in a real headless Chromium: a message
with hearts is drawn with the Note's heart flap, in the preview and on the live board, and the
widget's text says it too.

Usage: browser_note_check.py BASE_URL API_KEY; prints what it saw as JSON.
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import board_text, browser, console_errors, sign_in, submit, wait

base, key = sys.argv[1], sys.argv[2]

out = {}
page = browser()
try:
    sign_in(page, base, key)
    wait(lambda: page.find_element(By.ID, "app").is_displayed())
    out["cells"] = wait(lambda: len(page.find_elements(By.CSS_SELECTOR, "#boards .board .cell")) == 45)
    text = page.find_element(By.ID, "text")
    text.send_keys("I ❤️ YOU 💙")
    out["preview"] = wait(lambda: "I ♥ YOU ♥" in board_text(page, "#preview .board"))
    submit(page, "compose")
    out["shown"] = wait(lambda: "I ♥ YOU ♥" in board_text(page))
    out["board"] = board_text(page)
    page.get(base + "/widget?size=small")
    out["widget"] = wait(lambda: "I ♥ YOU ♥" in page.find_element(By.TAG_NAME, "body").text)
    out["consoleErrors"] = console_errors(page)
finally:
    page.quit()
print(json.dumps(out))
