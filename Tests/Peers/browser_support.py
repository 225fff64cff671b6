"""What the browser checks share: a headless Chromium under selenium, waiting, clicking a list
the page redraws, axe-core, signing in."""
import os
import time

import axe_playwright_python

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By


def browser(home=None, arguments=()):
    """Headless Chromium; with `home`, a HOME of its own, so it trusts the CAs of the NSS database
    in HOME/.pki/nssdb (see `trusting`) and no others."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    # No GPU to emulate: the tests run beside timing-sensitive ones on two cores.
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1200,900") + tuple(arguments):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    environment = dict(os.environ, HOME=home) if home else None
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=environment), options=options)


def trusting(home, authority=None):
    """Makes HOME/.pki/nssdb, an NSS database that trusts `authority` (a PEM file) to name servers,
    or nothing when it is None; returns `home`."""
    import subprocess
    database = os.path.join(home, ".pki", "nssdb")
    os.makedirs(database, exist_ok=True)
    subprocess.run(["certutil", "-d", "sql:" + database, "-N", "--empty-password"], check=True, capture_output=True)
    if authority:
        subprocess.run(["certutil", "-d", "sql:" + database, "-A", "-t", "C,,", "-n", "flapd", "-i", authority], check=True, capture_output=True)
    return home


def wait(condition, seconds=120):
    """True as soon as `condition` holds. The patience is for a busy machine (CI builds beside the
    tests, and a fsync may take seconds): it costs nothing when the condition comes, and only a
    fallback that expects it may not come passes a shorter one."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if condition():
                return True
        except Exception:
            pass
        time.sleep(0.1)
    return False


def click(driver, selector):
    """Clicks the element, again if the page redrew it in between (the lists refresh themselves)."""
    def attempt():
        driver.find_element(By.CSS_SELECTOR, selector).click()
        return True
    return wait(attempt)


def tap(driver, find):
    """Scrolls to and clicks the element `find` gives, found again when the page redrew it in
    between (the status list is drawn anew every few seconds); True once clicked."""
    def attempt():
        element = find()
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True
    return wait(attempt)


def submit(driver, form):
    """Presses the form's submit button once the page has enabled it (its handler is in place)."""
    selector = f"#{form} button[type=submit]"
    wait(lambda: driver.find_element(By.CSS_SELECTOR, selector).is_enabled())
    return click(driver, selector)


def board_text(driver, selector="#boards .board"):
    cells = driver.find_elements(By.CSS_SELECTOR, selector + " .cell")
    return "".join(cell.text or " " for cell in cells)


AXE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8").read()


def accessibility(driver):
    """axe-core's serious and critical violations on the page as it is: (rule, impact, nodes)."""
    driver.execute_script(AXE)
    driver.set_script_timeout(30)
    result = driver.execute_async_script("const done = arguments[arguments.length - 1]; axe.run(document).then(r => done(r.violations));")
    return [(v["id"], v["impact"], len(v["nodes"])) for v in result if v["impact"] in ("serious", "critical")]


def sign_in(driver, base, typed):
    driver.get(base + "/")
    wait(lambda: driver.find_element(By.ID, "key").is_displayed())
    field = driver.find_element(By.ID, "key")
    field.clear()
    field.send_keys(typed)
    driver.find_element(By.CSS_SELECTOR, "#sign-in-form button").click()


def owner_on_a_phone(base, key):
    """A phone-sized (390×844) Chromium signed in with the owner's key, its page open."""
    driver = browser()
    try:
        driver.set_window_size(390, 844)
        sign_in(driver, base, key)
        wait(lambda: driver.find_element(By.ID, "app").is_displayed())
    except BaseException:
        driver.quit()
        raise
    return driver


def send_for_later(driver, words):
    """Writes `words` in the composer, chooses an hour from now (to the minute) and sends it."""
    text = driver.find_element(By.ID, "text")
    text.clear()
    text.send_keys(words)
    driver.execute_script("""const d = new Date(Date.now() + 3600e3); d.setSeconds(0, 0);
        document.getElementById('send-at').value = new Date(d - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);""")
    submit(driver, "compose")


def free_port():
    """A port free now, below the kernel's ephemeral range (32768 and up), which port 0 and every
    client connection (chromedriver's, another test's) draw from: none of them is given it meanwhile."""
    import random
    import socket
    for _ in range(500):
        port = random.randint(20000, 32767)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port from 20000 to 32767")


class Flapd:
    """flapd --simulate on a free port with STATE, started and stopped by a check, so the check
    can see the page without it; `post` sends a message with the key, as another device would."""

    def __init__(self, path, state, key, arguments=(), sound_device=None, simulate=True):
        """`sound_device`: an ALSA device for the clacks (`null` plays them nowhere); none: no sound.
        `simulate`: --simulate (a panel found and chosen from the page is then driven as it is)."""
        self.path, self.state, self.key, self.arguments, self.process = path, state, key, list(arguments), None
        self.simulate = ["--simulate"] if simulate else []
        self.sound = ["--sound-device", sound_device] if sound_device else ["--no-sound"]
        self.port, self.https_port = free_port(), free_port()
        self.base = f"http://127.0.0.1:{self.port}"

    def start(self):
        """Starts flapd and waits for it to answer. A port taken between choosing it and flapd
        listening (another program's) is chosen again on a first start, and waited for on a
        restart, whose page keeps the address; a flapd that cannot start says why, in its words."""
        import subprocess
        import tempfile
        import urllib.request

        def answering():
            return urllib.request.urlopen(self.base + "/healthz", timeout=1).status == 200

        first = self.process is None
        # With no key, flapd makes its own, as a fresh install does (and the board shows a setup code).
        key = ["--api-key", self.key] if self.key else []
        for attempt in range(3):
            said = tempfile.TemporaryFile()
            self.process = subprocess.Popen([self.path, *self.simulate, *self.sound, "--state-dir", self.state, "--api-port", str(self.port),
                                             "--https-port", str(self.https_port), "--local-api-port", "0", *key] + self.arguments,
                                            stdout=subprocess.DEVNULL, stderr=said)
            wait(lambda: self.process.poll() is not None or answering())
            if self.process.poll() is None and wait(answering, seconds=1):
                break
            said.seek(0)
            why = said.read().decode(errors="replace")[-3000:]
            if self.process.poll() is not None and "port is taken" in why and attempt < 2:
                if first:
                    self.port, self.https_port = free_port(), free_port()
                    self.base = f"http://127.0.0.1:{self.port}"
                else:
                    time.sleep(2)
                continue
            self.stop()
            raise RuntimeError(f"flapd did not start on port {self.port}:\n{why}")
        if not self.key:
            with open(os.path.join(self.state, "api-key")) as made:
                self.key = made.read().strip()
        return self

    def stop(self):
        import signal
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(120)

    def request(self, method, path, body=None):
        import json
        import urllib.request
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode() if body is not None else None, method=method,
                                         headers={"Authorization": f"Bearer {self.key}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as answer:
            text = answer.read()
            return json.loads(text) if text else {}

    def post(self, body):
        return self.request("POST", "/v1/messages", body)


def console_errors(driver):
    """The page's console errors, less the failed requests of a page whose flapd was stopped on purpose."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE" and "Failed to load resource" not in entry["message"]
            and "net::ERR_CONNECTION_REFUSED" not in entry["message"] and "/v1/events" not in entry["message"]]


class Household:
    """flapd for phones on the home network: its certificate names `flapd.test`, which Chromium
    (started with `resolve`) finds on this machine; `secure` is the page's HTTPS address and
    `authority` the CA file a profile trusts."""

    def __init__(self, flapd_path, work, key, arguments=(), simulate=True):
        import os
        config = os.path.join(work, "flapd.toml")
        with open(config, "w") as file:
            file.write('[api]\ntls_names = ["flapd.test"]\n[messages]\nrate_limit = 0\n')
        self.flapd = Flapd(flapd_path, os.path.join(work, "state"), key, ["--config", config, *arguments], simulate=simulate)
        self.resolve = ["--host-resolver-rules=MAP flapd.test 127.0.0.1"]
        self.authority = os.path.join(work, "state", "tls", "ca.crt")

    @property
    def secure(self):
        """flapd's HTTPS address by its name; read it once started (a port taken meanwhile is
        chosen again)."""
        return f"https://flapd.test:{self.flapd.https_port}"
