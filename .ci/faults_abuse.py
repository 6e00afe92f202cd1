"""`.ci/faults abuse`: oversized, deeply nested, invalid UTF-8, SQL-looking, very long and
path-traversing input, malformed HTTP and slowloris against one server. Every answer must be a 4xx
problem document (or a success), never a 5xx or a crash; the log verifies afterwards."""

import json
import os
import re
import time
import uuid
from urllib.parse import quote

from faultlib import LIBRARIAN, MEMBER_PASSWORD, Server, add_book, call, log_in, member, report, seed_librarian
from faults_abuse_http import expect, is_problem, parser_refusals, raw, slow_requests, traversal, unknown_routes


def urlquote(text):
    return quote(text, safe="")


def searchable(book):
    return [book["title"], *book["authors"], book.get("publisher") or "", *book.get("categories", []),
            book.get("isbn") or ""]


def abuse_test(binary, work):
    print("== abuse", flush=True)
    db = os.path.join(work, "abuse", "library.sqlite")
    seed_librarian(binary, db)
    server = Server(binary, db, env={"SHELFMARK_IDLE_TIMEOUT": "2", "SHELFMARK_BODY_TIMEOUT": "3"})
    port = server.port
    token = log_in(port, *LIBRARIAN)
    reader = member(port, "abuse-member@example.org")

    def post_book(body, content_type="application/json"):
        return call(port, "POST", "/api/v1/books", body, token=token, headers={"Content-Type": content_type})

    sizes_and_encodings(port, token, post_book)
    sql_and_search(port, token, post_book)
    long_fields(port, token, reader, post_book)
    long_paths(port, token, reader)
    parser_refusals(port)
    expect("a 10 KB bearer token is a 401 problem",
           call(port, "GET", "/api/v1/me", token="t" * 10_000), {401})
    traversal(port, token, reader)
    unknown_routes(port, post_book)
    slow_requests(port, token)

    status, _, body = call(port, "GET", "/api/v1/audit/verify", token=token)
    report(status == 200 and json.loads(body).get("ok") is True, "after the abuse the log verifies", f"{body[:300]!r}")
    log = server.text()
    report(server.process.poll() is None, "the server survived the abuse")
    report("request failed" not in log, "the server logged no 500", log[log.find("request failed") - 200:][:800]
           if "request failed" in log else "")
    report(server.stop() == 0, "the abused server stops cleanly on SIGTERM")


def sizes_and_encodings(port, token, post_book):
    mib = 1 << 20
    head = (f"POST /api/v1/books HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n"
            "Content-Type: application/json\r\nConnection: close\r\n")
    big = b'{"title":"' + b"a" * (2 * mib) + b'","authors":["x"]}'
    expect("a 2 MiB body with its length is refused with 413",
           raw(port, (head + f"Content-Length: {len(big)}\r\n\r\n").encode() + big), {413})
    chunks = b"".join(b"%x\r\n" % len(big[i:i + 8192]) + big[i:i + 8192] + b"\r\n" for i in range(0, len(big), 8192))
    expect("a 2 MiB chunked body without a length is refused with 413",
           raw(port, (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + chunks + b"0\r\n\r\n"), {413})
    just_over = b'{"title":"x","authors":["x"],"description":"' + b"d" * mib + b'"}'
    expect("a body one byte past 1 MiB is refused with 413", post_book(just_over), {413})
    under = b'{"title":"x","authors":["x"],"description":"' + b"d" * (mib - 100) + b'"}'
    expect("a body just under 1 MiB with a 1 MiB description is a 400 field error", post_book(under), {400})

    for name, body in [
        ("deeply nested arrays (100,000 levels)", b'{"title":' + b"[" * 100_000 + b"]" * 100_000 + b"}"),
        ("deeply nested objects (50,000 levels)", b'{"title":"x","authors":["x"],"extra":' + b'{"a":' * 50_000
         + b"1" + b"}" * 50_000 + b"}"),
        ("an unterminated nesting of 500,000 brackets", b"[" * 500_000),
    ]:
        expect(f"{name} is a 400 problem", post_book(body), {400})

    for name, body in [
        ("invalid UTF-8 (0xFF 0xFE) in a string", b'{"title":"\xff\xfe","authors":["x"]}'),
        ("an overlong UTF-8 encoding of '/'", b'{"title":"a\xc0\xafb","authors":["x"]}'),
        ("a truncated UTF-8 sequence", b'{"title":"caf\xc3","authors":["x"]}'),
        ("a lone surrogate escape", b'{"title":"a\\ud800b","authors":["x"]}'),
        ("UTF-16 instead of UTF-8", '{"title":"x","authors":["x"]}'.encode("utf-16")),
    ]:
        expect(f"{name} is a 400 problem (or stored as valid text)", post_book(body), {400, 201}, problem=False)
        status, headers, body = post_book(body)
        if status == 400:
            report(is_problem(headers, body, 400), f"{name}: the 400 is a problem document")
    for name, path in [
        ("invalid UTF-8 in a query", "/api/v1/books?q=%FF%FE"),
        ("invalid UTF-8 in an id", "/api/v1/books/%FF%FE"),
        ("a NUL in an id", "/api/v1/books/abc%00def"),
    ]:
        expect(f"{name} is a 4xx problem (or an empty answer)", call(port, "GET", path), {200, 400, 404},
               problem=False)
        status, headers, body = call(port, "GET", path)
        if status != 200:
            report(is_problem(headers, body, status), f"{name}: the {status} is a problem document")
    expect("raw non-ASCII bytes in the request line are a 4xx",
           raw(port, b"GET /api/v1/books/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
           {400, 404}, problem=False)
    expect("invalid UTF-8 in the Authorization header is a 401 problem",
           call(port, "GET", "/api/v1/me", headers={"Authorization": b"Bearer \xff\xfe"}), {400, 401}, problem=False)


def sql_and_search(port, token, post_book):
    tricky = {
        "title": "Robert'); DROP TABLE events;--",
        "authors": ["1' OR '1'='1", "\"; DELETE FROM catalogue_books; --"],
        "publisher": "x' UNION SELECT password_hash FROM accounts --",
        "categories": ["%", "_", "*", "NEAR(a b)", "title:x", "\\"],
        "description": "'; PRAGMA writable_schema=1; --",
    }
    status, headers, body = post_book(json.dumps(tricky).encode())
    if report(status == 201, "SQL-looking strings are accepted as text", f"{status} {body[:200]!r}"):
        book = json.loads(body)
        status, _, body = call(port, "GET", f"/api/v1/books/{book['id']}")
        stored = json.loads(body) if status == 200 else {}
        same = all(stored.get(key) == value for key, value in tricky.items())
        report(same, "SQL-looking strings are stored and read back literally",
               "" if same else f"{ {k: stored.get(k) for k in tricky} }")
        for query in ["DROP TABLE", "Robert", "UNION SELECT"]:
            status, _, body = call(port, "GET", "/api/v1/books?q=" + urlquote(query))
            ids = [item["id"] for item in json.loads(body)["items"]] if status == 200 else []
            report(status == 200 and book["id"] in ids, f"the search for {query!r} finds that book literally",
                   f"{status} {body[:160]!r}")
    add_book(port, token, "An ordinary book")
    status, _, body = call(port, "GET", "/api/v1/books?limit=100")
    catalogue = json.loads(body)["items"]
    # title:x is a fielded search (issue 14): the books whose title has a word starting with x.
    status, headers, body = call(port, "GET", "/api/v1/books?q=" + urlquote("title:x"))
    found = json.loads(body)["items"] if status == 200 else []
    report(status == 200 and all(re.search(r"\bx", item["title"].lower()) for item in found),
           "the search 'title:x' finds the books whose title has a word starting with x",
           f"{status}, {[item['title'] for item in found][:4]}")
    for query in ["' OR 1=1 --", "\"", "*", "NEAR(a b)", "\"title:x\"", "a AND OR NOT", "%", "_", "^x", "-x", "(",
                  "'", "\\", "x\"y", "{title}: x", "a*b*", "NOT", "ordinary' --"]:
        status, headers, body = call(port, "GET", "/api/v1/books?q=" + urlquote(query))
        words = re.findall(r"[^\W_]+", query.lower())
        found = json.loads(body)["items"] if status == 200 else []
        # literal: every book found holds every word of the query (as a word prefix); a query
        # without a word is no filter at all
        literal = all(all(any(re.search(r"\b" + re.escape(w), text.lower()) for text in searchable(item))
                          for w in words) for item in found)
        if not words:
            literal = len(found) == len(catalogue)
        good = status == 200 or (status == 400 and is_problem(headers, body, 400))
        report(good and literal, f"the search {query!r} is taken literally",
               f"{status}, {len(found)} of {len(catalogue)} books: {[item['title'] for item in found][:4]}")


def long_fields(port, token, member, post_book):
    long_text = "x" * 100_000
    for name, body, field in [
        ("a 501-character title", {"title": "t" * 501, "authors": ["x"]}, "title"),
        ("a 100,000-character title", {"title": long_text, "authors": ["x"]}, "title"),
        ("10,000 authors", {"title": "x", "authors": ["a"] * 10_000}, "authors"),
        ("10,000 categories", {"title": "x", "authors": ["a"], "categories": [f"c{i}" for i in range(10_000)]},
         "categories"),
        ("a 100,000-character ISBN", {"title": "x", "authors": ["a"], "isbn": "9" * 100_000}, "isbn"),
        ("a 100,000-character cover URL", {"title": "x", "authors": ["a"], "coverUrl": "https://" + long_text},
         "coverUrl"),
        ("a 100,000-character publisher", {"title": "x", "authors": ["a"], "publisher": long_text}, "publisher"),
        # Foundation's decoder reports an overflowing number as invalid JSON, without its field
        ("a copy count of 10^30", b'{"title":"x","authors":["a"],"copies":1000000000000000000000000000000}', None),
        ("4,000 overlong authors", {"title": "x", "authors": ["a" * 201] * 4_000}, "authors"),
        ("control characters in a title", {"title": "a\u0000b", "authors": ["a"]}, "title"),
        ("an escape sequence in a description", {"title": "x", "authors": ["a"], "description": "\u001b[2J"},
         "description"),
    ]:
        payload = body if isinstance(body, bytes) else json.dumps(body).encode()
        answer = post_book(payload)
        expect(f"{name} is a 400 problem of a few KB", answer, {400}, max_body=16_384)
        fields = [e.get("field", "") for e in (json.loads(answer[2]).get("errors") or [])] if answer[0] == 400 else []
        if field:
            report(any(f.startswith(field) for f in fields), f"{name}: the problem names the field {field}",
                   f"{fields[:3]}")

    for name, method, path, body, who in [
        ("a 100,000-character email at signup", "POST", "/api/v1/users",
         {"email": "a" * 100_000 + "@example.org", "password": MEMBER_PASSWORD, "country": "FR"}, None),
        ("a 100,000-character display name", "POST", "/api/v1/users",
         {"email": "long@example.org", "password": MEMBER_PASSWORD, "displayName": long_text, "country": "FR"}, None),
        ("a 100,000-character password", "POST", "/api/v1/users",
         {"email": "long2@example.org", "password": "A!" + long_text, "country": "FR"}, None),
        ("a 100,000-character country", "POST", "/api/v1/users",
         {"email": "long3@example.org", "password": MEMBER_PASSWORD, "country": long_text}, None),
        ("a 100,000-character email at login", "POST", "/api/v1/sessions",
         {"email": long_text, "password": "x"}, None),
        ("a 100,000-character walk-in borrower's name", "POST", None, {"borrowerName": long_text}, token),
        ("20,000 book ids in one borrowing", "POST", "/api/v1/loans",
         {"bookIds": [str(uuid.uuid4()) for _ in range(20_000)]}, member),
        ("a SQL-looking email at login", "POST", "/api/v1/sessions",
         {"email": "' OR '1'='1' --@example.org", "password": "x"}, None),
        ("a NUL in an email at signup", "POST", "/api/v1/users",
         {"email": "x\u0000y@example.org", "password": MEMBER_PASSWORD, "country": "FR"}, None),
        ("a NUL in an email at login", "POST", "/api/v1/sessions", {"email": "x\u0000y@example.org", "password": "x"},
         None),
        ("a NUL in a password", "POST", "/api/v1/users",
         {"email": "nul@example.org", "password": "A!\u0000zzzzzz", "country": "FR"}, None),
        ("a NUL in a display name", "POST", "/api/v1/users",
         {"email": "nul2@example.org", "password": MEMBER_PASSWORD, "displayName": "a\u0000b", "country": "FR"}, None),
        ("a control character in a walk-in borrower's name", "POST", None, {"borrowerName": "Mrs\u0007Hudson"}, token),
    ]:
        if path is None:
            path = f"/api/v1/books/{add_book(port, token, 'Walk-in')}/checkout"
        started = time.monotonic()
        answer = call(port, method, path, body, token=who)
        elapsed = time.monotonic() - started
        expect(f"{name} is a 4xx problem of a few KB ({elapsed:.2f}s)", answer, {400, 401, 404, 409},
               max_body=16_384)


def long_paths(port, token, member):
    for name, path in [
        ("a 5,000-character Open Library search", "/api/v1/search?q=" + "x" * 5_000),
        ("a 5,000-character catalogue query", "/api/v1/books?q=" + "x" * 5_000),
        ("a 50,000-character sort", "/api/v1/books?sort=" + "s" * 50_000),
        ("a 50,000-character book id", "/api/v1/books/" + "b" * 50_000),
        ("a 5,000-character bookmark key", "/api/v1/me/bookmarks/OL" + "1" * 5_000 + "W"),
        ("a 50,000-character history stream", "/api/v1/audit/history?stream=" + "s" * 50_000),
        ("a SQL-looking history stream", "/api/v1/audit/history?stream=" + urlquote("x' OR '1'='1")),
        ("a SQL-looking member filter", "/api/v1/loans?member=" + urlquote("' OR 1=1 --")),
        ("limit=10^30", "/api/v1/books?limit=1000000000000000000000000000000"),
        ("offset=-1", "/api/v1/books?offset=-1"),

        ("an unknown sort", "/api/v1/books?sort=title;DROP"),
    ]:
        method = "PUT" if "bookmarks" in path else "GET"
        who = member if "bookmarks" in path else token
        answer = call(port, method, path, token=who)
        expect(f"{name} is a 4xx problem of a few KB", answer, {400, 404}, max_body=4_096)
    for path in ["/api/v1/books?offset=9223372036854775807", "/api/v1/users?offset=9223372036854775807",
                 "/api/v1/books?offset=9223372036854775807&limit=100"]:
        # Offsets are bounded (issue 14): a clear 400 naming the range, never a crash or a 500.
        expect(f"{path} is a 400 problem naming the offset's range", call(port, "GET", path, token=token), {400})
