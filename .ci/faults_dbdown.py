"""`.ci/faults dbdown`: a library on PostgreSQL whose database server stops under a running `serve`
(`.ci/postgres pause`): every answer is a 503 with `Retry-After` within seconds (a problem document
for the API, a page for a browser), none a 500, and the server stays up; once the database is back
(`resume`), the same server reads and writes again without a restart."""

import json
import os
import subprocess
import tempfile
import time

from faultlib import ENV, LIBRARIAN, ROOT, Server, call, log_in, report

POSTGRES = os.path.join(ROOT, ".ci", "postgres")


def _postgres(command, folder):
    done = subprocess.run([POSTGRES, command, folder], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f".ci/postgres {command}: {done.stderr[-2000:]}")
    return done.stdout.strip()


def _timed(port, method, path, **kwargs):
    started = time.monotonic()
    status, headers, body = call(port, method, path, timeout=60, **kwargs)
    return status, headers, body, time.monotonic() - started


def dbdown_test(binary, work):
    print("== dbdown: the PostgreSQL server stops under a running serve, then comes back", flush=True)
    # A folder of its own under the temporary folder: `work` is closed to the cluster's owner.
    cluster = tempfile.mkdtemp(prefix="shelfmark-dbdown-postgres-")
    url = _postgres("start", cluster)
    server = None
    try:
        added = subprocess.run([binary, "--database-url", url, "user", "add", "--email", LIBRARIAN[0], "--role", "librarian",
                                "--country", "FR"], input=LIBRARIAN[1] + "\n", env=ENV, capture_output=True, text=True,
                               timeout=120)
        if added.returncode != 0:
            raise RuntimeError(f"user add failed: {added.stderr}")
        server = Server(binary, os.path.join(work, "dbdown"), database_url=url)
        token = log_in(server.port, *LIBRARIAN)
        status, _, _ = call(server.port, "POST", "/api/v1/books", {"title": "Before the outage", "authors": ["A"]}, token)
        report(status == 201, "dbdown: a book is added while the database answers", f"status {status}")

        _postgres("pause", cluster)
        answers = [
            ("GET the catalogue (API)", _timed(server.port, "GET", "/api/v1/books", token=token)),
            ("add a book (API)", _timed(server.port, "POST", "/api/v1/books", body={"title": "During", "authors": ["A"]},
                                        token=token)),
            ("log in (API)", _timed(server.port, "POST", "/api/v1/sessions",
                                    body={"email": LIBRARIAN[0], "password": LIBRARIAN[1]})),
            ("the catalogue page", _timed(server.port, "GET", "/books", headers={"Accept": "text/html"})),
        ]
        for name, (status, headers, body, seconds) in answers:
            report(status == 503 and "retry-after" in headers and seconds < 15,
                   f"dbdown: {name} while the database is down is a 503 with Retry-After within 15 s",
                   f"status {status} in {seconds:.1f}s, headers {sorted(headers)}, {body[:200]!r}")
        status, headers, body, _ = answers[0][1]
        problem = json.loads(body) if headers.get("content-type", "").startswith("application/problem+json") else {}
        report("database is not answering" in problem.get("detail", ""), "dbdown: the API's problem says the database is not answering",
               f"{body[:300]!r}")
        page = answers[3][1][2].decode("utf-8", "replace")
        report("database is not answering" in page, "dbdown: the page says the database is not answering", page[-600:])
        report(server.process.poll() is None, "dbdown: the server stays up while the database is down")

        _postgres("resume", cluster)
        deadline, status = time.monotonic() + 30, None
        while time.monotonic() < deadline:
            status, _, _ = call(server.port, "GET", "/api/v1/books", token=token, timeout=60)
            if status == 200:
                break
            time.sleep(0.5)
        report(status == 200, "dbdown: once the database is back, the same server reads again within 30 s", f"status {status}")
        status, _, body = call(server.port, "POST", "/api/v1/books", {"title": "After the outage", "authors": ["A"]}, token)
        report(status == 201, "dbdown: and writes again", f"status {status} {body[:200]!r}")
        log = server.text()
        report("Fatal error" not in log and "request failed" not in log, "dbdown: no request failed as a 500 in the log",
               "\n".join(line for line in log.splitlines() if "request failed" in line)[-1500:])
    finally:
        if server:
            server.stop()
        _postgres("stop", cluster)
