"""What `.ci/browser`'s scenarios are written with: a headless Chromium at one window size that
finds, fills and submits like a person, saves a screenshot and runs axe-core on each page it is
asked to, and says where it was when something is missing. Checks print through faultlib's
`report` (one PASS or FAIL line each); `need` also ends the scenario when its check fails.
"""

import http.client
import itertools
import os
import re
import time
from urllib.parse import urlsplit

from faultlib import report
from selenium import webdriver
from selenium.common.exceptions import JavascriptException, TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import Select, WebDriverWait
from selenium_axe_python import Axe

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
WAIT = 10  # seconds an element or a navigation may take
# The address every browser request claims to come from (the server trusts loopback as its proxy):
# the IPinfo recording for it says DE, and the browser's languages say Great Britain, so a preselected
# DE proves the address decided. The pages are read in English (the French path asks for French itself).
CLIENT_ADDRESS, ADDRESS_COUNTRY, LANGUAGES = "195.233.174.116", "DE", "en-GB,en;q=0.9"


class Abort(Exception):
    """A scenario cannot go on; its failed check has been reported."""


def need(ok, name, detail=""):
    """A check the rest of the scenario depends on."""
    if not report(bool(ok), name, detail if not ok else ""):
        raise Abort(name)


def check(ok, name, detail=""):
    return report(bool(ok), name, detail if not ok else "")


def missing_routes(base, paths):
    """The paths among `paths` that a plain GET (no cookie) answers 404 or 5xx, with their status."""
    host, port = urlsplit(base).hostname, urlsplit(base).port
    missing = []
    for path in paths:
        conn = http.client.HTTPConnection(host, port, timeout=10)
        try:
            conn.request("GET", path)
            status = conn.getresponse().status
        except OSError as error:
            status = repr(error)
        finally:
            conn.close()
        if status == 404 or not isinstance(status, int) or status >= 500:
            missing.append(f"GET {path} answered {status}")
    return missing


class Browser:
    """One headless Chromium window of `width` x `height`, its screenshots named `label`-NN-step.png."""

    def __init__(self, base, width, height, label, shots, javascript=True, prompts=False):
        self.base, self.label, self.shots, self.width, self.height = base, label, shots, width, height
        self.counter = itertools.count(1)
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--window-size={width},{height}", "--lang=en-GB", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync"):
            options.add_argument(argument)
        options.add_experimental_option("prefs", {"intl.accept_languages": "en-GB,en",
                                                  "profile.managed_default_content_settings.javascript": 1 if javascript else 2})
        options.unhandled_prompt_behavior = "ignore"  # confirm dialogs are answered by the scenarios
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for CSP refusals and script errors
        options.enable_bidi = prompts
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        # With `prompts`, the type of each dialog the page opened, in order (WebDriver BiDi's events).
        self.prompts = []
        if prompts:
            self.driver.browsing_context.add_event_handler("user_prompt_opened", lambda prompt: self.prompts.append(prompt.type))
        self.driver.set_page_load_timeout(30)
        self.driver.set_script_timeout(60)
        # The page's own viewport, whatever room the headless window's frame takes; a phone is a
        # mobile viewport (the page's <meta name=viewport> applies).
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        self.driver.execute_cdp_cmd("Network.enable", {})
        self.driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {
            "X-Forwarded-For": CLIENT_ADDRESS, "Accept-Language": LANGUAGES}})

    def quit(self):
        try:
            self.driver.quit()
        except WebDriverException:
            pass

    # --- where we are ---------------------------------------------------------------------------

    @property
    def path(self):
        return urlsplit(self.driver.current_url).path

    @property
    def query(self):
        return urlsplit(self.driver.current_url).query

    def where(self):
        """The page in a few words, for a failure's detail."""
        try:
            heading = self.driver.execute_script("const h = document.querySelector('h1'); return h ? h.textContent : ''")
            return f"at {self.driver.current_url} (title {self.driver.title!r}, h1 {(heading or '').strip()[:80]!r})"
        except WebDriverException as error:
            return f"at an unknown page ({error.msg})"

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text

    # --- finding --------------------------------------------------------------------------------

    def find(self, css, timeout=WAIT, visible=False):
        """The first element matching `css`, waiting for it; else an Abort naming it and the page."""
        condition = expected_conditions.visibility_of_element_located if visible else expected_conditions.presence_of_element_located
        try:
            return WebDriverWait(self.driver, timeout).until(condition((By.CSS_SELECTOR, css)))
        except TimeoutException:
            raise Abort(f"no {css} {self.where()}") from None

    def finds(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def has(self, css):
        return bool(self.finds(css))

    # --- doing ----------------------------------------------------------------------------------

    def go(self, path):
        self.driver.get(self.base + path)

    def fill(self, name, value, within=None):
        """Types `value` into the field named `name` (in the form `within`, a CSS selector, if given)."""
        field = self.find(f"{within + ' ' if within else ''}[name='{name}']")
        if field.tag_name == "select":
            Select(field).select_by_value(value)
            return field
        field.clear()
        field.send_keys(value)
        return field

    def navigating(self, action, timeout=WAIT):
        """Runs `action` (a click, a submit) and waits for the next page to have loaded."""
        old = self.driver.find_element(By.TAG_NAME, "html")
        action()
        self.answer_confirm()
        try:
            WebDriverWait(self.driver, timeout).until(expected_conditions.staleness_of(old))
            WebDriverWait(self.driver, timeout).until(
                lambda driver: driver.execute_script("return document.readyState") == "complete")
        except TimeoutException:
            raise Abort(f"no new page after the action {self.where()}") from None

    def click(self, css):
        """Clicks the element `css` and waits for the page it leads to."""
        element = self.find(css, visible=True)
        self.navigating(lambda: self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
                        or element.click())

    def submit(self, form_css):
        """Presses the submit button of the form `form_css` and waits for the answer's page."""
        form = self.find(form_css)
        buttons = form.find_elements(By.CSS_SELECTOR, "button:not([type=button]):not([type=reset]), input[type=submit]")
        if not buttons:  # a button outside the form, tied by form=ID
            form_id = form.get_attribute("id")
            buttons = self.finds(f"button[form='{form_id}'], input[type=submit][form='{form_id}']") if form_id else []
        if not buttons:
            raise Abort(f"no submit button in {form_css} {self.where()}")
        button = buttons[0]
        self.navigating(lambda: self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
                        or button.click())

    def answer_confirm(self, accept=True):
        """Accepts (or dismisses) a confirm dialog if the page opened one."""
        try:
            WebDriverWait(self.driver, 0.5).until(expected_conditions.alert_is_present())
        except TimeoutException:
            return False
        alert = self.driver.switch_to.alert
        alert.accept() if accept else alert.dismiss()
        return True

    def press(self, *keys):
        """Keys sent to whatever has the focus, as a keyboard would."""
        webdriver.ActionChains(self.driver).send_keys(*keys).perform()

    def focused(self):
        """The focused element's (tag, id, name)."""
        return tuple(self.driver.execute_script(
            "const e = document.activeElement; return [e.tagName.toLowerCase(), e.id || '', e.getAttribute('name') || '']"))

    # --- recording ------------------------------------------------------------------------------

    def shot(self, step):
        name = f"{self.label}-{next(self.counter):02d}-{re.sub(r'[^a-z0-9]+', '-', step.lower()).strip('-')}.png"
        try:
            self.driver.save_screenshot(os.path.join(self.shots, name))
        except WebDriverException:
            pass

    def phone_shot(self, step, width=390, height=844):
        """The page this window shows, as a phone shows it: a mobile viewport for one screenshot, then back."""
        metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": True}
        try:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
            self.shot(f"{step} phone")
        finally:
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": self.width, "height": self.height, "deviceScaleFactor": 1, "mobile": self.width < 600})

    def console_errors(self):
        """The console's errors since the last call (a refused script, style or image, a script error)."""
        try:
            entries = self.driver.get_log("browser")
        except WebDriverException:
            return []
        return [entry["message"] for entry in entries if entry.get("level") == "SEVERE" and not ignorable(entry["message"])]

    def page(self, name, accessibility=True):
        """A page of the path: a screenshot, no error in the console, and axe-core's serious and
        critical violations as one check."""
        self.shot(name)
        errors = self.console_errors()
        check(not errors, f"{self.label} {name}: no error in the console", " | ".join(errors)[:600])
        if not accessibility:
            return
        try:
            violations = self.violations()
        except (JavascriptException, WebDriverException) as error:
            check(False, f"axe {self.label} {name}", f"axe-core could not run {self.where()}: {error.msg}")
            return
        bad = [v for v in violations if v.get("impact") in ("serious", "critical")]
        detail = "; ".join(f"{v['impact']} {v['id']} x{len(v['nodes'])}: "
                           + ", ".join(" ".join(node["target"]) for node in v["nodes"][:3]) for v in bad)
        check(not bad, f"axe {self.label} {name}: no serious or critical violation", f"{self.path}: {detail}")

    def violations(self):
        """axe-core's violations on this page (the script selenium-axe-python bundles, injected here)."""
        axe = Axe(self.driver)
        axe.inject()
        results = axe.run()
        if not results.get("passes") and not results.get("violations"):
            raise WebDriverException("axe-core checked nothing")
        return results.get("violations", [])

    def fits_width(self, name):
        """On a phone: nothing wider than the screen (no sideways scrolling)."""
        scroll, inner = self.driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        check(scroll <= inner + 1, f"{self.label} {name}: fits the width", f"content {scroll}px wide in {inner}px")


def ignorable(message):
    """A console error that says nothing about the page: a refused form's page answered 4xx (its
    own document), or the favicon the browser asks for on its own."""
    match = re.match(r"(\S+) - Failed to load resource", message)
    return bool(match) and ("/favicon.ico" in match.group(1) or (
        match.group(1).startswith("http://127.0.0.1:") and "/static/" not in match.group(1)
        and not re.search(r"\.(png|jpe?g|svg|gif|webp)$", match.group(1))))


def wait_until(predicate, timeout=WAIT):
    """Polls `predicate` until it is true; returns its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


__all__ = ["Abort", "Browser", "Keys", "check", "need", "missing_routes", "wait_until", "ADDRESS_COUNTRY", "CLIENT_ADDRESS",
           "LANGUAGES"]
