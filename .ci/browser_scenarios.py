"""The scenarios of issue 17's "Tests", walked in the browser as a new user would. Each is a
function of the `World` (the server, its fakes, a desktop and a phone browser, the accounts made so
far); each starts by asking for the pages it needs, so that a page not built yet is a clear failure
("page missing"), never a silent skip. The data a scenario needs but does not show being made
(books, another member's loan) is seeded through the API.
"""

import json
import time

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By

from browser_kit import ADDRESS_COUNTRY, Abort, Browser, Keys, check, missing_routes, need, wait_until
from faultlib import LIBRARIAN, add_book, call, log_in

MEMBER_PASSWORD = "Reader-Pass1!"


class World:
    def __init__(self, port, fakes, desktop, phone):
        self.port, self.base = port, f"http://127.0.0.1:{port}"
        self.openlibrary, self.ipinfo, self.countries = fakes
        self.desktop, self.phone = desktop, phone
        self.librarian = log_in(port, *LIBRARIAN)
        self.member = None  # the email the desktop signed up with
        self.book_ids = {}

    def book(self, title, copies=1):
        self.book_ids[title] = add_book(self.port, self.librarian, title, copies=copies, author="Browser Tester")
        return self.book_ids[title]

    def api(self, method, path, body=None, token=None, anonymous=False):
        """An API call (as the librarian unless `token` or `anonymous`) whose failure ends the scenario."""
        status, _, data = call(self.port, method, "/api/v1" + path, body, None if anonymous else token or self.librarian)
        if status >= 300:
            raise Abort(f"seeding {method} {path}: {status} {data[:200]!r}")
        return json.loads(data) if data else None


def pages_there(world, scenario, paths):
    """One check: every page the scenario uses answers (anything but 404 or 5xx)."""
    missing = missing_routes(world.base, paths)
    need(not missing, f"{scenario}: its pages exist", "page missing: " + "; ".join(missing))


def log_in_page(browser, email, password, name="log in"):
    """Logs in through the form, from a browser without a session."""
    browser.driver.delete_all_cookies()
    browser.go("/login")
    browser.fill("email", email)
    browser.fill("password", password)
    browser.submit("form:has([name='password'])")
    need(browser.has("form#logout"), f"{browser.label} {name}: logged in as {email}", browser.where())


def log_out(browser):
    browser.submit("form#logout")


def as_member(world):
    """The desktop logged in as the member `signup` made (made through the API if signup failed)."""
    b = world.desktop
    if world.member is None or call(world.port, "POST", "/api/v1/sessions",
                                    {"email": world.member, "password": MEMBER_PASSWORD})[0] >= 300:
        world.member = "reader-api@example.org"
        world.api("POST", "/users", {"email": world.member, "password": MEMBER_PASSWORD, "displayName": "Api Reader",
                                     "country": "FR"}, anonymous=True)
    b.go("/search")
    if not b.has("form#logout"):
        log_in_page(b, world.member, MEMBER_PASSWORD, name="member")


# --- the librarian -------------------------------------------------------------------------------


def librarian_catalogue(world):
    """Add, edit, multi-delete and delete-all with confirmation, check out by name (walk-in)."""
    b = world.desktop
    pages_there(world, "librarian", ["/login", "/books", "/books/new", "/books/delete-all", "/desk"])
    log_in_page(b, *LIBRARIAN, name="librarian")
    b.go("/books/new")
    b.page("add book")
    for name, value in [("title", "Browser Book"), ("authors", "Ada Tester, Bob Writer"), ("isbn", "9780140328721"),
                        ("publisher", "Loopback Press"), ("categories", "test"), ("copies", "2"),
                        ("description", "Made by the browser tests.")]:
        b.fill(name, value)
    b.submit("form:has([name='title'])")
    need(b.path.startswith("/books/") and "Browser Book" in b.text(), "librarian: a book is added", b.where())
    book = b.path.split("/")[2]
    b.page("book added (detail)")
    b.click("a#edit-book")
    need(b.path == f"/books/{book}/edit", "librarian: the edit form opens", b.where())
    b.fill("title", "Browser Book, Revised")
    b.submit("form:has([name='title'])")
    check("Browser Book, Revised" in b.text(), "librarian: the edit is shown", b.where())
    leaving_unsaved_changes(world, book)

    doomed = [world.book("Delete Me One"), world.book("Delete Me Two")]
    b.go("/books")
    b.page("catalogue (librarian)")
    boxes = b.finds("form#bulk-delete input[name='book']")
    b.find("#select-all").click()
    check(boxes and all(box.is_selected() for box in boxes), "librarian: select all ticks every book of the page",
          f"{sum(box.is_selected() for box in boxes)} of {len(boxes)} ticked")
    b.find("#select-all").click()
    check(not any(box.is_selected() for box in boxes), "librarian: select all again unticks them", b.where())
    for book_id in doomed:
        b.find(f"form#bulk-delete input[name='book'][value='{book_id}']").click()
    b.submit("form#bulk-delete")
    b.go("/books")
    titles = b.text()
    check("Delete Me One" not in titles and "Delete Me Two" not in titles and "Browser Book, Revised" in titles,
          "librarian: two selected books are deleted, the others stay", b.where())

    b.click("a#delete-all")
    need(b.path == "/books/delete-all", "librarian: delete-all asks for a typed confirmation", b.where())
    b.page("delete all")
    b.fill("confirm", "delete")
    b.submit("form:has([name='confirm'])")
    b.go("/books")
    check(b.has("article.book"), "librarian: delete-all with a wrong confirmation deletes nothing", b.where())
    b.click("a#delete-all")
    b.fill("confirm", "DELETE ALL")
    b.submit("form:has([name='confirm'])")
    b.go("/books")
    check(not b.has("article.book"), "librarian: delete-all with 'DELETE ALL' empties the catalogue", b.where())

    walk_in = world.book("Walk-in Book")
    b.go(f"/books/{walk_in}")
    b.fill("name", "Mrs Hudson", within="form#walk-in")
    b.submit("form#walk-in")
    b.go(f"/books/{walk_in}")
    check("Mrs Hudson" in b.text(), "librarian: a walk-in checkout by name shows the borrower", b.where())
    b.shot("walk-in done")
    log_out(b)


def leaving_unsaved_changes(world, book):
    """Leaving a form with unsaved changes asks first. ChromeDriver accepts a beforeunload dialog by
    itself, so it is seen through WebDriver BiDi's prompt events, in a window of its own."""
    b = Browser(world.base, 1280, 900, "prompts", world.desktop.shots, prompts=True)
    try:
        log_in_page(b, *LIBRARIAN, name="librarian (a second window)")
        b.go(f"/books/{book}/edit")
        b.find("[name='title']").click()  # a gesture, no change
        b.go("/books")
        check(not b.prompts, "librarian: leaving an unchanged form asks nothing", f"prompts: {b.prompts}")
        b.go(f"/books/{book}/edit")
        b.fill("title", "Never Saved")  # typed: a user's gesture, without which Chromium asks nothing
        b.go("/books")
        asked = wait_until(lambda: "beforeunload" in b.prompts, timeout=3)
        check(asked, "librarian: leaving a form with unsaved changes asks first", f"prompts: {b.prompts}; {b.where()}")
    finally:
        b.quit()


# --- a new member --------------------------------------------------------------------------------


def sign_up(world):
    """Sign up with a weak then a good password; the country is preselected from the address."""
    b = world.desktop
    pages_there(world, "signup", ["/", "/signup", "/search"])
    b.driver.delete_all_cookies()
    b.go("/")
    need(b.has("a#signup-cta"), "signup: the landing page calls to sign up", b.where())
    b.page("landing")
    b.click("a#signup-cta")
    need(b.path == "/signup", "signup: the call to action opens the form", b.where())
    b.page("signup")
    country = b.find("select#country").get_attribute("value")
    check(country == ADDRESS_COUNTRY, f"signup: the country is preselected from the address ({ADDRESS_COUNTRY})",
          f"{country!r} is selected; IPinfo was asked {world.ipinfo.requests}")
    email = world.member = "reader@example.org"
    b.fill("email", email)
    b.fill("displayName", "Rita Reader")
    rules_before = b.find("#password-rules").get_attribute("outerHTML")
    b.fill("password", "password")
    rules_weak = b.find("#password-rules").get_attribute("outerHTML")
    b.fill("password", MEMBER_PASSWORD)
    rules_good = wait_until(lambda: b.find("#password-rules").get_attribute("outerHTML") != rules_weak and
                            b.find("#password-rules").get_attribute("outerHTML"))
    check(rules_weak != rules_before and rules_good, "signup: the password rules follow the typing",
          "the rules list did not change as the password was typed")
    b.fill("password", "password")
    b.submit("form:has([name='password'])")
    need(b.has("#error-summary"), "signup: a weak password is refused with an error summary", b.where())
    check(b.focused()[1] == "error-summary", "signup: the focus moves to the error summary", f"focus on {b.focused()}")
    described = b.find("[name='password']").get_attribute("aria-describedby") or ""
    check(b.has("#password-error") and "password-error" in described,
          "signup: the password's error is linked to its field", f"aria-describedby={described!r}")
    b.page("signup weak password")
    b.fill("email", email)
    b.fill("displayName", "Rita Reader")
    b.fill("password", MEMBER_PASSWORD)
    b.submit("form:has([name='password'])")
    need(b.path == "/search" and b.has("form#logout"), "signup: a good password lands on Home, logged in", b.where())


def keyboard_sign_up(world):
    """Sign up with the keyboard alone: Tab to each field, type, Enter."""
    b = world.desktop
    pages_there(world, "keyboard signup", ["/signup"])
    b.driver.delete_all_cookies()
    b.go("/signup")
    values = {"email": "keys@example.org", "password": "Keyboard-Pass1!", "displayName": "Kay Board"}
    pending, seen = dict(values), []
    for _ in range(60):
        b.press(Keys.TAB)
        tag, ident, name = b.focused()
        seen.append(name or ident or tag)
        if name in pending:
            b.press(pending.pop(name))
        if not pending:
            break
    need(not pending, "keyboard signup: Tab reaches every field", f"not reached {list(pending)}; went through {seen}")
    b.shot("keyboard signup filled")
    b.navigating(lambda: b.press(Keys.ENTER))
    need(b.path == "/search" and b.has("form#logout"), "keyboard signup: Enter signs up and lands on Home", b.where())


# --- Open Library search and bookmarks -----------------------------------------------------------


def result_keys(b):
    return [element.get_attribute("data-key") for element in b.finds("li.result")]


def search_and_bookmarks(world):
    """Search "lord of the rings", sort by rating, a second page, bookmark two, see them, remove one."""
    b = world.desktop
    pages_there(world, "search", ["/search"])
    as_member(world)
    b.go("/search")
    b.fill("q", "lord of the rings")
    b.navigating(lambda: b.press(Keys.ENTER))
    check(b.find("#q").get_attribute("value") == "lord of the rings", "search: the query stays as typed",
          f"the field says {b.find('#q').get_attribute('value')!r}; Open Library was asked {world.openlibrary.searches[-1:]}")
    if not check(b.has("li.result"), "search: the form's search lists results",
                 f"{b.where()}; Open Library was asked {world.openlibrary.searches[-1:]}"):
        b.go("/search?q=lord%20of%20the%20rings")  # the rest of the path, past that failure
    need(b.has("li.result"), "search: results are listed", f"{b.where()}; Open Library was asked {world.openlibrary.searches[-1:]}")
    count = b.find("#result-count").text
    check("473" in count.replace(",", "").replace(" ", "").replace("\u202f", ""), "search: the result count is shown",
          f"#result-count says {count!r}")
    covers = wait_until(lambda: b.driver.execute_script(
        "return [...document.querySelectorAll('li.result img')].filter(i => i.complete && i.naturalWidth > 0).length"))
    check(covers, "search: covers are shown", "no cover image loaded in the results")
    b.page("search results")
    sort = b.find("#sort")
    html = b.driver.find_element(By.TAG_NAME, "html")
    b.fill("sort", "rating")  # the page submits the choice at once; without JavaScript, its form's button does
    if not wait_until(lambda: stale(html), timeout=3):
        b.navigating(lambda: b.driver.execute_script("arguments[0].form.requestSubmit()", sort))
    wait_until(lambda: b.driver.execute_script("return document.readyState") == "complete")
    need("sort=rating" in b.query, "search: sorted by rating", b.where())
    if not b.has("li.result"):
        b.go("/search?q=lord%20of%20the%20rings&sort=rating")  # the rest of the path, past the failure above
    first = result_keys(b)[:1]
    check(first and first[0].endswith("OL8527426W"), "search: the best rated comes first",
          f"first is {first}, expected /works/OL8527426W")
    b.page("search by rating")
    page_one = result_keys(b)
    link = b.find("a#load-more", visible=True)
    link.click()
    b.answer_confirm()
    wait_until(lambda: len(result_keys(b)) > len(page_one) or "offset=" in b.query)
    page_two = [key for key in result_keys(b) if key not in page_one]
    check(page_two, "search: load more brings the next page", f"no new result after a#load-more {b.where()}")
    b.shot("search second page")

    b.go("/search?q=lord%20of%20the%20rings&sort=rating")
    chosen = result_keys(b)[:2]
    need(len(chosen) == 2, "search: two results to bookmark", b.where())
    for key in chosen:
        if not b.has(f"li.result[data-key='{key}']"):
            b.go("/search?q=lord%20of%20the%20rings&sort=rating")
        b.submit(f"li.result[data-key='{key}'] form.bookmark")
    pages_there(world, "bookmarks", ["/bookmarks"])
    b.go("/bookmarks")
    b.page("bookmarks")
    shown = [key for key in chosen if work_id(key) in b.driver.page_source]
    need(shown == chosen, "bookmarks: both bookmarked works are listed", f"listed {shown} of {chosen}")
    removed = b.driver.execute_script(
        "const id = arguments[0]; return [...document.querySelectorAll(\"form[action$='/bookmarks/remove']\")]"
        ".findIndex(f => (f.querySelector(\"[name='key']\") || {}).value.endsWith(id))", work_id(chosen[0]))
    need(removed >= 0, "bookmarks: each has a remove button", b.where())
    b.submit(f"form[action$='/bookmarks/remove']:has([name='key'][value$='{work_id(chosen[0])}'])")
    b.go("/bookmarks")
    source = b.driver.page_source
    check(work_id(chosen[0]) not in source and work_id(chosen[1]) in source, "bookmarks: one removed, the other stays",
          b.where())


def stale(element):
    """Whether the page that held `element` has been left."""
    try:
        element.is_enabled()
        return False
    except StaleElementReferenceException:
        return True


def work_id(key):
    return (key or "").rstrip("/").split("/")[-1]


# --- borrowing -----------------------------------------------------------------------------------


def basket_and_loans(world):
    """Borrow two catalogue books at once, see them in My loans, renew, return."""
    b = world.desktop
    pages_there(world, "loans", ["/books"])
    as_member(world)
    books = [world.book("Basket Book Alpha", copies=2), world.book("Basket Book Beta", copies=2)]
    b.go("/books")
    b.page("catalogue")
    for book in books:
        b.find(f"form#basket input[name='book'][value='{book}']").click()
    b.click("#borrow-selected")
    pages_there(world, "my loans", ["/loans"])
    b.go("/loans")
    b.page("my loans")
    text = b.text()
    need("Basket Book Alpha" in text and "Basket Book Beta" in text and len(b.finds("tr.loan")) >= 2,
         "loans: both books borrowed at once are in My loans", b.where())
    alpha = next(row.get_attribute("data-id") for row in b.finds("tr.loan") if "Basket Book Alpha" in row.text)
    beta = next(row.get_attribute("data-id") for row in b.finds("tr.loan") if "Basket Book Beta" in row.text)
    due_before = b.find(f"tr.loan[data-id='{alpha}']").text
    b.submit(f"tr.loan[data-id='{alpha}'] form[action$='/renew']")
    b.shot("renewed")
    b.go("/loans")
    check(b.find(f"tr.loan[data-id='{alpha}']").text != due_before, "loans: a renewal changes the loan's row",
          f"row still {due_before!r}")
    b.submit(f"tr.loan[data-id='{beta}'] form[action$='/return']")
    b.go("/loans")
    check(not b.has(f"tr.loan[data-id='{beta}'] form[action$='/return']"), "loans: a returned loan can no longer be returned",
          b.where())
    b.shot("returned")
    active = len(b.finds("tr.loan:not(.returned)"))
    many = [world.book(f"Limit Book {n}", copies=1) for n in range(6 - active)]
    b.go("/books?q=Limit%20Book")
    for book in many:
        b.find(f"form#basket input[name='book'][value='{book}']").click()
    b.click("#borrow-selected")
    said = " ".join(element.text for element in b.finds("#flash, #error-summary"))
    b.shot("basket refused")
    check("5" in said, "loans: a basket past the limit of 5 is refused, the rule named", f"{b.where()}: {said!r}")
    b.go("/loans")
    check(len(b.finds("tr.loan:not(.returned)")) == active, "loans: a refused basket borrows nothing (all or nothing)",
          f"{len(b.finds('tr.loan:not(.returned)'))} loans, {active} before")


def share_page(world):
    """The shared link's page carries Open Graph and Twitter card tags, for everyone."""
    b = world.desktop
    book = world.api("POST", "/books", {
        "title": "Shared Book", "authors": ["Sharon Link"], "copies": 1, "description": "A book worth passing on.",
        "coverUrl": world.openlibrary.url + "/b/id/8231856-L.jpg"})["id"]
    pages_there(world, "share", [f"/books/{book}"])
    b.go(f"/books/{book}")
    b.page("book detail")
    meta = b.driver.execute_script(
        "const m = {}; document.querySelectorAll('meta[property], meta[name]').forEach("
        "e => m[e.getAttribute('property') || e.getAttribute('name')] = e.content); return m")
    wanted = {"og:title": "Shared Book", "og:type": "book", "og:description": "passing on", "og:image": "8231856",
              "og:url": f"/books/{book}", "twitter:card": None, "twitter:description": "passing on", "book:author": "Sharon Link"}
    wrong = [f"{name}={meta.get(name)!r}" for name, part in wanted.items()
             if not meta.get(name) or (part and part not in meta[name])]
    check(not wrong, "share: the page has Open Graph and Twitter card tags", "; ".join(wrong))
    check("Sharon Link" in meta.get("og:description", "") and "Sharon Link" in meta.get("twitter:description", ""),
          "share: the preview's description names the author", f"{meta.get('og:description')!r}")
    check(b.has("#share") and b.has("#copy-link") and b.has("a[href^='mailto:']"),
          "share: share button, copy link and mail link", b.where())
    status, _, body = call(world.port, "GET", f"/books/{book}")
    check(status == 200 and b'og:title' in body, "share: the page opens without a login, tags included", f"{status}")
    hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    book = world.api("POST", "/books", {"title": hostile, "authors": ["<b>Bold</b>"], "copies": 1})["id"]
    b.go(f"/books/{book}")
    opened = b.answer_confirm(accept=False)
    check(not opened and b.find("h1").text == hostile, "share: a title with markup shows as text, nothing runs",
          f"dialog opened: {opened}; h1 {b.find('h1').text!r}")
    b.console_errors()  # the hostile image's failed load is expected


# --- sessions ------------------------------------------------------------------------------------


def log_out_and_back(world):
    """Log out, press Back: no private page."""
    b = world.desktop
    pages_there(world, "logout", ["/loans", "/login"])
    as_member(world)
    b.go("/loans")
    need(b.has("form#logout"), "logout: a logged-in page has a log-out form", b.where())
    log_out(b)
    check(b.path == "/", "logout: lands on the landing page", b.where())
    b.driver.back()
    wait_until(lambda: b.driver.execute_script("return document.readyState") == "complete")
    b.shot("back after logout")
    check(not b.has("tr.loan") and not b.has("form#logout") and "Basket Book" not in b.text(),
          "logout: Back shows no private page", b.where())


def log_in_again(world):
    """Log in again and land on Home; Back does not return to the login form."""
    b = world.desktop
    pages_there(world, "login", ["/login"])
    as_member(world)
    b.driver.delete_all_cookies()
    b.go("/login")
    b.page("login")
    b.fill("email", world.member)
    b.fill("password", MEMBER_PASSWORD)
    b.submit("form:has([name='password'])")
    need(b.path == "/search" and b.has("form#logout"), "login: lands on Home (/search)", b.where())
    cookie = b.driver.get_cookie("shelfmark_session") or {}
    days = (cookie.get("expiry", 0) - time.time()) / 86_400
    check(29 <= days <= 31 and cookie.get("httpOnly") and cookie.get("sameSite") == "Lax" and cookie.get("path") == "/",
          "login: the session cookie lasts 30 days, HttpOnly, SameSite=Lax, Path=/",
          f"{ {k: v for k, v in cookie.items() if k != 'value'} }")
    b.driver.back()
    wait_until(lambda: b.driver.execute_script("return document.readyState") == "complete")
    check(not b.has("input[name='password']"), "login: Back does not return to the login form", b.where())


def login_throttle(world):
    """Five wrong passwords, then the throttle's message with the time to wait, even for the right one."""
    b = world.desktop
    pages_there(world, "throttle", ["/login"])
    email = "forgetful@example.org"
    world.api("POST", "/users", {"email": email, "password": MEMBER_PASSWORD, "country": "FR"}, anonymous=True)
    b.driver.delete_all_cookies()
    for attempt in range(5):
        b.go("/login")
        b.fill("email", email)
        b.fill("password", f"Wrong-Pass{attempt}!")
        b.submit("form:has([name='password'])")
        need(b.has("#error-summary"), f"throttle: wrong password {attempt + 1} is refused", b.where())
    b.go("/login")
    b.fill("email", email)
    b.fill("password", MEMBER_PASSWORD)
    b.submit("form:has([name='password'])")
    summary = b.finds("#error-summary")
    said = summary[0].text if summary else ""
    check(summary and "try again" in said.lower() and not b.has("form#logout"),
          "throttle: after 5 failures the login says when to try again", f"{b.where()}: {said!r}")
    b.page("login throttled")


def reset_with_desk_code(world):
    """Forgot the password: the desk issues a code; the login page leads to the reset form; the code
    sets a new password (a wrong code is refused first); the member logs in with it."""
    b = world.desktop
    pages_there(world, "reset", ["/login", "/password-reset"])
    email = "reset.me@example.org"
    world.api("POST", "/users", {"email": email, "password": MEMBER_PASSWORD, "country": "FR"}, anonymous=True)
    issued = world.api("POST", f"/users/{email}/reset-code")
    code = issued.get("code", "")
    need(code, "reset: the desk's code is issued", f"{issued!r}"[:200])
    b.driver.delete_all_cookies()
    b.go("/login")
    need(b.has("a[href='/password-reset']"), "reset: the login page links to the reset form", b.where())
    b.click("a[href='/password-reset']")
    b.page("reset form")
    b.fill("email", email)
    b.fill("code", "AAAA-AAAA-AAAA")
    b.fill("new", "Brand-New-Pass1!")
    b.submit("form#reset")
    check(b.has("#error-summary") and b.path == "/password-reset", "reset: a wrong code is refused on the form", b.where())
    b.fill("code", code.lower())
    b.fill("new", "Brand-New-Pass1!")
    b.submit("form#reset")
    flash = b.finds("#flash")
    need(b.path == "/login" and flash and "log in with the new password" in flash[0].text.lower(),
         "reset: the code sets the new password and the login page says so", b.where())
    log_in_page(b, email, "Brand-New-Pass1!", "reset: logs in with the new password")
    log_out(b)  # the scenarios after this one expect the browser as they left it


# --- holds ---------------------------------------------------------------------------------------


def hold_ready_and_borrow(world):
    """A hold on a book whose copies are all out; the desk returns the copy; ready for pickup; borrowed."""
    b = world.desktop
    pages_there(world, "holds", ["/holds", "/desk"])
    book = world.book("Only Copy Book", copies=1)
    other = world.api("POST", "/users", {"email": "other@example.org", "password": MEMBER_PASSWORD, "country": "FR"},
                      anonymous=True)
    loan = world.api("POST", "/loans", {"bookIds": [book]}, token=other["token"])["loans"][0]["id"]
    as_member(world)
    b.go(f"/books/{book}")
    need(b.has("form#place-hold") and not b.has("form#borrow"), "holds: a book with no copy on the shelf offers a hold",
         b.where())
    b.submit("form#place-hold")
    b.go(f"/books/{book}")
    position = b.finds("#hold-status")
    check(position and "1" in position[0].text, "holds: the book's page gives the member's place in the queue",
          b.where())
    b.go("/holds")
    b.page("my holds")
    need("Only Copy Book" in b.text(), "holds: the hold is in My holds", b.where())

    log_in_page(b, *LIBRARIAN, name="desk librarian")
    b.go("/desk")
    b.page("front desk")
    # Found by looking at the desk: each book's checkbox stretched the form's width, a line above its title.
    boxes = b.finds("#books input[type=checkbox]")
    labels = b.finds("#books input[type=checkbox] + label")
    if boxes and labels:
        box, label = boxes[0].rect, labels[0].rect
        centre = box["y"] + box["height"] / 2
        check(box["width"] < 40 and label["y"] <= centre <= label["y"] + label["height"],
              "desk: a book's checkbox sits beside its title", f"checkbox {box}, label {label}")
    # Renewing at the desk a loan someone waits for: refused, with the reason, on the desk again.
    renew = f"form[action$='/desk/renew']:has([name='loan'][value='{loan}'])"
    need(b.has(renew), "desk: each loan out has a Renew button", b.where())
    b.submit(renew)
    flash = b.finds("#flash")
    check(b.path == "/desk" and flash and "cannot be renewed" in flash[0].text, "desk: a renewal refused says why", b.where())
    form = f"form[action$='/desk/return']:has([name='loan'][value='{loan}'])"
    if not b.has(form):  # a form where the loan is typed in
        form = "form[action$='/desk/return']"
        b.fill("loan", loan, within=form)
    b.submit(form)
    b.shot("desk returned")

    log_in_page(b, world.member, MEMBER_PASSWORD, name="pickup member")
    b.go("/holds")
    ready = b.finds(".hold.ready")
    need(ready and "ready for pickup" in ready[0].text.lower(), "holds: the member sees ready for pickup", b.where())
    b.page("hold ready")
    b.submit(".hold.ready form[action$='/loans']")
    b.go("/loans")
    check("Only Copy Book" in b.text(), "holds: the member borrows the held copy", b.where())


# The scenarios, in the order they run (each may rely on the ones before it: the member
# that `signup` made logs in again later). browser_paths.py adds the other widths and settings.
SCENARIOS = {
    "librarian": librarian_catalogue,
    "signup": sign_up,
    "search": search_and_bookmarks,
    "loans": basket_and_loans,
    "share": share_page,
    "logout": log_out_and_back,
    "login": log_in_again,
    "throttle": login_throttle,
    "reset": reset_with_desk_code,
    "holds": hold_ready_and_borrow,
    "keyboard": keyboard_sign_up,
}
