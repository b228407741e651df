"""Runs and datasets in the tools people already use: Inspect logs, VLMEvalKit prediction files,
model-card ``model-index`` blocks and Hugging Face dataset folders.

Engine-level: nothing here imports a suite. What a format needs from a benchmark comes in as plain
data (:class:`.run_formats.Benchmark`: headline metrics, the right answer of a task) or as the
suite's :class:`.layout.DatasetLayout`; each format's library is an extra (:mod:`.extras`),
imported only when that format is asked for.
"""
