# Two entry points, both set everything up on a fresh machine first:
#   make run    the main job (the terminal game; the web app once it lands)
#   make test   every test
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run play test bench typecheck lint

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all,test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/blokus play --variant duo

test: $(STAMP)
	$(PY) -m mypy
	$(PY) -m ruff check blokus tests benchmarks
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/movegen.py
