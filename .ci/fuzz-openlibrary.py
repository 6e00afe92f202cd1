"""A stand-in for Open Library on loopback, for .ci/fuzz: serves the recorded answers of
../shared/fixtures so that search, work bookmarks and imports reach their success paths without
the internet. Prints its port on the first line of standard output, then serves until killed.

    GET /search.json?q=key:/works/OL…W   the recorded doc with that key, else no docs
    GET /search.json?...                 the recording for that query, else the 100-doc one
    GET /isbn|works|authors/<name>.json  the recorded record, else Open Library's 404
"""

import json
import pathlib
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

SEARCHES = {
    "lord of the rings": "openlibrary-search/title-lord-of-the-rings-100docs-alldefaultfields.json",
    "the institute|stephen king": "openlibrary-search/author-title-the-institute-modern-default-fields.json",
    "isbn:9780063021433": "openlibrary-search/q-isbn-9780063021433-fields-editions-babel.json",
    "harry potter": "openlibrary-search/q-harry-potter-limit2-fields-subset.json",
    "": "openlibrary-search/no-params-numfound-0.json",
}
RECORDS = {
    "/isbn/9780140328721": "openlibrary-works/isbn-0140328726-fantastic-mr-fox.json",
    "/works/OL20126932W": "openlibrary-works/works-OL20126932W-the-institute.json",
    "/works/OL3616800W": "openlibrary-works/works-OL3616800W-montana-water-law.json",
    "/authors/OL23919A": "openlibrary-works/authors-OL23919A-rowling.json",
    "/authors/OL4452558A": "openlibrary-works/authors-OL4452558A-paulsen.json",
}
searches, records = {}, {}


def load(fixtures):
    """Reads the recordings from the folder `fixtures` (also used by .ci/browser, which imports this file)."""
    folder = pathlib.Path(fixtures)
    searches.update({query: json.loads((folder / path).read_text()) for query, path in SEARCHES.items()})
    records.update({path: (folder / file).read_bytes() for path, file in RECORDS.items()})


def search(params):
    words = [params.get(name, [""])[0] for name in ("title", "author", "q")]
    query = "|".join(word for word in words if word).lower()
    if query.startswith("key:/works/"):
        key = "/works/" + query[len("key:/works/"):]
        docs = [doc for answer in searches.values() for doc in answer.get("docs", []) if doc.get("key", "").lower() == key]
        return {"numFound": len(docs[:1]), "docs": docs[:1]}
    return searches.get(query, searches["lord of the rings"])


class OpenLibrary(BaseHTTPRequestHandler):
    def do_GET(self):
        url = urlsplit(self.path)
        if url.path == "/search.json":
            self.answer(200, json.dumps(search(parse_qs(url.query))).encode())
        elif url.path.removesuffix(".json") in records:
            self.answer(200, records[url.path.removesuffix(".json")])
        else:
            self.answer(404, json.dumps({"error": "notfound", "key": url.path.removesuffix(".json")}).encode())

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass


if __name__ == "__main__":
    load(sys.argv[1])
    server = ThreadingHTTPServer(("127.0.0.1", 0), OpenLibrary)
    print(server.server_address[1], flush=True)
    server.serve_forever()
