"""`.ci/attacks tamper`: REPLACE / INSERT OR REPLACE of a stored event, a rewrite with recomputed
unkeyed hashes, a cut tail after an anchor, a do-nothing trigger, an undecodable payload: all must
fail `audit verify`; and the helpers that rewrite a stopped server's log."""

import hashlib
import json
import os
import re
import shutil
import sqlite3

from faultlib import LIBRARIAN, Server, add_book, audit_verify, cli, crashed, log_in, note, report, seed_librarian

# --- tampering with a stopped server's file ------------------------------------------------------

GENESIS = "0" * 64
FIELDS = ["position", "stream_id", "stream_version", "event_type", "payload", "event_id", "recorded_at", "actor",
          "correlation_id", "causation_id"]


def unkeyed_hash(previous, row):
    """The documented formula (HashChain.swift): SHA-256 of the previous hash, a line feed, and every
    field as text followed by a line feed (a missing causation id is empty)."""
    canonical = "".join(f"{'' if row[f] is None else row[f]}\n" for f in FIELDS)
    return hashlib.sha256((previous + "\n" + canonical).encode()).hexdigest()


def rechain(con, start):
    """Recomputes the hash of every event from `start` on with the unkeyed formula."""
    con.row_factory = sqlite3.Row
    previous = con.execute("SELECT hash FROM events WHERE position = ?", (start - 1,)).fetchone()
    previous = previous["hash"] if previous else GENESIS
    for row in con.execute("SELECT * FROM events WHERE position >= ? ORDER BY position", (start,)).fetchall():
        previous = unkeyed_hash(previous, row)
        con.execute("UPDATE events SET hash = ? WHERE position = ?", (previous, row["position"]))


def unkeyed_matches(db):
    """How many stored hashes the unkeyed formula reproduces from the previous stored hash, of how many."""
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    previous, same, rows = GENESIS, 0, con.execute("SELECT * FROM events ORDER BY position").fetchall()
    for row in rows:
        same += unkeyed_hash(previous, row) == row["hash"]
        previous = row["hash"]
    con.close()
    return same, len(rows)


class Unguarded:
    """`with Unguarded(db) as con:` the events table's triggers are dropped for the block and put
    back as they were, then the change is committed."""

    def __init__(self, db):
        self.con = sqlite3.connect(db)

    def __enter__(self):
        self.triggers = self.con.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'").fetchall()
        for name, _ in self.triggers:
            self.con.execute(f'DROP TRIGGER "{name}"')
        return self.con

    def __exit__(self, *exc):
        for _, sql in self.triggers:
            self.con.execute(sql)
        self.con.commit()
        self.con.close()


def verify_says(binary, db, *extra):
    """`audit verify`'s exit status and what it says, less its passing checks and progress."""
    code, output, _ = audit_verify(binary, db, *extra)
    return code, "\n".join(line[:400] for line in output.splitlines() if not line.startswith(("ok ", "verifying")))


def tamper_test(binary, work):
    print("== tamper: rewriting the stopped server's log", flush=True)
    base = os.path.join(work, "tamper", "base")
    db = os.path.join(base, "library.sqlite")
    seed_librarian(binary, db)
    server = Server(binary, db)
    token = log_in(server.port, *LIBRARIAN)
    for i in range(80):
        add_book(server.port, token, f"Tamper book {i}", author="Mallory")
    server.stop()

    def copy(name):  # the whole folder: a key file or anchors beside the database go along
        shutil.copytree(base, os.path.join(work, "tamper", name))
        return os.path.join(work, "tamper", name, "library.sqlite")

    def position_of(title):
        with sqlite3.connect(db) as con:
            return con.execute("SELECT position FROM events WHERE payload LIKE ?", (f'%"{title}"%',)).fetchone()[0]

    code, out = verify_says(binary, copy("control"))
    note("the documented unkeyed formula reproduces %d of the %d stored hashes" % unkeyed_matches(db))
    report(code == 0, "tamper: the untouched log verifies (control)", out if code else "")

    con = sqlite3.connect(copy("replace"))
    columns = [d[0] for d in con.execute("SELECT * FROM events LIMIT 0").description]
    for verb in ("REPLACE", "INSERT OR REPLACE"):
        row = list(con.execute("SELECT * FROM events WHERE position = 5").fetchone())
        row[columns.index("payload")] = json.dumps(dict(json.loads(row[columns.index("payload")]), forged=verb))
        try:
            con.execute(f"{verb} INTO events ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", row)
            con.commit()
            outcome = "succeeded: " + con.execute("SELECT payload FROM events WHERE position = 5").fetchone()[0][:120]
        except sqlite3.DatabaseError as error:
            outcome = f"refused: {error}"
        report(outcome.startswith("refused"), f"tamper: {verb} INTO events of position 5 with a changed payload fails",
               outcome)
    con.close()

    target, rewritten = position_of("Tamper book 3"), copy("rewrite")
    with Unguarded(rewritten) as con:
        con.execute("UPDATE events SET payload = replace(payload, 'Tamper book 3', 'Forged book 3') WHERE position = ?",
                    (target,))
        rechain(con, target)
    rebuild = cli(binary, rewritten, "projections", "rebuild")
    code, out = verify_says(binary, rewritten)
    report(code not in (0, None) and not crashed(code, out),
           f"tamper: a rewritten payload (position {target}) with recomputed unkeyed hashes fails audit verify",
           f"rebuild exit {rebuild.returncode}; verify exit {code}: {out}")

    cut, anchor = copy("cut"), os.path.join(work, "tamper", "anchors.txt")
    taken = cli(binary, cut, "audit", "anchor", "--to", anchor)
    with sqlite3.connect(cut) as con:
        top, top_hash = con.execute("SELECT position, hash FROM events ORDER BY position DESC LIMIT 1").fetchone()
    with Unguarded(cut) as con:
        con.execute("DELETE FROM events WHERE position > ?", (top - 50,))
    rebuild = cli(binary, cut, "projections", "rebuild")
    code, out = verify_says(binary, cut, "--anchor", anchor)
    report(taken.returncode == 0 and code not in (0, None) and not crashed(code, out)
           and (re.search(rf"\b{top}\b", out) is not None or top_hash[:12] in out),
           f"tamper: a tail cut by 50 events after an anchor at {top} fails audit verify --anchor, naming it",
           f"anchor exit {taken.returncode} {(taken.stdout + taken.stderr).strip()[-300:]!r}; rebuild exit "
           f"{rebuild.returncode}; verify exit {code}: {out}")

    faked = copy("fake-trigger")
    with sqlite3.connect(faked) as con:
        con.execute("DROP TRIGGER IF EXISTS events_no_update")
        con.execute("CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT 1; END")
    code, out = verify_says(binary, faked)
    report(code not in (0, None) and not crashed(code, out),
           "tamper: a do-nothing trigger named events_no_update fails audit verify", f"exit {code}: {out}")

    target, garbled = position_of("Tamper book 5"), copy("garbage")
    with Unguarded(garbled) as con:
        con.execute("""UPDATE events SET payload = '{"tampered":true}' WHERE position = ?""", (target,))
        rechain(con, target)
    code, out = verify_says(binary, garbled)
    named = [line for line in out.splitlines() if re.search(rf"\b{target}\b", line) and "chain" not in line]
    report(code == 1 and not crashed(code, out) and bool(named),
           f"tamper: an undecodable payload at position {target} fails audit verify naming it, without a crash",
           f"exit {code}: {out}")
