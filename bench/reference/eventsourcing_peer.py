"""Reference peer for Shelfmark's benchmark scenario 1: durable commands, one writer.

Measures how many durable commands per second the Python `eventsourcing` library sustains with
its SQLite persistence module (file database, WAL journal, synchronous=FULL). For each of N Book
aggregates, one writer runs three commands in sequence:
  1. create   - new Book(title, copies), application.save()
  2. borrow   - repository.get() replays the stream, the rule is checked, save() appends
  3. return   - the same for return_copy()
so 3*N commits, each its own SQLite transaction. The aggregate cache is off (the library's
default), so every command loads its stream from the database. Each run uses a fresh temporary
database file; with --runs K the run is repeated K times and the median run is reported
(the upper middle one for an even K), with every run's commands/s in "runs".

synchronous=FULL: eventsourcing 9.5.6 (eventsourcing/sqlite.py) sets journal_mode=WAL on the first
connection of a file database but never sets `synchronous`, which SQLite keeps per connection.
So FullSyncSQLiteFactory below, chosen through the library's PERSISTENCE_MODULE setting (which
accepts an infrastructure factory class's topic), gives the datastore a connection pool that runs
`PRAGMA synchronous=FULL` on every connection it opens. After the run, both pragmas are read back
on the pool's writer connection and printed.

Usage: bench/reference/setup && bench/.venv/bin/python bench/reference/eventsourcing_peer.py [N] [--runs K]
Prints one JSON line to stdout.
"""

import argparse
import json
import os
import statistics
import tempfile
import time
from importlib.metadata import version
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.sqlite import SQLiteConnection, SQLiteConnectionPool, SQLiteFactory
from eventsourcing.utils import get_topic


class FullSyncPool(SQLiteConnectionPool):
    """The library's pool, plus `PRAGMA synchronous=FULL` on each new connection."""

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous=FULL")
        return connection


class FullSyncSQLiteFactory(SQLiteFactory):
    """SQLiteFactory whose datastore uses FullSyncPool (swapped in before any connection opens)."""

    def __init__(self, env):
        super().__init__(env)
        unused = self.datastore.pool
        self.datastore.pool = FullSyncPool(db_name=unused.db_name, lock_timeout=unused.lock_timeout)
        unused.close()


class NoCopyAvailable(Exception):
    pass


class Book(Aggregate):
    @event("Created")
    def __init__(self, title: str, copies: int):
        if copies < 1:
            raise ValueError("a book has at least one copy")
        self.title = title
        self.copies = copies
        self.available = copies

    def borrow(self) -> None:
        if self.available == 0:
            raise NoCopyAvailable(self.title)
        self._borrowed()

    def return_copy(self) -> None:
        if self.available == self.copies:
            raise ValueError("no copy of this book is out")
        self._returned()

    @event("Borrowed")
    def _borrowed(self) -> None:
        self.available -= 1

    @event("Returned")
    def _returned(self) -> None:
        self.available += 1


class Library(Application):
    def add_book(self, title: str, copies: int) -> UUID:
        book = Book(title, copies)
        self.save(book)
        return book.id

    def borrow(self, book_id: UUID) -> None:
        book: Book = self.repository.get(book_id)
        book.borrow()
        self.save(book)

    def return_copy(self, book_id: UUID) -> None:
        book: Book = self.repository.get(book_id)
        book.return_copy()
        self.save(book)


SYNCHRONOUS_NAMES = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}


def run(aggregates: int) -> dict:
    """One run on a fresh database file: 3 commands per aggregate; returns timings and pragmas."""
    with tempfile.TemporaryDirectory(prefix="eventsourcing-peer-") as folder:
        library = Library(env={
            "PERSISTENCE_MODULE": get_topic(FullSyncSQLiteFactory),
            "SQLITE_DBNAME": os.path.join(folder, "library.sqlite"),
        })
        start = time.perf_counter()
        for n in range(aggregates):
            book_id = library.add_book(f"Benchmark book {n}", 1 + n % 3)
            library.borrow(book_id)
            library.return_copy(book_id)
        seconds = time.perf_counter() - start
        assert library.repository.get(book_id).version == 3
        with library.factory.datastore.get_connection(commit=True) as connection:
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA synchronous")
                synchronous = SYNCHRONOUS_NAMES[cursor.fetchone()[0]]
                cursor.execute("PRAGMA journal_mode")
                journal_mode = cursor.fetchone()[0]
        library.close()
    commands = 3 * aggregates
    return {"commands_per_s": commands / seconds, "commands": commands, "seconds": seconds,
            "synchronous": synchronous, "journal_mode": journal_mode}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("aggregates", nargs="?", type=int, default=2000, help="books (default 2000)")
    parser.add_argument("--runs", type=int, default=1, help="runs; the median is reported (default 1)")
    args = parser.parse_args()
    runs = [run(args.aggregates) for _ in range(args.runs)]
    result = sorted(runs, key=lambda r: r["commands_per_s"])[len(runs) // 2]
    result = {**result, "commands_per_s": round(result["commands_per_s"], 1),
              "seconds": round(result["seconds"], 3),
              "runs": [round(r["commands_per_s"], 1) for r in runs],
              "eventsourcing_version": version("eventsourcing")}
    assert result["synchronous"] == "FULL" and result["journal_mode"] == "wal", result
    print(json.dumps(result))


if __name__ == "__main__":
    main()
