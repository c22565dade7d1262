# Two entry points, both set everything up on a fresh machine first:
#   make run    the main job: the web app (blokus serve) on http://127.0.0.1:8000/
#   make test   every test
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench chromium

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all,test]'
	@echo "Compiling the search kernel (once; numba caches it) ..."
	$(PY) -c "from blokus.players.mcts import warm_up; warm_up()"
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/blokus serve

# The browser tests drive Debian's Chromium (Playwright's own download is not used).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "warning: could not install chromium; the browser tests will be skipped"

test: $(STAMP) chromium
	$(PY) -m mypy
	$(PY) -m ruff check blokus tests benchmarks tools
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) benchmarks/movegen.py
