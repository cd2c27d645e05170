# Two commands do all set-up: `make run` and `make test` create .venv when needed.
PYTHON ?= python3
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
