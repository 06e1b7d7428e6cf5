"""The embedded store: applies the core's change records to SQLite (persistence.py).

One `write` is one SQLite transaction, so a batch is either wholly there after a
crash or not at all.  With no path the database lives in memory.  WAL mode with
synchronous=FULL makes a committed batch survive the process being killed and
the machine losing power.
"""

from __future__ import annotations

import json
import sqlite3

from .persistence import Snapshot, StoreError

TABLES = ("meta", "queues", "messages", "transactions", "operations")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value BLOB);
CREATE TABLE IF NOT EXISTS queues (key TEXT PRIMARY KEY, attributes TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (lookup_id INTEGER PRIMARY KEY, queue_key TEXT NOT NULL,
    seq INTEGER NOT NULL, state INTEGER NOT NULL, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS transactions (uow BLOB PRIMARY KEY, single_phase INTEGER, prepared INTEGER);
CREATE TABLE IF NOT EXISTS operations (uow BLOB, idx INTEGER, kind TEXT, lookup_id INTEGER,
    target TEXT, reason INTEGER, PRIMARY KEY (uow, idx));
"""


class SqliteStore:
    def __init__(self, path: str | None = None, *, synchronous: str = "FULL") -> None:
        self.path = path or ":memory:"
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        if path:
            self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous}")
        present = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        missing = [table for table in TABLES if table not in present]
        if present & set(TABLES) and missing:
            # D-132: a store that lost a table has lost its records; making it afresh would hide that
            self.db.close()
            raise StoreError(f"table {', '.join(missing)} is missing: the store was damaged")
        self.db.executescript(SCHEMA)

    def load(self) -> Snapshot | None:
        row = self.db.execute("SELECT value FROM meta WHERE name='identifier'").fetchone()
        if row is None:
            return None
        sequence = self.db.execute("SELECT value FROM meta WHERE name='sequence'").fetchone()
        ordinal = self.db.execute("SELECT value FROM meta WHERE name='ordinal'").fetchone()
        snapshot = Snapshot(identifier=bytes(row[0]), sequential_id=int(sequence[0]) if sequence else 0,
                            ordinal=int(ordinal[0]) if ordinal else 0)
        for key, attributes in self.db.execute("SELECT key, attributes FROM queues"):
            try:
                snapshot.queues.append((key, json.loads(attributes)))
            except (TypeError, ValueError):
                raise StoreError(f"queue {key!r}: its record is not JSON") from None
        snapshot.messages = list(self.db.execute(
            "SELECT lookup_id, queue_key, seq, state, record FROM messages ORDER BY seq"))
        for uow, single_phase, prepared in self.db.execute(
                "SELECT uow, single_phase, prepared FROM transactions"):
            operations = [(kind, lookup_id, target, reason) for kind, lookup_id, target, reason in self.db.execute(
                "SELECT kind, lookup_id, target, reason FROM operations WHERE uow=? ORDER BY idx", (uow,))]
            snapshot.transactions.append((bytes(uow), bool(single_phase), bool(prepared), operations))
        return snapshot

    def write(self, changes: list[tuple]) -> None:
        if not changes:
            return
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            for change in changes:
                _APPLY[change[0]](db, *change[1:])
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def clear(self) -> None:
        """Forget everything, in one transaction: the next load() finds a store never used."""
        self.db.execute("BEGIN IMMEDIATE")
        for table in ("meta", "queues", "messages", "transactions", "operations"):
            self.db.execute(f"DELETE FROM {table}")
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()


def _queue_manager(db, identifier):
    db.execute("INSERT OR REPLACE INTO meta VALUES ('identifier', ?)", (identifier,))


def _sequence(db, reserved):
    db.execute("INSERT OR REPLACE INTO meta VALUES ('sequence', ?)", (reserved,))


def _ordinal(db, reserved):
    db.execute("INSERT OR REPLACE INTO meta VALUES ('ordinal', ?)", (reserved,))


def _queue(db, key, attributes):
    db.execute("INSERT OR REPLACE INTO queues VALUES (?, ?)", (key, json.dumps(attributes)))


def _queue_deleted(db, key):
    db.execute("DELETE FROM queues WHERE key=? OR json_extract(attributes, '$.parent')=?", (key, key))
    db.execute("DELETE FROM messages WHERE queue_key=? OR queue_key LIKE ?", (key, key + ";%"))


def _message(db, lookup_id, queue_key, seq, state, record):
    db.execute("INSERT OR REPLACE INTO messages VALUES (?, ?, ?, ?, ?)", (lookup_id, queue_key, seq, state, record))


def _state(db, lookup_id, state):
    db.execute("UPDATE messages SET state=? WHERE lookup_id=?", (state, lookup_id))


def _attributes(db, lookup_id, record):
    db.execute("UPDATE messages SET record=? WHERE lookup_id=?", (record, lookup_id))


def _removed(db, lookup_id):
    db.execute("DELETE FROM messages WHERE lookup_id=?", (lookup_id,))


def _transaction(db, uow, single_phase, prepared):
    db.execute("INSERT OR REPLACE INTO transactions VALUES (?, ?, ?)", (uow, single_phase, prepared))


def _operation(db, uow, index, kind, lookup_id, target, reason):
    db.execute("INSERT OR REPLACE INTO operations VALUES (?, ?, ?, ?, ?, ?)",
               (uow, index, kind, lookup_id, target, reason))


def _transaction_ended(db, uow):
    db.execute("DELETE FROM operations WHERE uow=?", (uow,))
    db.execute("DELETE FROM transactions WHERE uow=?", (uow,))


_APPLY = {
    "queue_manager": _queue_manager, "sequence": _sequence, "ordinal": _ordinal, "queue": _queue,
    "queue_deleted": _queue_deleted, "message": _message, "state": _state, "attributes": _attributes, "removed": _removed,
    "transaction": _transaction, "operation": _operation, "transaction_ended": _transaction_ended,
}
