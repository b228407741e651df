"""The run store's schema (``RUN/run.sqlite``): the contract between the stages.

Generation writes ``items``, ``tasks``, ``answers`` and ``errors``; scoring writes ``verdicts``
and ``grades``. Columns listed here are never removed or renamed; new columns may be added.
Images and secrets never go in.
"""

from __future__ import annotations

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL                 -- JSON
);
CREATE TABLE IF NOT EXISTS items (
    item_id TEXT PRIMARY KEY,
    data    TEXT NOT NULL               -- the item's JSON as validated (data/mandela.Item)
);
CREATE TABLE IF NOT EXISTS tasks (
    key            TEXT PRIMARY KEY,    -- protocol.tasks.task_key
    item_id        TEXT NOT NULL,
    probe          TEXT NOT NULL,
    condition      TEXT NOT NULL,
    model          TEXT NOT NULL,       -- alias, else PROVIDER/MODEL
    prompt         TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    variant_id     TEXT,                -- image variant id, NULL for text-only
    params         TEXT NOT NULL,       -- JSON generation parameters
    extra          TEXT NOT NULL DEFAULT '{}',
    created_at     REAL NOT NULL,
    superseded_by  TEXT                 -- NULL: current; else the key of the task that replaced it
);
CREATE INDEX IF NOT EXISTS tasks_model ON tasks(model, probe, condition);
CREATE TABLE IF NOT EXISTS answers (
    task_key      TEXT PRIMARY KEY REFERENCES tasks(key),  -- one answer per task, ever
    text          TEXT NOT NULL,
    raw           TEXT NOT NULL,        -- JSON response without image bytes or keys
    finish_reason TEXT,
    input_tokens  INTEGER,
    output_tokens INTEGER,
    latency_s     REAL,
    attempts      INTEGER NOT NULL,
    request       TEXT NOT NULL,        -- JSON of the exact request parameters, image as its variant id
    created_at    REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS errors (
    task_key   TEXT PRIMARY KEY REFERENCES tasks(key),
    reason     TEXT NOT NULL,
    status     INTEGER,
    attempts   INTEGER NOT NULL,
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS verdicts (
    task_key       TEXT PRIMARY KEY REFERENCES tasks(key),
    verdict        TEXT NOT NULL,       -- REAL/FAKE/YES/NO/RECOGNISED/NOT_RECOGNISED/NAMES/CANNOT/KNOWN/UNKNOWN/MISS
    detail         TEXT NOT NULL DEFAULT '{}',  -- JSON: names asserted, event, year, ...
    parser_version TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS grades (
    task_key               TEXT NOT NULL REFERENCES tasks(key),
    judge                  TEXT NOT NULL,   -- judge model name, e.g. builtin/rules
    level                  INTEGER,         -- 0..4; NULL when unscored
    status                 TEXT NOT NULL,   -- graded | auto (E0 without a call) | unscored
    reason                 TEXT,
    identity_asserted      TEXT,
    contradiction_asserted TEXT,
    rubric_version         TEXT NOT NULL,
    judge_spec             TEXT NOT NULL,
    raw                    TEXT,
    attempts               INTEGER NOT NULL DEFAULT 1,
    created_at             REAL NOT NULL,
    PRIMARY KEY (task_key, judge)
);
"""
