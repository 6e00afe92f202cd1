"""`.ci/faults graceful`: 64 writers, SIGTERM at a random moment: exit status 0, "database closed"
in the log, no 5xx, every acknowledged write there after a restart, audit verify passes."""

import os
import random
import time
import uuid

from faultlib import (LIBRARIAN, SEED, Load, Server, audit_verify, check_acknowledged, log_in, prepare_load, report,
                      seed_librarian)


def graceful_test(binary, work, rounds=3):
    print(f"== graceful: SIGTERM under 64 writers, {rounds} times", flush=True)
    rng = random.Random(SEED + 1)
    for round_ in range(1, rounds + 1):
        db = os.path.join(work, f"graceful-{round_}", "library.sqlite")
        seed_librarian(binary, db)
        server = Server(binary, db)
        token = log_in(server.port, *LIBRARIAN)
        tag = f"Graceful{round_}x{uuid.uuid4().hex[:6]}"
        shelf, members = prepare_load(server.port, token, tag)
        load = Load(server.port, token, members, shelf, tag, writers=64, max_requests=None).start()
        delay = rng.uniform(0.4, 1.5)
        time.sleep(delay)
        with load.lock:
            in_flight = load.in_flight
        signalled = time.monotonic()
        status = server.stop(30)
        stopped = time.monotonic() - signalled
        load.finish()
        log = server.text()
        report(status == 0, f"graceful {round_}: exit status 0 after SIGTERM at {delay:.2f}s",
               f"exit {status} in {stopped:.2f}s, {in_flight} requests in flight at the signal")
        report("database closed" in log, f"graceful {round_}: the log says \"database closed\"",
               "" if "database closed" in log else log[-800:])
        after = sum(1 for t in load.answered_at if t > signalled)
        report(not load.unexpected and "request failed" not in log,
               f"graceful {round_}: requests in flight completed or failed cleanly (no 5xx)",
               f"answers {dict(sorted(load.statuses.items()))}, {after} of them after the signal; "
               f"{load.errors - load.refused} connections closed unanswered, {load.refused} refused afterwards"
               + (f"; UNEXPECTED {load.unexpected[:3]}" if load.unexpected else ""))
        server = Server(binary, db)
        missing, lost_loans, unreturned, doubt_present = check_acknowledged(server.port, token, load)
        code, output, _ = audit_verify(binary, db)
        report(not missing and not lost_loans and not unreturned,
               f"graceful {round_}: every acknowledged write is there after a restart",
               f"{len(load.books)} books, {len(load.loans)} borrows, {len(load.returned)} returns; "
               f"{len(load.in_doubt)} unanswered, {doubt_present} of them committed"
               + (f"; MISSING {missing[:5]} {lost_loans[:5]} {unreturned[:5]}" if missing or lost_loans or unreturned
                  else ""))
        report(code == 0, f"graceful {round_}: audit verify passes", "" if code == 0 else output[-1500:])
        server.stop()
