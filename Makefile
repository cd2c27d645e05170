# Two commands do all set-up: `make run` and `make test` create .venv when needed.
# The interpreter .venv is made with: CPython 3.13 where the machine has one (on the PATH
# or among pyenv's versions), else python3. The bot's CPU a move is mostly Python code, and
# 3.13 runs it about a tenth faster than 3.11 on the same machine (docs/scaling.md, "What
# it costs, measured"); the code runs on 3.11 and newer.
PYTHON ?= $(or $(shell python3.13 -c 'import sys; print(sys.executable)' 2>/dev/null),$(lastword $(wildcard $(HOME)/.pyenv/versions/3.13.*/bin/python3.13)),python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint format demo bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m bot

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

demo: $(STAMP)
	$(PY) -m bot.demo --out demo-output

bench: $(STAMP)
	$(PY) -m benchmarks.hand_analysis
	$(PY) -m benchmarks.mcr_score
	$(PY) -m benchmarks.render
	$(PY) -m benchmarks.simulate
	$(PY) -m benchmarks.ai_decisions --hands 20

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
