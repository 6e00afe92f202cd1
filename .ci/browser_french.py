"""Issue 19 in the browser: the main path read in French ("Bibliothèque"), as a browser asking for
Canadian French sees it. Signs up in French (a weak password refused in French first), searches,
bookmarks, borrows (a refused borrow said in French), reads My loans with French dates, then
every page of the main path is read for English words that must not be left: the visible text,
and the placeholders, labels, button values and titles a screen reader or a hover shows. What
comes from the data (book titles, authors, names, Open Library's results) is left out.
"""

import re

from browser_kit import CLIENT_ADDRESS, LANGUAGES, check, need
from browser_scenarios import MEMBER_PASSWORD, log_out, pages_there
from faultlib import add_book

FRENCH = "fr-CA,fr;q=0.9,en;q=0.5"

# Whole words (or phrases), case-insensitive, that a French page must not show.
ENGLISH = ["sign up", "log in", "log out", "search", "loans", "loan", "borrow", "return", "renew", "password", "the",
           "your", "my", "book", "books", "copies", "copy", "hold", "holds", "due", "waiting", "available", "account",
           "notices", "bookmark", "bookmarks", "and", "of", "with", "nothing", "there is"]
ENGLISH_WORD = re.compile(r"(?<![\w’'-])(" + "|".join(re.escape(w) for w in ENGLISH) + r")(?![\w’'-])", re.IGNORECASE)
FRENCH_DAY = re.compile(r"\b\d{1,2} (janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|"
                        r"décembre) \d{4}\b")

# The page's own words: its visible text and what a screen reader or a hover shows, without the
# data (titles, authors, names, descriptions, Open Library's results); titles in « » are data too.
PAGE_WORDS = """
const page = document.body.cloneNode(true);
page.querySelectorAll(`a.book-title, .result-title, .authors, .book-detail h1, .description, #account-name,
  #account-email, #account-username, .visually-hidden, td a[href^='/books/'], th a[href^='/books/'], script, style,
  .last-checkout, input[type=hidden]`).forEach((e) => e.remove());
const shown = [];
page.querySelectorAll("[placeholder], [aria-label], [title], [alt], input[type=submit], input[type=button]").forEach((e) => {
  for (const name of ["placeholder", "aria-label", "title", "alt", "value"]) {
    if (e.hasAttribute(name) && (name !== "value" || e.matches("input[type=submit], input[type=button]"))) shown.push(e.getAttribute(name));
  }
});
document.body.appendChild(page);
page.style.position = "absolute";
const text = page.innerText;
page.remove();
const typed = (document.querySelector("input[type=search]") || {}).value || "";
return [text, shown.join("\\n"), typed ? document.title.replace(typed, "") : document.title];
"""


def speak(b, languages):
    """The browser's Accept-Language from now on."""
    b.driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {
        "X-Forwarded-For": CLIENT_ADDRESS, "Accept-Language": languages}})


def english_left(b):
    """The English words the page shows, with where they were found."""
    text, shown, title = b.driver.execute_script(PAGE_WORDS)
    found = []
    for where, words in (("text", text), ("attributes", shown), ("title", title)):
        words = re.sub(r"«[^»]*»|“[^”]*”", " ", words)
        for match in ENGLISH_WORD.finditer(words):
            start = max(0, match.start() - 30)
            found.append(f"{match.group(0)!r} in {where}: …{words[start:match.end() + 30]!r}…".replace("\n", " "))
    return found


def in_french(b, name):
    """One page of the path: in French (<html lang=fr>, the French site name), no English word left."""
    b.page(f"french {name}")
    lang = b.driver.execute_script("return document.documentElement.lang")
    check(lang == "fr" and "Bibliothèque" in b.driver.title, f"french {name}: the page is in French",
          f"lang={lang!r}, title={b.driver.title!r} {b.where()}")
    left = english_left(b)
    check(not left, f"french {name}: no English word left", "; ".join(left[:6]) + f" {b.where()}")


def french_path(world):
    """Sign up in French, search, bookmark, a refused borrow, My loans with French dates, every page read."""
    b = world.desktop
    pages_there(world, "french", ["/", "/signup", "/search", "/books", "/loans", "/holds", "/notices", "/account"])
    prince = add_book(world.port, world.librarian, "Le Petit Prince", copies=2, author="Antoine de Saint-Exupéry")
    lone = add_book(world.port, world.librarian, "L'Étranger", copies=1, author="Albert Camus")
    speak(b, FRENCH)
    try:
        b.driver.delete_all_cookies()
        b.go("/")
        in_french(b, "landing")
        b.click("a#signup-cta")
        in_french(b, "signup")
        email = "lectrice@example.org"
        b.fill("email", email)
        b.fill("displayName", "Renée Lectrice")
        b.fill("password", "motdepasse")
        b.submit("form:has([name='password'])")
        need(b.has("#error-summary"), "french signup: a weak password is refused", b.where())
        summary = b.find("#error-summary").text
        check("Mot de passe" in summary and "problème" in summary, "french signup: the refusal is worded in French",
              repr(summary[:300]))
        in_french(b, "signup refused")
        b.fill("email", email)
        b.fill("displayName", "Renée Lectrice")
        b.fill("password", MEMBER_PASSWORD)
        b.submit("form:has([name='password'])")
        need(b.path == "/search" and b.has("form#logout"), "french signup: signed up, on Home", b.where())
        check("Bienvenue à la bibliothèque, Renée Lectrice." in b.text(), "french signup: welcomed in French",
              b.where())
        in_french(b, "home")

        b.fill("q", "lord of the rings")
        b.submit("form#search")
        if check(b.has("li.result"), "french search: results", b.where()):
            in_french(b, "search results")
            b.submit("li.result form.bookmark")
            b.go("/bookmarks")
            in_french(b, "bookmarks")

        b.go("/books")
        in_french(b, "catalogue")
        b.go(f"/books/{lone}")
        in_french(b, "book")
        need(b.has("form#borrow"), "french borrow: the book offers Emprunter", b.where())
        # Someone else takes the only copy while the page is open: the borrow is refused, in French.
        other = world.api("POST", "/users", {"email": "autre@example.org", "password": MEMBER_PASSWORD, "country": "FR"},
                          anonymous=True)
        world.api("POST", "/loans", {"bookIds": [lone]}, token=other["token"])
        b.submit("form#borrow")
        flash = b.finds("#flash.refused")
        said = flash[0].text if flash else ""
        # (Selenium reads a no-break space as a space.)
        check("exemplaire" in said and re.search(r"«\s+L'Étranger\s+»", said) and not ENGLISH_WORD.search(
            said.replace("L'Étranger", "")), "french borrow: the refusal is said in French", f"{said!r} {b.where()}")
        in_french(b, "borrow refused")

        b.go(f"/books/{prince}")
        b.submit("form#borrow")
        b.go("/loans")
        in_french(b, "my loans")
        row = b.finds("#current-loans tr.loan")
        due = row[0].text if row else ""
        check("À rendre le" in due and FRENCH_DAY.search(due), "french loans: the due date is written in French",
              f"{due!r} {b.where()}")
        for path, name in (("/holds", "my holds"), ("/notices", "notices"), ("/account", "account")):
            b.go(path)
            in_french(b, name)
        check("Français" in b.find("#account-language").text, "french account: French is the saved language",
              b.where())
        b.go("/nowhere-at-all")
        in_french(b, "page not found")

        # The switcher, without any script: English, then back to French, on the same page.
        b.go("/loans")
        b.click("#language a[hreflang='en']")
        check(b.path == "/loans" and b.driver.execute_script("return document.documentElement.lang") == "en",
              "french switcher: English on the same page", b.where())
        b.click("#language a[hreflang='fr']")
        check(b.path == "/loans" and b.driver.execute_script("return document.documentElement.lang") == "fr",
              "french switcher: back to French", b.where())
        log_out(b)
        b.go("/login")
        in_french(b, "login")
    finally:
        b.driver.delete_all_cookies()
        speak(b, LANGUAGES)
