"""The run store's schema (``RUN/run.sqlite``): the contract between the stages.

Generation writes ``items``, ``tasks``, ``answers``, ``errors`` and ``outputs``; scoring writes
``verdicts`` and ``judgements``. Columns listed here are never removed or renamed; new columns may
be added. Images and secrets never go in.

Version 2 (the benchmark-suite seam) added ``items.benchmark`` and ``tasks.benchmark`` (ids of
different benchmarks may collide; the benchmark is kept outside the task key, so runs made before
still resume), the generic ``judgements`` table keyed by (task, judge, kind) that replaced the
``grades`` table (``grades`` is now a view of the ``evidence`` judgements with the old columns), and
``outputs`` (files an answer carries, by content hash). :mod:`.migrate` upgrades a version-1 store
on open; a newer or unknown version is refused.

Version 3 (several images per question) added ``tasks.images``: for a task with more than one
image, a JSON list of ``[variant_id, path, media_type]`` for every image in order (the first is
also in ``variant_id``, ``image_path`` and ``media_type``, as before); NULL for a task with one
image or none. A version-2 store gains the column (all NULL: its tasks have one image at most).

Version 4 (construction steps in the store) added ``construct_steps``: the finished steps of a
construction work folder's multi-step candidates (:mod:`forgebench.run.store.steps`). A work
folder's store that already holds the table (construction created it itself before) keeps its
rows; a run directory's store gets it empty.

Version 5 (Forensics candidate rows as the release sends them) changed no table: a Forensics
candidate row's ``full`` question now shows its images apart, and the tiled single image it showed
before is condition ``tiled``. The migration relabels those stored tasks ``tiled`` under the key
that question has, everywhere the key appears (:mod:`.migrate`).

Version 6 (a new run's tasks stored at the speed of the disk) changed no column: ``tasks.key`` is
unique through the index ``tasks_key`` instead of the table's primary key. Indexes that are not
part of the table's definition can be dropped while a new run's tasks are loaded and built after
from one sort each (:meth:`~forgebench.run.store.tasks.TasksPart.load_tasks`): random 32-hex keys
inserted one at a time cost the B-tree several times what the rows themselves cost. The migration
rebuilds ``tasks`` with the same columns, rows and rowids.

Version 7 (every table declared here) changed no row: ``replica_stats`` (per-replica counters,
:mod:`forgebench.run.store.replicas`) is declared in :data:`SCHEMA` like every other table. A run
made before created it itself when it first used replicas, and one made before its ``timeouts``
column existed lacks that column; the migration creates the table where it is missing and adds
the column where it lacks, keeping every row.

Version 8 (repeats: ``run --epochs N``) added ``tasks.epoch``: which repeat of its question a task
is (1 for the first ask). The epoch is part of the task key only from 2 on, so every task stored
before is epoch 1 under its own key. A task's identity for superseding is its model, item, probe,
condition, extra and epoch (the repeats of a question never supersede one another). Stages that
score read the current epoch-1 tasks (:data:`~forgebench.run.store.base.CURRENT`), so every
metric row keeps its meaning; sending reads every epoch (:data:`~forgebench.run.store.base.LIVE`).

Version 9 (images that fit each model) added ``tasks.resized``: for a task whose model was sent
resized images (its image limits, ``run/fit.py``), a JSON list with one record per resized image
(``image`` position, ``of`` the variant it was made from, ``from`` and ``to`` as ``[width,
height, bytes]``, ``over`` the limits it was over); NULL for every other task. A store made before
gains the column, all NULL (no model had limits then).

Version 10 (one viewer for all) added ``pair_scores``: the per-pair scores of predictions scored
from files rather than asked as tasks (PIXAR's detector score maps and predicted masks, ``pixar
score --out RUN`` and the demo's detector): one row per benchmark, model and pair with its IoU and
pixel F1 (percent), the truth map, the prediction and the edited image it was made from
(:mod:`forgebench.run.store.pairs`), so the report's viewer shows them with their masks. A store
made before gains the table, empty (those scores were in ``metrics.csv`` only).
"""

from __future__ import annotations

SCHEMA_VERSION = 10

JUDGEMENTS = """
CREATE TABLE IF NOT EXISTS judgements (
    task_key   TEXT NOT NULL REFERENCES tasks(key),
    judge      TEXT NOT NULL,           -- judge name, e.g. builtin/rules
    kind       TEXT NOT NULL,           -- what is judged: evidence (E0-E4), letter, uptake, gate:...
    value      TEXT,                    -- the judgement as text (E3, B, pass); NULL when unscored
    level      INTEGER,                 -- numeric form where there is one (0..4); NULL otherwise
    status     TEXT NOT NULL,           -- graded | auto (no call needed) | unscored
    reason     TEXT,
    detail     TEXT NOT NULL DEFAULT '{}',  -- JSON: kind-specific fields
    version    TEXT NOT NULL,           -- rubric / prompt / gate version
    judge_spec TEXT NOT NULL,
    raw        TEXT,
    attempts   INTEGER NOT NULL DEFAULT 1,
    created_at REAL NOT NULL,
    PRIMARY KEY (task_key, judge, kind)
);
"""
"""The generic judgements table (schema 2), also created by the 1 -> 2 migration."""

CONSTRUCT_STEPS = """
CREATE TABLE IF NOT EXISTS construct_steps (
    task_key   TEXT NOT NULL,           -- the candidate's task key
    step       INTEGER NOT NULL,        -- the step's index
    inputs     TEXT NOT NULL,           -- hash of the step and the pixels it starts from
    sha256     TEXT NOT NULL,           -- the step's image in the work folder's blobs
    cost       REAL NOT NULL,           -- what rendering it cost (summed when rendered again)
    created_at REAL NOT NULL,
    PRIMARY KEY (task_key, step, inputs)
);
"""
"""The construction steps table (schema 4), also created by the 3 -> 4 migration."""

REPLICA_STATS = """
CREATE TABLE IF NOT EXISTS replica_stats (
    model         TEXT NOT NULL,        -- the model's name in the run
    url           TEXT NOT NULL,        -- the replica's base URL (no key: keys live in headers)
    sent          INTEGER NOT NULL,     -- requests sent, over the run's invocations
    answered      INTEGER NOT NULL,
    errors        INTEGER NOT NULL,
    rests         INTEGER NOT NULL,     -- times the replica was rested after failures
    latency_sum_s REAL NOT NULL,        -- summed latency of its answers
    updated_at    REAL NOT NULL,
    timeouts      INTEGER NOT NULL DEFAULT 0,  -- requests not answered in time
    PRIMARY KEY (model, url)
);
"""
"""The per-replica counters (schema 7; runs made before created the table themselves)."""

PAIR_SCORES = """
CREATE TABLE IF NOT EXISTS pair_scores (
    benchmark  TEXT NOT NULL,           -- the suite (pixar)
    model      TEXT NOT NULL,           -- the predictions' name (pixar score --name)
    pair       TEXT NOT NULL,           -- the pair's id: its truth map's file stem
    iou        REAL NOT NULL,           -- the pair's IoU, percent
    f1         REAL NOT NULL,           -- the pair's pixel F1, percent
    truth      TEXT NOT NULL,           -- the truth label map's path
    pred       TEXT,                    -- the prediction's path (NULL: none, scored as empty)
    image      TEXT,                    -- the edited image's path (NULL: not known)
    threshold  REAL NOT NULL,           -- a score map is tampered where score >= threshold
    created_at REAL NOT NULL,
    PRIMARY KEY (benchmark, model, pair)
);
"""
"""Per-pair scores of predictions scored from files (schema 10), also created by 9 -> 10."""

TASKS = """
CREATE TABLE IF NOT EXISTS tasks (
    key            TEXT NOT NULL,       -- run.tasks.task_key (unique: index tasks_key)
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
    superseded_by  TEXT,                -- NULL: current; else the key of the task that replaced it
    image_path     TEXT,                -- where the variant's bytes live (export-batch)
    media_type     TEXT,
    benchmark      TEXT NOT NULL DEFAULT 'mandela',
    images         TEXT,                -- JSON [[variant_id, path, media_type], ...] when several
    epoch          INTEGER NOT NULL DEFAULT 1, -- the repeat (run --epochs); in the key from 2 on
    resized        TEXT                 -- JSON resize records (run/fit.py), NULL when none
);
"""
"""The tasks table (its key is unique through ``tasks_key``, one of :data:`TASK_INDEXES`)."""

TASK_INDEXES = {
    "tasks_key": "CREATE UNIQUE INDEX IF NOT EXISTS tasks_key ON tasks(key)",
    "tasks_model": "CREATE INDEX IF NOT EXISTS tasks_model ON tasks(model, probe, condition)",
    "tasks_identity": (
        "CREATE INDEX IF NOT EXISTS tasks_identity ON tasks(model, item_id, probe, condition)"
    ),
    "tasks_benchmark": "CREATE INDEX IF NOT EXISTS tasks_benchmark ON tasks(benchmark, model)",
}
"""The indexes of ``tasks`` by name: a new run's tasks are loaded without them, then each is
built from one sort."""

TASK_INDEXES_SQL = "".join(sql + ";\n" for sql in TASK_INDEXES.values())

SCHEMA = (
    """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL                 -- JSON
);
CREATE TABLE IF NOT EXISTS items (
    benchmark TEXT NOT NULL,            -- the suite: mandela, pixar, forensics, ...
    item_id   TEXT NOT NULL,
    data      TEXT NOT NULL,            -- the item's JSON as validated by its suite
    PRIMARY KEY (benchmark, item_id)
);
"""
    + TASKS
    + TASK_INDEXES_SQL
    + """CREATE TABLE IF NOT EXISTS answers (
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
CREATE TABLE IF NOT EXISTS outputs (
    task_key   TEXT NOT NULL REFERENCES tasks(key),
    name       TEXT NOT NULL,           -- the output's name within the answer (e.g. image_0)
    sha256     TEXT NOT NULL,           -- content hash: the bytes live in the blob cache
    media_type TEXT NOT NULL,
    size       INTEGER NOT NULL,
    PRIMARY KEY (task_key, name)
);
CREATE TABLE IF NOT EXISTS verdicts (
    task_key       TEXT PRIMARY KEY REFERENCES tasks(key),
    verdict        TEXT NOT NULL,       -- the suite parser's verdict (REAL/FAKE/..., a letter, MISS)
    detail         TEXT NOT NULL DEFAULT '{}',  -- JSON: names asserted, event, year, step, ...
    parser_version TEXT NOT NULL
);
"""
    + JUDGEMENTS
    + CONSTRUCT_STEPS
    + REPLICA_STATS
    + PAIR_SCORES
    + """
CREATE VIEW IF NOT EXISTS grades AS
    SELECT task_key, judge, level, status, reason,
           json_extract(detail, '$.identity_asserted') AS identity_asserted,
           json_extract(detail, '$.contradiction_asserted') AS contradiction_asserted,
           version AS rubric_version, judge_spec, raw, attempts, created_at
    FROM judgements WHERE kind = 'evidence';
"""
)
