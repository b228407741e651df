"""forgebench.run: how asking happens (the engine; it knows no benchmark).

- :mod:`.rundir`: :class:`~forgebench.run.rundir.RunDir`, a run directory checked, marked,
  locked (:mod:`.lock`) and its store file named;
- :mod:`.store`: the run store (SQLite; schema, migrations, one module per table family), the
  only code that speaks SQL;
- :mod:`.send`: sending and scheduling (the runner, the bounded pool, retries, rate limits, the
  store writer, progress, :class:`~forgebench.run.send.SendOptions`);
- :mod:`.generate` (plan, store and send a benchmark's questions), :mod:`.tasks` (task keys),
  :mod:`.source` (what a benchmark gives the engine), :mod:`.images` and :mod:`.source_index`
  (the variant cache), :mod:`.prerender` and :mod:`.executor` (image work on Ray), :mod:`.blobs`;
- the later stages' helpers: :mod:`.judging` and :mod:`.judge_stage`, :mod:`.dryrun`,
  :mod:`.costs`, :mod:`.settings`, :mod:`.batch` and :mod:`.ray_batch`, :mod:`.merge` and
  :mod:`.merge_metrics`, :mod:`.redaction`, :mod:`.rows` and :mod:`.export_source`.
"""
