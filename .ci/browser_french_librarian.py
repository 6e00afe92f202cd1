"""Issue 19 in the browser, the librarian's side: the catalogue, the book form, import, delete all,
the front desk, members and the audit read in French as a browser asking for Canadian French sees
them, with no English word left, and a walk-in checkout and a refused delete-all said in French.
The data (titles, names, addresses, event names, the fields a history lists, what a log check found:
tables, SQL words, paths) is left out of the reading, as browser_french.py leaves it out: the world's
books have English titles.
"""

import re

from browser_french import ENGLISH, FRENCH, FRENCH_DAY, PAGE_WORDS, english_left, speak
from browser_kit import LANGUAGES, check, need
from browser_scenarios import log_in_page, log_out, pages_there
from faultlib import LIBRARIAN, add_book

# What a librarian's page must not say in English, beyond the main path's words.
LIBRARIAN_ENGLISH = ["add", "delete", "members", "member", "lend", "borrower", "save", "show", "find", "cancel",
                     "import", "verify", "history", "overdue", "role", "title", "authors", "publisher", "select",
                     "check out", "walk-in", "front desk", "passed", "failed", "type", "events"]
LIBRARIAN_WORD = re.compile(r"(?<![\w’'-])(" + "|".join(re.escape(w) for w in LIBRARIAN_ENGLISH) + r")(?![\w’'-])",
                            re.IGNORECASE)

# The data on the librarian's pages, taken off the page before it is read (after axe-core ran).
DATA = """
const tables = ["#loans", "#overdue", "#set-aside", "#waiting-list", "#members", "#as-of-loans"];
const data = tables.map((t) => `${t} tbody th, ${t} tbody td:nth-child(2)`).join(", ");
document.querySelectorAll(`${data}, #checks tbody td:nth-child(3), #as-of-books tbody, label[for^='lend-'],
  #walk-in-book, h2 a[href^='/books/'], .timeline .who, .timeline .what, .timeline .changes, #flash, code`)
  .forEach((e) => e.remove());
"""


def librarian_in_french(b, name):
    """One librarian page: in French, no English word left in its own words (the data taken off)."""
    b.page(f"french librarian {name}")
    lang = b.driver.execute_script("return document.documentElement.lang")
    check(lang == "fr" and "Bibliothèque" in b.driver.title, f"french librarian {name}: the page is in French",
          f"lang={lang!r}, title={b.driver.title!r} {b.where()}")
    b.driver.execute_script(DATA)
    left = english_left(b)
    for where, words in zip(("text", "attributes", "title"), b.driver.execute_script(PAGE_WORDS)):
        words = re.sub(r"«[^»]*»|“[^”]*”", " ", words)
        left += [f"{m.group(0)!r} in {where}: …{words[max(0, m.start() - 30):m.end() + 30]!r}…".replace("\n", " ")
                 for m in LIBRARIAN_WORD.finditer(words)]
    check(not left, f"french librarian {name}: no English word left", "; ".join(left[:6]) + f" {b.where()}")


def french_librarian_path(world):
    """The librarian's pages in French, a walk-in checkout and a refused delete-all said in French."""
    b = world.desktop
    pages_there(world, "french librarian", ["/books", "/books/new", "/books/import", "/books/delete-all", "/desk",
                                            "/members", "/audit"])
    book = add_book(world.port, world.librarian, "Le Comte de Monte-Cristo", copies=2, author="Alexandre Dumas")
    speak(b, FRENCH)
    try:
        log_in_page(b, *LIBRARIAN, name="french librarian")
        pages = (("catalogue", "/books"), ("add a book", "/books/new"), ("edit a book", f"/books/{book}/edit"),
                 ("import", "/books/import"), ("delete all", "/books/delete-all"), ("members", "/members"),
                 ("audit", "/audit"), ("history", f"/audit/history?book={book}"),
                 ("as of", "/audit/as-of?at=2100-01-01T00:00&view=loans"))
        for name, path in pages:
            b.go(path)
            librarian_in_french(b, name)

        b.go("/books/delete-all")
        check("TOUT RETIRER" in b.text(), "french librarian: delete all asks for TOUT RETIRER", b.where())
        b.fill("confirm", "tout retirer")
        b.submit("form:has([name='confirm'])")
        check("majuscules" in b.text(), "french librarian: a wrong confirmation is refused in French", b.where())

        b.go(f"/desk?find=Monte-Cristo&book={book}")
        b.fill("book", book, within="form#desk-walk-in")
        b.fill("name", "Edmond Dantès", within="form#desk-walk-in")
        b.submit("form#desk-walk-in")
        flash = b.finds("#flash")
        said = flash[0].text if flash else ""
        # (Selenium reads a no-break space as a space.)
        check(re.search(r"«\s+Le Comte de Monte-Cristo\s+» prêté à Edmond Dantès, à rendre le", said)
              and FRENCH_DAY.search(said), "french librarian: a walk-in checkout is said in French",
              f"{said!r} {b.where()}")
        need(b.has("#loans"), "french librarian: the desk lists the loans", b.where())
        librarian_in_french(b, "front desk")
        b.go("/audit")
        b.submit("form#verify")
        verdict = b.finds("#verdict")
        check(verdict and verdict[0].get_attribute("data-passed") == "true", "french librarian: the log verifies",
              b.where())
        librarian_in_french(b, "audit verified")
        log_out(b)
    finally:
        b.driver.delete_all_cookies()
        speak(b, LANGUAGES)


# Not in ENGLISH already: the main path's words are read by english_left.
assert not set(LIBRARIAN_ENGLISH) & set(ENGLISH)
