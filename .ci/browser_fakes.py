"""The outside world of `.ci/browser`, on loopback, from the recordings of ../shared/fixtures:
Open Library (search paged through `limit`/`offset` and sorted by rating or reading-log count as
Open Library does, records, and covers as a small image; its search answers 500 while the
server's `down` is set), IPinfo (`/{ip}/json`) and REST Countries (`/v3.1/all`). Each runs in a
thread of the harness and counts the requests it answered.
"""

import copy
import importlib.util
import json
import os
import pathlib
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("fuzz_openlibrary", os.path.join(HERE, "fuzz-openlibrary.py"))
openlibrary = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(openlibrary)

# Open Library's sort names and the field each sorts on, highest first.
SORTS = {"rating": "ratings_average", "readinglog": "readinglog_count", "editions": "edition_count"}

def png(width, height, rgb):
    """A plain one-colour PNG, for the covers."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")

COVER = png(60, 90, (70, 110, 160))

class Fake(BaseHTTPRequestHandler):
    """A loopback stand-in; subclasses answer `route(path, params)` with (status, content type, body)."""

    counts = None  # path prefix -> requests, per subclass

    def do_GET(self):
        url = urlsplit(self.path)
        status, kind, body = self.route(url.path, parse_qs(url.query))
        with self.server.lock:
            self.server.requests.append(url.path)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):
        pass

class OpenLibrary(Fake):
    def route(self, path, params):
        if path.startswith("/b/"):
            return 200, "image/png", COVER
        if path == "/search.json" and self.server.down:
            return 500, "application/json", b'{"error": "down"}'
        if path == "/search.json":
            words = "|".join(params.get(name, [""])[0] for name in ("title", "author", "q") if params.get(name, [""])[0])
            with self.server.lock:
                self.server.searches.append(words)
            if words.lower() not in openlibrary.searches and not words.lower().startswith("key:"):
                # unlike .ci/fuzz's stand-in, an unknown query finds nothing: a mangled query shows
                return 200, "application/json", b'{"numFound": 0, "start": 0, "docs": []}'
            answer = copy.copy(openlibrary.search(params))
            docs = list(answer.get("docs", []))
            field = SORTS.get(params.get("sort", [""])[0])
            if field:
                docs.sort(key=lambda doc: -(doc.get(field) or 0))
            offset = int(params.get("offset", ["0"])[0] or 0)
            limit = int(params.get("limit", ["100"])[0] or 100)
            answer["docs"], answer["offset"], answer["start"] = docs[offset:offset + limit], offset, offset
            return 200, "application/json", json.dumps(answer).encode()
        record = openlibrary.records.get(path.removesuffix(".json"))
        if record:
            return 200, "application/json", record
        return 404, "application/json", json.dumps({"error": "notfound", "key": path.removesuffix(".json")}).encode()

def ipinfo_handler(fixtures):
    answers = {}
    for file in sorted((fixtures / "ipinfo").glob("*.json")):
        answer = json.loads(file.read_text())
        answers.setdefault(answer.get("ip"), file.read_bytes())

    class IPinfo(Fake):
        def route(self, path, params):
            parts = path.strip("/").split("/")
            if len(parts) == 2 and parts[1] == "json" and parts[0] in answers:
                return 200, "application/json", answers[parts[0]]
            return 404, "application/json", b'{"status": 404, "error": {"title": "Wrong ip"}}'
    return IPinfo

def countries_handler(fixtures):
    everything = (fixtures / "restcountries" / "v3.1-all-full-250-countries-2024-12.json").read_bytes()

    class Countries(Fake):
        def route(self, path, params):
            if path == "/v3.1/all" and params.get("fields"):
                return 200, "application/json", everything
            return 400, "application/json", b'{"status": 400, "message": "fields is required"}'
    return Countries

def serve(handler):
    """Starts `handler` on a free loopback port in a daemon thread; returns the server (its
    `url`, `requests`: the paths asked for, in order, `searches`: the search words, and `down`)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.lock, server.requests, server.searches, server.down = threading.Lock(), [], [], False
    server.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server

def start(fixtures):
    """The three stand-ins: (Open Library, IPinfo, REST Countries) servers."""
    fixtures = pathlib.Path(fixtures)
    openlibrary.load(fixtures)
    return serve(OpenLibrary), serve(ipinfo_handler(fixtures)), serve(countries_handler(fixtures))
