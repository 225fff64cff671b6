"""Drives flapd's web page in a real headless Chromium (selenium) and prints what it saw as JSON.

Usage: browser_page_check.py BASE_URL API_KEY SCREENSHOT_PATH
Checks: a wrong key is refused; the right one signs in; a message composed on the page is
previewed by flapd and sent, and the page's board cells reach its text; a second browser sees the
first one's message flip; axe-core's serious and critical violations on the sign-in page and the
signed-in page; no error in either browser's console.
"""
import json
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from browser_support import accessibility, board_text, browser, click, send_for_later, sign_in, submit, wait

base, key, screenshot = sys.argv[1], sys.argv[2], sys.argv[3]


out = {}
first, second = browser(), browser()
try:
    sign_in(first, base, "not-the-key")
    out["wrongKeyRefused"] = wait(lambda: "wrong" in first.find_element(By.ID, "sign-in-error").text)
    out["axeSignIn"] = accessibility(first)
    out["keyLabel"] = first.find_element(By.ID, "key").accessible_name
    sign_in(first, base, key)
    out["signedIn"] = wait(lambda: first.find_element(By.ID, "app").is_displayed())
    # The page shows itself, then fetches and draws the boards.
    wait(lambda: len(first.find_elements(By.CSS_SELECTOR, "#boards .cell")) > 0)
    out["boardCells"] = len(first.find_elements(By.CSS_SELECTOR, "#boards .cell"))
    sign_in(second, base, key)
    wait(lambda: second.find_element(By.ID, "app").is_displayed())

    text = first.find_element(By.ID, "text")
    text.send_keys("HELLO FROM CHROMIUM")
    out["previewShown"] = wait(lambda: "HELLO" in board_text(first, "#preview .board"))
    submit(first, "compose")
    out["firstSawIt"] = wait(lambda: "HELLO" in board_text(first) and "CHROMIUM" in board_text(first))
    out["secondSawIt"] = wait(lambda: "CHROMIUM" in board_text(second))
    out["receipt"] = first.find_element(By.ID, "receipt").text
    wait(lambda: "displayed" in first.find_element(By.ID, "receipt").text)
    out["receiptDisplayed"] = "displayed" in first.find_element(By.ID, "receipt").text
    out["boardLabel"] = first.find_element(By.CSS_SELECTOR, "#boards .board").get_attribute("aria-label")

    # A quick message saved from the compose form, sent from its list, then its slot cleared.
    text.clear()
    text.send_keys("LUNCH TIME")
    # A name with a space, an accent and a snowman: encoded in the URL by the page, decoded by flapd.
    first.find_element(By.ID, "template-name").send_keys("café lunch ☃")
    first.find_element(By.ID, "save-template").click()
    out["templateListed"] = wait(lambda: "café lunch ☃" in first.find_element(By.ID, "templates").text)
    out["templateSent"] = click(first, "#templates button[aria-label='Send café lunch ☃']")
    out["templateShown"] = wait(lambda: "LUNCH" in board_text(first) and "LUNCH" in board_text(second))
    # Named in the household's words: the quick message as such, what this page sent as "You".
    out["slotsListed"] = wait(lambda: "Quick message" in first.find_element(By.ID, "slots").text and "You" in first.find_element(By.ID, "slots").text)
    out["slotsText"] = first.find_element(By.ID, "slots").text
    out["slotClearClicked"] = click(first, "#slots button[aria-label='Clear Quick message']")
    out["slotCleared"] = wait(lambda: "CHROMIUM" in board_text(first) and "Quick message" not in first.find_element(By.ID, "slots").text)
    # The sender "my phone" (sent before the page opened) cleared, and the quick message deleted.
    out["spacedSlotCleared"] = click(first, "#slots button[aria-label='Clear my phone']") and \
        wait(lambda: "my phone" not in first.find_element(By.ID, "slots").text)
    out["templateDeleted"] = click(first, "#templates button[aria-label='Delete café lunch ☃']") and \
        wait(lambda: "café lunch" not in first.find_element(By.ID, "templates").text)
    # Compose extras: a colour chip inserted from the toolbar, the flip and the expiry chosen.
    text.clear()
    click(first, "#chips button[aria-label='Insert a green chip']")
    text.send_keys(" GO")
    out["chipPreview"] = wait(lambda: "GO" in board_text(first, "#preview .board"))
    out["chipInText"] = text.get_attribute("value")
    first.find_element(By.CSS_SELECTOR, "#transition option[value='row']").click()
    first.find_element(By.CSS_SELECTOR, "#expiry option[value='3600']").click()
    submit(first, "compose")
    out["chipShown"] = wait(lambda: "GO" in board_text(second))
    # An emoji from the picker: drawn as flapd's table says, the substitution named under the preview.
    text.clear()
    first.find_element(By.CSS_SELECTOR, "#emoji-picker summary").click()
    wait(lambda: len(first.find_elements(By.CSS_SELECTOR, "#emoji-grid button")) >= 40)
    out["emojiOffered"] = len(first.find_elements(By.CSS_SELECTOR, "#emoji-grid button"))
    click(first, "#emoji-grid button[aria-label^='Insert thumbs up']")
    text.send_keys(" SEE YOU")
    out["emojiPreview"] = wait(lambda: "OK SEE YOU" in board_text(first, "#preview .board"))
    out["emojiNote"] = first.find_element(By.ID, "preview-note").text
    # Saying the same thing again shows it again: A, B, A from the page, each with its own receipt.
    out["repeats"] = []
    for word, other in [("DINNER READY", "GO"), ("OUT", "DINNER"), ("DINNER READY", "OUT")]:
        text.clear()
        text.send_keys(word)
        # What was typed and whether the click landed, to tell a page that did not send from a
        # board that did not show (CI once saw neither the board nor a receipt move).
        typed = text.get_attribute("value")
        clicked = submit(first, "compose")
        shown = wait(lambda: word in board_text(second) and other not in board_text(second))
        displayed = wait(lambda: "displayed" in first.find_element(By.ID, "receipt").text)
        out["repeats"].append({"shown": shown, "displayed": displayed, "receipt": first.find_element(By.ID, "receipt").text,
                               "typed": typed, "clicked": clicked})
    # The recent messages name each by its text: DINNER READY twice, each displayed.
    def recent():
        # Read in one step in the page: the list is drawn anew as receipts change, and an element
        # found a moment before may be gone (selenium's stale element).
        return first.execute_script("return [...document.querySelectorAll('#receipts li')].map((item) => item.innerText)")
    wait(lambda: sum("DINNER READY" in t and "displayed" in t for t in recent()) >= 2)
    out["recentMessages"] = recent()
    wait(lambda: "until" not in first.find_element(By.ID, "slots").text and "min left" in first.find_element(By.ID, "slots").text)
    out["slotExpiry"] = first.find_element(By.ID, "slots").text
    # For a while, then back: shown over DINNER READY, listed as for now, ended early from the list.
    first.find_element(By.CSS_SELECTOR, "#expiry option[value='for-300']").click()
    text.clear()
    text.send_keys("DOOR OPEN")
    submit(first, "compose")
    out["temporaryShown"] = wait(lambda: "DOOR OPEN" in board_text(second))
    out["temporaryListed"] = wait(lambda: "then the board goes back" in first.find_element(By.ID, "slots").text)
    click(first, "#slots button[aria-label^='End now']")
    out["temporaryEnded"] = wait(lambda: "DINNER READY" in board_text(second) and "DOOR OPEN" not in board_text(second))
    first.find_element(By.CSS_SELECTOR, "#expiry option[value='3600']").click()
    # Send later: an hour from now, listed as waiting, then cancelled from the list.
    send_for_later(first, "LATER")
    out["sentForLater"] = wait(lambda: "scheduled" in first.find_element(By.ID, "receipt").text)
    out["laterReceipt"] = first.find_element(By.ID, "receipt").text
    out["laterAt"] = first.find_element(By.ID, "send-at").get_attribute("value")
    out["scheduledListed"] = wait(lambda: "LATER" in first.find_element(By.ID, "scheduled").text)
    out["laterNotShown"] = "LATER" not in board_text(second)
    click(first, "#scheduled button[aria-label='Cancel You']")
    out["scheduledCancelled"] = wait(lambda: "Nothing waiting" in first.find_element(By.ID, "scheduled").text)
    first.execute_script("document.getElementById('send-at').value = ''")

    # Paint: the sky filled blue, a red sun painted by keyboard, letters typed over the paint.
    click(first, "#palette button[aria-label='blue']")
    click(first, "input[name=tool][value=fill]")
    click(first, "#canvas .cell[data-index='0']")
    out["filled"] = wait(lambda: "blue" in first.find_element(By.CSS_SELECTOR, "#canvas .cell[data-index='131']").get_attribute("aria-label"))
    click(first, "#palette button[aria-label='red']")
    click(first, "input[name=tool][value=brush]")
    first.find_element(By.CSS_SELECTOR, "#canvas .cell[data-index='0']").click()
    active = first.switch_to.active_element
    active.send_keys(Keys.ARROW_DOWN, Keys.ARROW_RIGHT, Keys.SPACE)
    out["keyboardPainted"] = "red" in first.find_element(By.CSS_SELECTOR, "#canvas .cell[data-index='23']").get_attribute("aria-label")
    click(first, "input[name=tool][value=text]")
    first.find_element(By.CSS_SELECTOR, "#canvas .cell[data-index='53']").click()
    first.switch_to.active_element.send_keys("SKY")
    out["lettersTyped"] = first.find_element(By.CSS_SELECTOR, "#canvas .cell[data-index='54']").get_attribute("aria-label")
    click(first, "#paint-send")
    out["paintingShown"] = wait(lambda: "SKY" in board_text(second))
    out["paintingReceipt"] = wait(lambda: "displayed" in first.find_element(By.ID, "paint-receipt").text)
    out["blueCells"] = len([c for c in second.find_elements(By.CSS_SELECTOR, "#boards .cell")
                            if "rgb(0, 133, 202)" in (c.get_attribute("style") or "")])
    first.find_element(By.ID, "paint-name").send_keys("sky")
    click(first, "#paint-save")
    out["paintingSaved"] = wait(lambda: "sky" in first.find_element(By.ID, "templates").text)
    # What the board shows now (the painting), kept as a quick message from the page.
    first.find_element(By.ID, "keep-name").send_keys("wall now")
    click(first, "#keep-board")
    out["boardKept"] = wait(lambda: "Kept what the board shows as wall now" in first.find_element(By.ID, "keep-receipt").text) and \
        wait(lambda: "wall now" in first.find_element(By.ID, "templates").text)
    out["receiptsListed"] = wait(lambda: "displayed" in first.find_element(By.ID, "receipts").text)

    # Status and sound: the panel listed; muted from the page, and flapd says so.
    out["panelsListed"] = wait(lambda: "The board" in first.find_element(By.ID, "panels").text)
    wait(lambda: first.find_element(By.ID, "mute").is_enabled())
    click(first, "#mute")
    submit(first, "sound")
    out["muted"] = wait(lambda: "muted" in first.find_element(By.ID, "sound-note").text)
    out["soundNote"] = first.find_element(By.ID, "sound-note").text

    out["axeApp"] = accessibility(first)
    # The screenshot as docs/web-page.md shows it: the top of the page, tall enough for the board,
    # writing and painting.
    first.set_window_size(1280, 1500)
    first.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.5)
    first.save_screenshot(screenshot)
    out["pageSource"] = first.page_source
    out["urls"] = [url for b in (first, second) for url in b.execute_script("return performance.getEntriesByType('resource').map(e => e.name).concat([location.href])")]
    out["consoleErrors"] = [entry["message"] for b in (first, second) for entry in b.get_log("browser") if entry["level"] == "SEVERE"
                            and "401" not in entry["message"]]
finally:
    first.quit()
    second.quit()
print(json.dumps(out))
