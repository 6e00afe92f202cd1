"""The main path again in other conditions: at phone width (390x844), with JavaScript off, in the
dark colour scheme and at 200% zoom; the pages off the main path; and the harness's own check that
axe-core, as run here, does find faults. Same `World` and helpers as browser_scenarios.py.
"""

from browser_french import french_path
from browser_french_librarian import french_librarian_path
from browser_kit import ADDRESS_COUNTRY, Browser, Keys, check, missing_routes, need, wait_until
from browser_scenarios import (MEMBER_PASSWORD, SCENARIOS, as_member, log_in_page, log_out, pages_there, result_keys,
                               work_id)
from faultlib import LIBRARIAN


# --- a phone -------------------------------------------------------------------------------------


def phone_main_path(world):
    """The main path at 390x844: landing, signup, search, bookmark, catalogue, borrow, loans, holds, login.
    A page missing here is one failed check; the path goes on with the next page."""
    b = world.phone
    pages_there(world, "phone", ["/", "/signup", "/search", "/books"])
    book = world.book("Phone Book", copies=3)
    b.driver.delete_all_cookies()
    b.go("/")
    b.page("landing")
    b.fits_width("landing")
    b.click("a#signup-cta")
    b.page("signup")
    b.fits_width("signup")
    b.fill("email", "phone@example.org")
    b.fill("displayName", "Pho Ne")
    b.fill("password", MEMBER_PASSWORD)
    b.submit("form:has([name='password'])")
    need(b.path == "/search", "phone: signed up, on Home", b.where())
    b.fill("q", "lord of the rings")
    b.navigating(lambda: b.press(Keys.ENTER))
    if not check(b.has("li.result"), "phone: the form's search lists results",
                 f"{b.where()}; Open Library was asked {world.openlibrary.searches[-1:]}"):
        b.go("/search?q=lord%20of%20the%20rings")  # the rest of the path, past that failure
    need(b.has("li.result"), "phone: search results", b.where())
    b.page("search results")
    b.fits_width("search results")
    key = result_keys(b)[0]
    b.submit(f"li.result[data-key='{key}'] form.bookmark")
    if phone_page(world, "/bookmarks", "bookmarks"):
        check(work_id(key) in b.driver.page_source, "phone: the bookmarked work is listed", b.where())
    phone_page(world, "/books", "catalogue")
    phone_page(world, f"/books/{book}", "book detail")
    b.submit("form#borrow")
    if phone_page(world, "/loans", "my loans"):
        check("Phone Book" in b.text(), "phone: the book borrowed is in My loans", b.where())
    phone_page(world, "/holds", "my holds")
    log_out(b)
    phone_page(world, "/login", "login")


def phone_page(world, path, name):
    """One page of the phone's path: there, screenshot, axe, no sideways scrolling; False when missing."""
    missing = missing_routes(world.base, [path])
    if not check(not missing, f"phone {name}: the page exists", "page missing: " + "; ".join(missing)):
        return False
    world.phone.go(path)
    world.phone.page(name)
    world.phone.fits_width(name)
    return True


def without_javascript(world):
    """The pages with JavaScript off: sign up, search, sort, the next page, bookmark, borrow, log out."""
    pages_there(world, "no JavaScript", ["/signup", "/search", "/books", "/loans"])
    book = world.book("Plain HTML Book", copies=2)
    b = Browser(world.base, 1280, 900, "nojs", world.desktop.shots, javascript=False)
    try:
        b.go("/signup")
        need(not b.has("#password-rules li[aria-label]"), "no JavaScript: the page's script did not run",
             "the live password rules were set up, so JavaScript is on")
        check(b.find("select#country").get_attribute("value") == ADDRESS_COUNTRY,
              "no JavaScript: the signup's country is preselected by the server", b.where())
        b.fill("email", "plain@example.org")
        b.fill("displayName", "Plain Reader")
        b.fill("password", MEMBER_PASSWORD)
        b.submit("form:has([name='password'])")
        need(b.path == "/search" and b.has("form#logout"), "no JavaScript: signed up, on Home", b.where())
        b.fill("q", "lord of the rings")
        b.fill("sort", "rating")
        b.submit("form#search")
        need(b.has("li.result") and "sort=rating" in b.query, "no JavaScript: search sorted by rating with the button",
             b.where())
        page_one = result_keys(b)
        b.click("a#load-more")
        check("offset=" in b.query and set(result_keys(b)) - set(page_one),
              "no JavaScript: load more opens the next page", b.where())
        key = result_keys(b)[0]
        b.submit(f"li.result[data-key='{key}'] form.bookmark")
        b.go("/bookmarks")
        check(work_id(key) in b.driver.page_source, "no JavaScript: a bookmark is kept", b.where())
        b.go("/books")
        b.find(f"form#basket input[name='book'][value='{book}']").click()
        b.click("#borrow-selected")
        b.go("/loans")
        check("Plain HTML Book" in b.text(), "no JavaScript: borrowed from the catalogue's basket", b.where())
        b.shot("loans")
        log_out(b)
        check(b.path == "/" and not b.has("form#logout"), "no JavaScript: logged out", b.where())
    finally:
        b.quit()


def dark_and_zoomed(world):
    """axe-core in the dark colour scheme (contrast AA there too), and the pages at 200% zoom (a
    640 px wide viewport at twice the pixels) without sideways scrolling."""
    b = world.desktop
    pages_there(world, "dark", ["/", "/search", "/books", "/loans"])
    as_member(world)
    book = world.book("Dark Book", copies=1)
    paths = [("landing", "/"), ("search results", "/search?q=lord%20of%20the%20rings"), ("catalogue", "/books"),
             ("book detail", f"/books/{book}"), ("my loans", "/loans"), ("my holds", "/holds"), ("bookmarks", "/bookmarks")]
    label = b.label
    try:
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        b.label = "dark"
        for name, path in paths:
            b.go(path)
            b.page(name)
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 640, "height": 450, "deviceScaleFactor": 2, "mobile": False})
        b.label = "zoom200"
        for name, path in paths:
            b.go(path)
            b.shot(name)
            b.fits_width(name)
    finally:
        b.label = label
        b.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
        b.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": 1280, "height": 900, "deviceScaleFactor": 1, "mobile": False})


def other_pages(world):
    """The pages off the main path, each with axe-core and the console: a member's notices and
    account (both widths), the librarian's desk, members, audit, import and book form."""
    member_pages = [("notices", "/notices"), ("account", "/account")]
    librarian_pages = [("front desk", "/desk"), ("members", "/members"), ("audit", "/audit"),
                       ("import", "/books/import"), ("add book", "/books/new")]
    pages_there(world, "other pages", [path for _, path in member_pages + librarian_pages])
    as_member(world)
    for name, path in member_pages:
        world.desktop.go(path)
        world.desktop.page(name)
    check(world.desktop.has("#card-number") and world.desktop.has("img#card-barcode[alt]") and wait_until(
        lambda: world.desktop.driver.execute_script("const i = document.getElementById('card-barcode'); "
                                                    "return i.complete && i.naturalWidth > 0")),
          "account: the library card number and its barcode", world.desktop.where())
    log_in_page(world.phone, world.member, MEMBER_PASSWORD, name="member")
    for name, path in member_pages:
        phone_page(world, path, name)
    log_in_page(world.desktop, *LIBRARIAN, name="librarian")
    for name, path in librarian_pages:
        world.desktop.go(path)
        world.desktop.page(name)
    world.desktop.driver.delete_all_cookies()


def openlibrary_down(world):
    """Open Library answering 500: the search page says so in words, and the catalogue still works.
    Last of all, as the adapter's circuit breaker then rests a while."""
    b = world.desktop
    pages_there(world, "openlibrary down", ["/search", "/books"])
    world.openlibrary.down = True
    try:
        b.go("/search?q=the%20hobbit")
        said = b.finds("#search-unavailable")
        check(said and "Open Library" in said[0].text and not b.has("li.result"),
              "openlibrary down: the search page says Open Library cannot be reached", b.where())
        b.page("search unavailable")
    finally:
        world.openlibrary.down = False
    b.go("/books")
    check(b.has("article.book"), "openlibrary down: the library's own catalogue still lists its books", b.where())


def axe_finds_faults(world):
    """The harness's own check: axe-core, as run here, does report a page with known faults."""
    b = world.desktop
    b.driver.get("data:text/html,<html><body><p style='color:%23777;background:%23888'>Faint text</p>"
                 "<input type='text'><img src='data:,'></body></html>")
    violations = b.violations()
    found = {v["id"] for v in violations if v.get("impact") in ("serious", "critical")}
    check({"color-contrast", "label", "image-alt"} <= found, "axe-core reports a page with known faults",
          f"it found {sorted(found)}")


# Every scenario in the order .ci/browser runs them: axe-core's own check first.
ALL = {
    "axe": axe_finds_faults,
    **SCENARIOS,
    "phone": phone_main_path,
    "nojs": without_javascript,
    "dark": dark_and_zoomed,
    "other": other_pages,
    "french": french_path,
    "french-librarian": french_librarian_path,
    "openlibrary-down": openlibrary_down,
}
