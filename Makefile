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
	touch $(STAMP)

# Compile the search kernel here rather than at the first game.  When any
# compiled module changes, importing blokus.kernel drops numba's cached machine
# code of all of them (see kernel.drop_stale_caches), and this compiles again.
COMPILED_SOURCES := blokus/kernel.py blokus/players/mcts.py blokus/rl/batched.py
COMPILED := $(VENV)/.compiled

$(COMPILED): $(STAMP) $(COMPILED_SOURCES)
	@echo "Compiling the search kernel (once; numba caches it) ..."
	$(PY) -c "from blokus.players.mcts import warm_up; warm_up()"
	touch $(COMPILED)

run: $(COMPILED)
	$(VENV)/bin/blokus serve

# The browser tests drive Debian's Chromium (Playwright's own download is not used).
chromium:
	@test -x /usr/bin/chromium || { apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; } || \
	  echo "warning: could not install chromium; the browser tests will be skipped"

test: $(COMPILED) chromium
	$(PY) -m mypy
	$(PY) -m ruff check blokus tests benchmarks tools
	$(PY) -m pytest

bench: $(COMPILED)
	$(PY) benchmarks/movegen.py
