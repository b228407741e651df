# The two front-door commands (see README): `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PIP := $(VENV)/bin/pip
UV := $(VENV)/bin/uv
CONSTRAINTS := .ci/constraints.txt
# PyTorch's CPU wheel lies here on the machines this project is built on; pip's own config looks
# there, uv only when told (elsewhere the pin resolves on PyPI, as pip's would).
WHEELS ?= /opt/wheels
INSTALL = $(UV) pip install -q --python $(VENV)/bin/python -c $(CONSTRAINTS) \
	$(if $(wildcard $(WHEELS)/*.whl),--find-links $(WHEELS))
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: demo test docs venv venv-dev lint clean
# A recipe that fails leaves no target behind, so the next `make` does that step again.
.DELETE_ON_ERROR:

# uv (pinned in the constraints) installs the project: it resolves and unpacks in parallel (every
# dev extra in 15-35 s from a cold cache; pip needs ~2 min). The venv is made without pip and uv is
# put in it by this Python's own pip (`pip --python`, pip >= 22.3), 3 s less than bootstrapping the
# venv's pip first (ensurepip 4 s, then uv 2 s); where that pip is missing or older, the venv's own
# pip installs uv. Each install below adds pip to the venv, for hand use.
$(VENV)/bin/python:
	$(PYTHON) -m venv --without-pip $(VENV) || { rm -rf $(VENV); exit 1; }

$(UV): | $(VENV)/bin/python
	$(PYTHON) -m pip --python $(VENV)/bin/python install -q -c $(CONSTRAINTS) uv 2>/dev/null \
		|| { $(VENV)/bin/python -m ensurepip --default-pip >/dev/null && $(PIP) install -q -c $(CONSTRAINTS) uv; }

# Core install plus the faces, OCR and fastpng extras (none needs torch) and the offline demo.
venv: $(UV)
	$(INSTALL) -e ".[faces,ocr,fastpng]" pip

demo: venv
	$(VENV)/bin/forgebench demo --out demo_out

# Every extra that works offline (faces, OCR, text embeddings, Ray); torch from its CPU wheel.
# Installed again only when pyproject.toml, the constraints or this file change (the stamp file),
# so a second `make test` starts the tests at once (the install is editable: source changes need
# none). The installed packages' byte code is compiled here, once, on every core: left to the
# first imports, the test workers each compiled the same heavy modules (torch, Ray, pandas...)
# at the same time, about 45 s of a fresh clone's `make test` (242 s cold, 197 s warm).
DEV_STAMP := $(VENV)/.installed-dev

$(DEV_STAMP): pyproject.toml $(CONSTRAINTS) Makefile | $(UV)
	$(INSTALL) -e ".[dev,faces,ocr,text,hf,anthropic,google,construct,diffusers,ray,inspect,datasets,modelcard,xlsx,fastpng]" pip
	$(VENV)/bin/python -m compileall -q -j 0 $$($(VENV)/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])") > /dev/null || true
	touch $@

venv-dev: $(DEV_STAMP)

# One worker per CPU and one more (tests/conftest.py: many tests wait on servers and processes);
# tests sharing a session build (the one local Ray, one Chromium) stay on one worker.
# `make test WORKERS=2` sets the number of workers.
WORKERS ?= auto
test: venv-dev
	$(VENV)/bin/python -m pytest -q -n $(WORKERS) --dist loadgroup

# The documentation site (mkdocs.yml) into site/, strictly: a broken link, a page missing from the
# nav or a docstring mkdocstrings cannot read fails it. The report screenshot is made first from the
# demo's report (docs/screenshot.py; a line saying it was skipped where chromium is absent).
docs: venv-dev
	$(VENV)/bin/python docs/screenshot.py
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

lint: venv-dev
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) demo_out site .pytest_cache .mypy_cache .ruff_cache
