# The two front-door commands (see README): `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PIP := $(VENV)/bin/pip
CONSTRAINTS := .ci/constraints.txt
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: demo test venv venv-dev lint clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -q --upgrade pip

# Core install plus the faces, OCR and fastpng extras (none needs torch) and the offline demo.
venv: $(VENV)/bin/python
	$(PIP) install -q -c $(CONSTRAINTS) -e ".[faces,ocr,fastpng]"

demo: venv
	$(VENV)/bin/forgebench demo --out demo_out

# Every extra that works offline (faces, OCR, text embeddings, Ray); torch first, from its CPU wheel.
# Installed again only when pyproject.toml or the constraints change (the stamp file), so a second
# `make test` starts the tests at once (the install is editable: source changes need none).
DEV_STAMP := $(VENV)/.installed-dev

$(DEV_STAMP): pyproject.toml $(CONSTRAINTS) | $(VENV)/bin/python
	$(PIP) install -q -c $(CONSTRAINTS) torch==2.13.0
	$(PIP) install -q -c $(CONSTRAINTS) -e ".[dev,faces,ocr,text,hf,anthropic,google,construct,diffusers,ray,inspect,datasets,modelcard,xlsx,fastpng]"
	touch $@

venv-dev: $(DEV_STAMP)

# One worker per CPU; tests sharing a session build (the one local Ray) stay on one worker.
test: venv-dev
	$(VENV)/bin/python -m pytest -q -n auto --dist loadgroup

lint: venv-dev
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) demo_out .pytest_cache .mypy_cache .ruff_cache
