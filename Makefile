# pegboard — two commands for a newcomer: `make run` and `make test`.
VENV := .venv
ifeq ($(OS),Windows_NT)  # GNU make on Windows (Git Bash, MSYS2): the launcher, and a venv's Scripts folder
PY ?= py -3
BIN := $(VENV)/Scripts
else
PY ?= python3
BIN := $(VENV)/bin
endif
# installed: what running needs (pyproject's dependencies); and what testing needs (its [dev] extra)
STAMP_RUN := $(VENV)/.installed-run
STAMP := $(VENV)/.installed

.PHONY: run test mutants soak bench lint typecheck table clean kicad-tools

# Installs are quiet: pip's output goes to .venv/install.log, shown only if it fails.
$(STAMP_RUN): pyproject.toml
	@echo "setting up $(VENV) to run pegboard (first time only, under a minute; log: $(VENV)/install.log)"
	@$(PY) -m venv $(VENV)
	@$(BIN)/pip install --disable-pip-version-check --upgrade pip > $(VENV)/install.log 2>&1 \
		|| { tail -n 30 $(VENV)/install.log; echo "make: updating pip failed (log: $(VENV)/install.log)"; exit 1; }
	@$(BIN)/pip install --disable-pip-version-check -e . >> $(VENV)/install.log 2>&1 \
		|| { tail -n 30 $(VENV)/install.log; echo "make: installing pegboard failed (log: $(VENV)/install.log)"; exit 1; }
	@touch $(STAMP_RUN)
	@echo "$(VENV) is ready to run"

$(STAMP): $(STAMP_RUN)
	@echo "adding the test tools to $(VENV) (first time only, a minute or two; log: $(VENV)/install.log)"
	@$(BIN)/pip install --disable-pip-version-check -e '.[dev]' >> $(VENV)/install.log 2>&1 \
		|| { tail -n 30 $(VENV)/install.log; echo "make: installing the test tools failed (log: $(VENV)/install.log)"; exit 1; }
	@touch $(STAMP)
	@echo "$(VENV) is ready to test"

run: $(STAMP_RUN)
	$(BIN)/pegboard run

# The suite runs in JOBS processes (pytest-xdist), a test file at a time in each, so a file's
# simulated board is started once. More processes than a 2-core machine has cores still help: many
# tests wait on a simulated board's pace. JOBS=auto: one a core; JOBS=1: this one process.
JOBS ?= 4

# KiCad's own ERC runs in its schematic editor, driven by KiAuto (PyPI) from a Python that has
# KiCad's module: a venv of the system's python3 that sees its packages. Made only where that
# python3 has pcbnew (Debian's kicad); elsewhere the ERC tests skip and say what to install.
KICAD_VENV := .venv-kicad
kicad-tools:
	@if { [ ! -x $(KICAD_VENV)/bin/eeschema_do ] || [ ! -x $(KICAD_VENV)/bin/generate_interactive_bom ]; } && /usr/bin/python3 -c "import pcbnew" >/dev/null 2>&1; then \
		echo "adding KiAuto (KiCad's ERC) and InteractiveHtmlBom ($(KICAD_VENV); log: $(KICAD_VENV).log)"; \
		{ /usr/bin/python3 -m venv --system-site-packages $(KICAD_VENV) && \
		  $(KICAD_VENV)/bin/pip install --disable-pip-version-check kiauto InteractiveHtmlBom; } > $(KICAD_VENV).log 2>&1 \
		|| { tail -n 20 $(KICAD_VENV).log; echo "make: installing KiAuto failed (log: $(KICAD_VENV).log)"; exit 1; }; \
	fi

test: $(STAMP) kicad-tools
	$(BIN)/python -m pytest -q -rs $(if $(filter 1,$(JOBS)),,-n $(JOBS) --dist loadfile)

# Mutation testing (tests/mutants.py): small faults put into a copy, one at a time; the survivors and
# each folder's share in mutants-report.txt. Not in `make test`: it runs the tests once a mutation.
mutants: $(STAMP)
	$(BIN)/python tests/mutants.py $(MUTANTS)

soak: $(STAMP)
	$(BIN)/python -m pytest -q -m soak -o addopts=''

bench: $(STAMP)
	$(BIN)/python -m bench

# firmware + host, then the simulator's device fakes as the modules they stand in for (see mypy.ini)
typecheck: $(STAMP)
	$(BIN)/mypy --config-file mypy.ini
	MYPYPATH=host/pegboard/sim/device $(BIN)/mypy --config-file mypy.ini $(wildcard host/pegboard/sim/device/*.py)

lint: $(STAMP)
	$(BIN)/ruff check host firmware tests bench

# Regenerate the chip's precomputed hint table (best move and fewest pegs left per 15-hole position).
table: $(STAMP)
	$(BIN)/python -m pegboard.solve.tablegen firmware/pegcore/t5_hints.bin firmware/pegcore/t5_finish.bin firmware/pegcore/t5_ends.bin

clean:
	rm -rf $(VENV) $(KICAD_VENV) $(KICAD_VENV).log .pytest_cache .mypy_cache
