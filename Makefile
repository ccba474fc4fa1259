# The two commands of the README's quick start: `make run` and `make test`.
# Both create .venv with the system's Python 3.11+ and install the project into it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DATA   ?= ./data

.PHONY: run test lint bench clean venv lan-tools

venv: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "sprtec needs Python 3.11 or newer"'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/sprtec serve --data $(DATA)

# The LAN discovery tests (tests/lan) build network namespaces with iproute2's `ip netns`; as root with apt,
# install it when it is missing (elsewhere those tests skip and say what to install).
lan-tools:
	@command -v ip >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1 || \
		{ apt-get update -qq && apt-get install -y -qq iproute2 >/dev/null; } || true

test: $(STAMP) lan-tools
	$(BIN)/ruff check .
	$(BIN)/mypy --strict shared server sprtec client tools
	$(BIN)/mypy tests
	ARCADE_HEADLESS=1 $(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/sprtec bench physics

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
