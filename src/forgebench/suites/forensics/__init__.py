"""Forensics-Bench (seed 002): multiple-choice forgery questions over five perspectives.

Modules: :mod:`.taxonomy` (release tokens -> Table 5 type codes), :mod:`.contract` (our JSONL
form), :mod:`.tsv_rows` / :mod:`.tsv_import` / :mod:`.tsv_export` (the release TSV),
:mod:`.validate`, :mod:`.prompt` (the release's MCQ prompt), :mod:`.extract` (option extraction,
§4.1; :mod:`.answer_text` and :mod:`.reading` read the answer), :mod:`.scores` (accuracy and
perspective scores), :mod:`.perturb` (robustness conditions).
"""
