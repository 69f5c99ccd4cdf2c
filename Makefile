# pegboard — two commands for a newcomer: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test soak bench lint typecheck table clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/pegboard run

test: $(STAMP)
	$(BIN)/python -m pytest -q

soak: $(STAMP)
	$(BIN)/python -m pytest -q -m soak -o addopts=''

bench: $(STAMP)
	$(BIN)/python -m bench

typecheck: $(STAMP)
	$(BIN)/mypy --config-file mypy.ini firmware

lint: $(STAMP)
	$(BIN)/ruff check host firmware tests bench

# Regenerate the chip's precomputed hint table (best move and fewest pegs left per 15-hole position).
table: $(STAMP)
	$(BIN)/python -m pegboard.tablegen firmware/pegcore/t5_hints.bin firmware/pegcore/t5_finish.bin

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
