"""The receipt line of flapd's web page when two messages are followed at once, in a real headless
Chromium: the first message's receipt request is held (the page's fetch wrapped) until the second
message, sent for later, has written "scheduled"; then the held answer is let through, and the line
must still speak of the second message.

Usage: browser_receipt_check.py BASE_URL API_KEY; prints what it saw as JSON.
"""
import json
import sys

from selenium.webdriver.common.by import By

from browser_support import browser, send_for_later, sign_in, submit, wait

base, key = sys.argv[1], sys.argv[2]

HOLD = """
window.heldId = null; window.staleRead = false;
window.gate = new Promise((open) => { window.openGate = open; });
const realFetch = window.fetch.bind(window);
window.fetch = async (path, init) => {
  const id = /\\/v1\\/receipts\\/([^?]+)$/.exec(path)?.[1];
  if (!id || (window.heldId !== null && window.heldId !== id)) return realFetch(path, init);
  window.heldId = id;
  await window.gate;
  const real = await realFetch(path, init);
  const body = await real.text();
  const answer = new Response(body, { status: real.status });
  // The page reads the body next: from here on, what it does with the answer is microtasks only.
  answer.text = async () => { window.staleRead = true; return body; };
  return answer;
};
"""

out = {}
page = browser()
try:
    sign_in(page, base, key)
    wait(lambda: page.find_element(By.ID, "app").is_displayed())
    page.execute_script(HOLD)
    text = page.find_element(By.ID, "text")
    text.send_keys("FIRST")
    submit(page, "compose")
    out["firstHeld"] = wait(lambda: page.execute_script("return window.heldId") is not None)
    out["firstId"] = page.execute_script("return window.heldId")
    send_for_later(page, "LATER")
    out["secondScheduled"] = wait(lambda: "scheduled" in page.find_element(By.ID, "receipt").text)
    out["before"] = page.find_element(By.ID, "receipt").text
    # Let the first message's answer through, wait until the page has read it, then one task more:
    # whatever it was going to write with it is written by then.
    page.set_script_timeout(30)
    out["after"] = page.execute_async_script("""const done = arguments[arguments.length - 1];
        window.openGate();
        const until = () => window.staleRead ? setTimeout(() => done(document.getElementById('receipt').textContent), 0) : setTimeout(until, 20);
        until();""")
    out["consoleErrors"] = [e["message"] for e in page.get_log("browser") if e["level"] == "SEVERE"]
finally:
    page.quit()
print(json.dumps(out))
