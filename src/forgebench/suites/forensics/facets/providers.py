"""The model backends Forensics brings (registered when the suite loads; this module stays
light): ``builtin/artefact`` (its own answers for the offline demo), ``builtin/embed`` (the
embedding letter extractor) and ``vlmevalkit`` (replays of a VLMEvalKit result file)."""

from __future__ import annotations

from forgebench.suites.facets import Providers

PROVIDERS = Providers(
    {
        "builtin/artefact": "forgebench.suites.forensics.artefact_model",
        "builtin/embed": "forgebench.suites.forensics.embed_extract",
        "vlmevalkit": "forgebench.suites.forensics.vlmevalkit_model",
    }
)
