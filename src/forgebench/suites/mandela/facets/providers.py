"""The model backends Mandela brings (registered when the suite loads; this module stays
light): ``builtin/rules``, the offline evidence-ladder judge, and ``builtin/verifier``, the
knowledge verifier."""

from __future__ import annotations

from forgebench.suites.facets import Providers

PROVIDERS = Providers(
    {
        "builtin/rules": "forgebench.suites.mandela.rules_model",
        "builtin/verifier": "forgebench.suites.mandela.verifier.model",
    }
)
