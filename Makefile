# The two commands of the README: `make demo` and `make test`.  Both set up their own venv.
# The venv's interpreter: the distribution's own /usr/bin/python3 where it is 3.11 or newer and can
# make a venv (Debian builds it with profile-guided optimisation and links it statically: a classic
# hand runs 8 % fewer instructions on it than on an --enable-shared build such as pyenv's, and
# faster still per instruction), else the python3 on PATH.  `make PYTHON=python3.12 …` chooses.
SYSTEM_PYTHON := /usr/bin/python3
PYTHON ?= $(shell $(SYSTEM_PYTHON) -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' \
            >/dev/null 2>&1 && echo $(SYSTEM_PYTHON) || echo python3)
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: all venv espeak browser axe mosquitto demo test test-all bench typecheck clean

all: test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev,hardware]'
	touch $(STAMP)

venv: $(STAMP) espeak browser mosquitto

# The voice (host/shengji_table/face/voice.py) speaks with espeak-ng, a Debian package, not a PyPI
# one: installed here when it is missing and we are root (CI, containers); otherwise the command is
# printed, the table runs silent and the tests that need the real espeak-ng skip, saying why.
espeak:
	@command -v espeak-ng >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q espeak-ng || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q espeak-ng; } \
	      || echo "could not install espeak-ng: the voice stays off"; \
	  else echo "the voice needs espeak-ng: sudo apt-get install espeak-ng"; fi; }

# The browser tests (tests/web/test_browser_*.py) drive Debian's chromium with chromedriver: as
# root they are installed when missing; otherwise the one command to run is printed and the
# browser tests skip, saying so.
# fonts-wqy-microhei (1.6 MB) draws the Chinese text and the jokers (大王, 小王) on the pages; without
# a CJK font headless chromium shows boxes.
BROWSER_PKGS := chromium chromium-driver fonts-wqy-microhei
browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] && fc-list :lang=zh 2>/dev/null | grep -q .; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing $(BROWSER_PKGS) for the browser tests"; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(BROWSER_PKGS) >/dev/null || \
	  echo "could not install $(BROWSER_PKGS): the browser tests will skip"; \
	else echo "the browser tests will skip; to run them: sudo apt-get update && sudo apt-get install -y $(BROWSER_PKGS)"; fi

# axe-core (an npm package) checks the pages' accessibility in the browser tests
# (tests/web/test_browser_layout.py); without npm that check skips, saying so.
axe:
	@[ -f node_modules/axe-core/axe.min.js ] || { command -v npm >/dev/null 2>&1 \
	  && npm install --no-save --no-audit --no-fund --silent axe-core@4 >/dev/null 2>&1; } \
	  || echo "could not install axe-core with npm: the accessibility check will skip"

# The club (docs/club.md) talks over mosquitto, and makes its TLS certificates with openssl: Debian
# packages, installed here when missing and we are root; otherwise the command is printed and the
# club's broker (or TLS) tests skip, saying why.
mosquitto:
	@command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q mosquitto >/dev/null || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q mosquitto >/dev/null; } \
	      || echo "could not install mosquitto: the club's broker tests will skip"; \
	  else echo "the club needs mosquitto: sudo apt-get install mosquitto"; fi; }
	@command -v openssl >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssl >/dev/null || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q openssl >/dev/null; } \
	      || echo "could not install openssl: the club's TLS tests will skip"; \
	  else echo "club certs make needs openssl: sudo apt-get install openssl"; fi; }

# The main job.
demo: $(STAMP) espeak
	$(BIN)/shengji-table demo --web 127.0.0.1:8765

# The tests mostly wait (virtual tables play in real time, brokers, browsers, subprocesses), so
# they run in several worker processes (pytest-xdist), more than there are cores; each test keeps
# its own temporary folder, ports and broker.  TEST_WORKERS=0 runs them in this one process.
TEST_WORKERS ?= 4
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist worksteal

# The whole test suite, bounded for CI (slow soak/fuzz runs use their bounded profile).
test: $(STAMP) espeak browser axe mosquitto
	$(PYTEST)

# Including the long soak/fuzz runs.
test-all: $(STAMP) browser axe mosquitto
	HYPOTHESIS_PROFILE=long $(PYTEST) --run-slow

# Type checks: the host package (mypy.ini); the firmware is checked against the rp2 stubs in the tests.
typecheck: $(STAMP)
	$(BIN)/mypy

# The benchmarks (docs/benchmarks.md): `make bench BENCH="game rules"` runs some; `AGAINST=REV` measures
# that git revision in the same run and prints its figures beside this tree's (`ROUNDS=N`: both N
# times in turn, each figure the median).
BENCH ?=
AGAINST ?=
ROUNDS ?=
bench: $(STAMP)
	$(BIN)/python bench/run.py $(BENCH) $(if $(AGAINST),--against $(AGAINST)) $(if $(ROUNDS),--rounds $(ROUNDS))

clean:
	rm -rf $(VENV) build dist *.egg-info host/*.egg-info
