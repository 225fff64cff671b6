"""Two people on the household's phones, two Chromium profiles over HTTPS: the owner invites Mum
from the page's Members section; Mum's browser opens the link, is signed in as herself, sends as
her own sender only, cannot clear the owner's message, sees only her own receipts; a widget of
one sender; the owner removes her (confirmed, her message cleared): her open page says so at once,
her requests are refused, and the owner takes it back.

Usage: browser_members_check.py FLAPD WORK_DIR API_KEY SCREENSHOT_DIR
Prints what it saw as JSON.
"""
import json
import os
import sys

from selenium.webdriver.common.by import By

from browser_support import Household, board_text, browser, click, console_errors, sign_in, submit, trusting, wait

flapd_path, work, key, shots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
household = Household(flapd_path, work, key)
flapd, resolve, authority = household.flapd, household.resolve, household.authority


def status_of(page, method, path, body=None):
    """The status of a request the page itself makes, with its cookie and origin."""
    return page.execute_async_script("""const [method, path, body, done] = arguments;
        fetch(path, { method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined })
          .then((r) => done(r.status), () => done(0));""", method, path, body)


out = {}
flapd.start()
secure = household.secure  # once started: a port taken meanwhile is chosen again
owner = mum = None
try:
    flapd.post({"text": "OWNER HERE", "sender": {"id": "owner"}})
    owner = browser(trusting(os.path.join(work, "owner"), authority), resolve)
    sign_in(owner, secure, key)
    wait(lambda: owner.find_element(By.ID, "app").is_displayed())
    out["ownerSeesMembers"] = wait(lambda: owner.find_element(By.ID, "members-section").is_displayed())
    owner.find_element(By.ID, "member-name").send_keys("Mum")
    submit(owner, "invite")
    out["qrShown"] = wait(lambda: owner.find_element(By.CSS_SELECTOR, "#member-link svg").is_displayed())
    link = owner.find_element(By.CSS_SELECTOR, "#member-link a").get_attribute("href")
    out["linkForm"] = link.startswith("https://flapd.test:") and "/join#" in link
    # A key for Mum's iPhone shortcut, shown once; it works as hers.
    wait(lambda: owner.find_element(By.CSS_SELECTOR, "#members li button[aria-label='Key Mum']").is_displayed())
    click(owner, "#members li button[aria-label='Key Mum']")
    member_key = wait(lambda: owner.find_elements(By.ID, "member-key")) and owner.find_element(By.ID, "member-key").text
    out["keyWorks"] = owner.execute_async_script("""const [key, done] = arguments;
        fetch("/v1/presence", { credentials: "omit", headers: { Authorization: `Bearer ${key}` } }).then((r) => r.json())
          .then((d) => done(d.people.filter((p) => p.you).map((p) => p.name)), () => done(null));""", member_key)
    owner.save_screenshot(os.path.join(shots, "members-invite.png"))

    mum = browser(trusting(os.path.join(work, "mum"), authority), resolve)
    mum.get(link)
    out["mumSignedIn"] = wait(lambda: mum.current_url.rstrip("/") == secure and mum.find_element(By.ID, "app").is_displayed())
    out["mumRole"] = mum.execute_script("return document.body.dataset.role")
    out["linkLeftHistory"] = "#" not in mum.execute_script("return document.referrer || ''")
    sender = mum.find_element(By.ID, "sender")
    out["mumSender"] = (sender.get_attribute("value"), sender.get_attribute("readonly") is not None)
    out["ownerPartsHidden"] = not mum.find_element(By.ID, "members-section").is_displayed() and \
        not mum.find_element(By.ID, "save-template").is_displayed()

    text = mum.find_element(By.ID, "text")
    text.send_keys("Hello from Mum")
    submit(mum, "compose")
    out["mumShown"] = wait(lambda: "HELLO FROM MUM" in board_text(mum))
    out["shownBy"] = wait(lambda: "your message" in mum.find_element(By.ID, "shown-by").text) and mum.find_element(By.ID, "shown-by").text
    out["asOwnerRefused"] = status_of(mum, "POST", "/v1/messages", {"text": "FAKE", "sender": {"id": "owner"}})
    out["clearOwnerRefused"] = status_of(mum, "DELETE", "/v1/slots/owner")
    # Read in one script: the lists redraw themselves, and an element found a moment before may be gone.
    out["clearButtons"] = wait(lambda: len(mum.find_elements(By.CSS_SELECTOR, "#slots li")) >= 2) and mum.execute_script(
        "return [...document.querySelectorAll('#slots li')].filter(li => li.querySelector('button')).map(li => li.innerText.split('\\n')[0])")
    wait(lambda: len(mum.find_elements(By.CSS_SELECTOR, "#receipts li")) >= 1)
    out["receipts"] = mum.execute_script("return [...document.querySelectorAll('#receipts li')].map(li => li.innerText)")
    mum.save_screenshot(os.path.join(shots, "members-mum.png"))

    mum.get(f"{secure}/widget?size=medium&sender=owner")
    out["senderWidget"] = wait(lambda: mum.find_element(By.ID, "who").text == "owner") and \
        wait(lambda: "OWNER HERE" in board_text(mum))
    mum.get(secure + "/")
    wait(lambda: mum.find_element(By.ID, "app").is_displayed())

    # The owner removes Mum, after saying yes and choosing to clear her message; her page, open
    # all along, says so at once; the owner takes it back and her page works again.
    owner.refresh()
    wait(lambda: owner.find_element(By.CSS_SELECTOR, "#members li button[aria-label='Remove Mum']").is_displayed())
    click(owner, "#members li button[aria-label='Remove Mum']")
    out["confirmAsked"] = bool(wait(lambda: owner.find_elements(By.CSS_SELECTOR, "#members .confirm button[aria-label='Remove Mum, clear their message']")))
    out["beforeConfirm"] = status_of(mum, "GET", "/v1/board")
    owner.save_screenshot(os.path.join(shots, "members-confirm.png"))
    click(owner, "#members .confirm button[aria-label='Remove Mum, clear their message']")
    out["removed"] = wait(lambda: "removed" in owner.find_element(By.ID, "member-note").text)
    out["removedListed"] = wait(lambda: "was cleared" in owner.find_element(By.ID, "members").text) and \
        bool(owner.find_elements(By.CSS_SELECTOR, "#members button[aria-label='Undo Mum']"))
    out["mumTold"] = wait(lambda: mum.find_element(By.ID, "sign-in-why").is_displayed()) and mum.find_element(By.ID, "sign-in-why").text
    out["signInSpeaksToHousehold"] = mum.find_element(By.ID, "sign-in").text
    mum.save_screenshot(os.path.join(shots, "members-removed.png"))
    out["afterRemoval"] = status_of(mum, "GET", "/v1/board")
    click(owner, "#members button[aria-label='Undo Mum']")
    out["undone"] = wait(lambda: "is back" in owner.find_element(By.ID, "member-note").text)
    out["afterUndo"] = status_of(mum, "GET", "/v1/board")
    out["consoleErrors"] = console_errors(owner) + [e for e in console_errors(mum) if "401" not in e and "403" not in e]
finally:
    for page in (owner, mum):
        if page:
            page.quit()
    flapd.stop()
print(json.dumps(out))
