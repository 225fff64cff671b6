"""The first steps a phone takes on a fresh board, shared by the browser suite's setup check and the
first hour in a Debian root with the package installed (scripts/first-hour): open the page by
the board's name, type a wrong code and then the code the board shows, move to HTTPS, then the
page's first steps in FiestaBoard's order (find the RS-485 wall and use it, its test pattern on
the modules, the log level and a calendar source and a daily schedule from Settings, a member,
a hello on the modules). `code` reads the code as a person reads it off the board;
`simulator_said` is the lines `flapctl simulate-hardware` prints. Fills `out`.
"""
import os
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browser_support import board_text, submit, wait


def first_steps(page, plain, secure, code, simulator_said, shots, out):
    opened = time.time()
    page.get(plain + "/")
    out["setUpShown"] = wait(lambda: page.find_element(By.ID, "set-up").is_displayed())
    out["signInHidden"] = not page.find_element(By.ID, "sign-in").is_displayed()
    page.save_screenshot(os.path.join(shots, "setup-code.png"))
    shown = code()
    last = (int(shown[-1]) + 1) % 10
    page.find_element(By.ID, "setup-code").send_keys(shown[:-1] + str(last))
    submit(page, "set-up-form")
    out["wrongSaid"] = wait(lambda: page.find_element(By.ID, "set-up-error").text) and page.find_element(By.ID, "set-up-error").text
    page.find_element(By.ID, "setup-code").send_keys(shown)
    submit(page, "set-up-form")
    out["goSecureShown"] = wait(lambda: page.find_element(By.ID, "go-secure").is_displayed())
    out["installLink"] = page.find_element(By.CSS_SELECTOR, "#go-secure a").get_attribute("href")
    page.save_screenshot(os.path.join(shots, "setup-go-secure.png"))
    page.find_element(By.ID, "go-secure-now").click()
    out["appShown"] = wait(lambda: page.current_url.startswith(secure) and page.find_element(By.ID, "app").is_displayed())
    out["location"] = page.current_url
    out["role"] = page.execute_script("return document.body.dataset.role")
    # The first steps, in FiestaBoard's order: the display first.
    def step(name):
        return page.find_element(By.CSS_SELECTOR, f"#first-steps li[data-step='{name}']")

    def next_step():
        return [item.get_attribute("data-step") for item in page.find_elements(By.CSS_SELECTOR, "#first-steps li.next")]

    out["stepsShown"] = wait(lambda: page.find_element(By.ID, "first-steps").is_displayed() and next_step() == ["display"])
    page.save_screenshot(os.path.join(shots, "setup-claimed.png"))
    step("display").find_element(By.TAG_NAME, "button").click()
    # Find my board: listed at once, then searched (this machine's own ports, if it has any).
    out["hardwareListed"] = wait(lambda: "GPIO chips:" in page.find_element(By.ID, "hardware-list").text)
    page.find_element(By.ID, "hardware-search").click()
    out["hardwareSearched"] = wait(lambda: page.find_element(By.ID, "hardware-note").text == "Searched.")
    out["hardwareLines"] = page.find_element(By.ID, "hardware-list").text.splitlines()
    # Use this: the RS-485 wall becomes the board's panel, and its test pattern lands on the modules.
    wall = [item for item in page.find_elements(By.CSS_SELECTOR, "#hardware-list li") if "RS-485 modules" in item.text][0]
    wall.find_element(By.TAG_NAME, "button").click()
    out["wallUsed"] = wait(lambda: "is this board's panel now" in page.find_element(By.ID, "hardware-note").text) and \
        page.find_element(By.ID, "hardware-note").text
    out["reelUsed"] = page.execute_async_script(
        "const done = arguments[0]; fetch('/v1/settings', {credentials: 'same-origin'}).then((r) => r.json())"
        ".then((b) => done((b.settings.find((s) => s.key === 'panel[0].reel') || {}).value))")
    out["nextAfterDisplay"] = wait(lambda: next_step() == ["connect"]) and next_step()
    step("connect").find_element(By.TAG_NAME, "button").click()
    # The eight numbered modules; the two new ones stay as they homed.
    out["patternOnModules"] = wait(lambda: any(line.startswith("rs485: ABCDEFGH") for line in simulator_said))
    out["modulesSaid"] = [line.strip() for line in simulator_said if line.startswith("rs485:")]
    page.find_element(By.ID, "straps-listen").click()
    out["strapsSaid"] = wait(lambda: page.find_element(By.ID, "straps-note").text.startswith(("No strap heard", "Heard through"))) and \
        page.find_element(By.ID, "straps-note").text
    page.execute_script("document.getElementById('hardware-section').scrollIntoView()")
    page.save_screenshot(os.path.join(shots, "setup-hardware.png"))
    page.find_element(By.ID, "vestaboard-address").send_keys("127.0.0.1:9")
    submit(page, "vestaboard-find")
    out["vestaboardSaid"] = wait(lambda: "127.0.0.1:9:" in page.find_element(By.ID, "vestaboard-note").text) and \
        page.find_element(By.ID, "vestaboard-note").text
    # Settings: the log level changed from the page, applied without a restart, kept as the page's.
    group_css = "#settings-groups details[data-group='network and log']"
    out["settingsListed"] = wait(lambda: page.find_elements(By.CSS_SELECTOR, group_css))
    group = page.find_element(By.CSS_SELECTOR, group_css)
    page.execute_script("arguments[0].scrollIntoView()", group)
    group.find_element(By.TAG_NAME, "summary").click()
    Select(page.find_element(By.ID, "setting-log_level")).select_by_value("debug")
    group.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    out["settingsSaid"] = wait(lambda: page.find_element(By.ID, "settings-note").text == "Saved and applied.") and \
        page.find_element(By.ID, "settings-note").text
    out["levelAfter"] = page.execute_async_script(
        "const done = arguments[0]; fetch('/v1/settings', {credentials: 'same-origin'}).then((r) => r.json())"
        ".then((b) => done(b.settings.find((s) => s.key === 'log_level')))")
    out["panelAfter"] = page.execute_async_script(
        "const done = arguments[0]; fetch('/v1/board', {credentials: 'same-origin'}).then((r) => r.json()).then((b) => done(b.panels[0].columns))")
    page.save_screenshot(os.path.join(shots, "setup-settings.png"))
    # Add a calendar source and a daily schedule from the page's "Add" forms.
    def add(kind, fields):
        Select(page.find_element(By.ID, "settings-new-kind")).select_by_visible_text(kind)
        for key, value in fields.items():
            field = page.find_element(By.ID, "setting-" + key)
            if field.tag_name == "select":
                Select(field).select_by_value(value)
            else:
                field.send_keys(value)
        page.find_element(By.CSS_SELECTOR, "#settings-new button[type=submit]").click()
        wait(lambda: page.find_element(By.ID, "settings-note").text in ("Saved and applied.",) or "source" in page.find_element(By.ID, "settings-note").text)
        said = page.find_element(By.ID, "settings-note").text
        # The note is set again by the next change: cleared, so each add is seen to finish.
        page.execute_script("document.getElementById('settings-note').textContent = ''")
        return said
    out["nextAfterPattern"] = next_step()
    step("source").find_element(By.TAG_NAME, "button").click()
    out["sourceAdded"] = add("source: calendar", {"source[0].name": "bins", "source[0].url": "http://127.0.0.1:9/bins.ics", "source[0].every": "1h"})
    out["scheduleAdded"] = add("schedule", {"schedule[0].name": "morning", "schedule[0].times": "08:00", "schedule[0].text": "GOOD MORNING"})
    out["sourcesAfter"] = page.execute_async_script(
        "const done = arguments[0]; fetch('/v1/sources', {credentials: 'same-origin'}).then((r) => r.json()).then((b) => done(b.sources.map((s) => s.name)))")
    out["schedulesAfter"] = page.execute_async_script(
        "const done = arguments[0]; fetch('/v1/schedules', {credentials: 'same-origin'}).then((r) => r.json()).then((b) => done(JSON.stringify(b)))")
    # A member, then the last step: a hello, on the modules.
    page.find_element(By.ID, "member-name").send_keys("Mum")
    submit(page, "invite")
    out["memberAdded"] = wait(lambda: page.find_elements(By.CSS_SELECTOR, "#member-link svg"))
    out["nextAfterSource"] = wait(lambda: next_step() == ["hello"]) and next_step()
    step("hello").find_element(By.TAG_NAME, "button").click()
    submit(page, "compose")
    out["sent"] = wait(lambda: "HELLO" in board_text(page)) and wait(lambda: any(line.startswith("rs485:") and "HELLO" in line for line in simulator_said))
    out["stepsSaid"] = wait(lambda: page.find_element(By.ID, "first-steps-note").text == "Your board is set up.") and \
        page.find_element(By.ID, "first-steps-note").text
    out["firstMessageSeconds"] = round(time.time() - opened, 1)
    page.save_screenshot(os.path.join(shots, "setup-first-steps-done.png"))
    return out
