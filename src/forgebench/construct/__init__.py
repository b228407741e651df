"""Building a benchmark from seed folders: what every benchmark's construction shares.

Scene records and the fact table (``scenes.py``, ``facts.py``), edit specifications
(``specs.py``) and their common checks (``verify.py``), editors as models (``edit_api.py``,
``editors*.py``, ``editor_model.py``), the work store that makes a build resumable
(``workstore.py``, ``render.py``, ``steps.py``), the gates every candidate shares (``gates.py``,
``faces.py``, ``model_gates.py``), the leakage audit and detectors (``audit_meta.py``,
``detectors_*.py``) and the build itself (``build.py``). What one benchmark adds (proposers,
rules, its gates and assembly) is its suite's :class:`~forgebench.construct.parts.Construction`,
received through ``construct.registry.CONSTRUCTIONS`` (filled when a suite is loaded): this
package imports no suite.
"""
