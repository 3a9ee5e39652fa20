# `make play` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-fast lint bench clean gui-deps web-deps assets lan-check

# The window needs OpenGL; its tests run it on Xvfb with Mesa's software GL (Debian packages),
# and pyglet loads the X11, font and FreeType libraries by name; xdotool types real X input for
# tests/test_gui_penalty_practice.py.
GUI_DEBS := xvfb xauth xdotool libgl1 libegl1 libgl1-mesa-dri libglu1-mesa fonts-dejavu-core \
	libx11-6 libxext6 libxi6 libxrandr2 libxrender1 libxinerama1 libxxf86vm1 libfontconfig1 libfreetype6

# The web page's tests drive Debian's Chromium through Playwright (tests/browser_kit.py): no browser download.
WEB_DEBS := chromium

# One line of progress: pip says only its errors (-qq), with no notice of a newer pip.
$(STAMP): pyproject.toml
	@echo "Setting up $(VENV): board99 and its dependencies (a minute or two on a fresh machine)"
	@$(PYTHON) -m venv $(VENV)
	@PIP_DISABLE_PIP_VERSION_CHECK=1 $(BIN)/pip install -qq --upgrade pip
	@PIP_DISABLE_PIP_VERSION_CHECK=1 $(BIN)/pip install -qq --no-warn-script-location -e '.[test]'
	@touch $(STAMP)

play: $(STAMP) gui-deps
	$(BIN)/board99 play

# Installs GUI_DEBS when missing (as root or with sudo); apt-get update only if the first try fails.
gui-deps:
	@if command -v dpkg >/dev/null && ! dpkg -s $(GUI_DEBS) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo -n"; \
	  else echo "gui-deps: not root and no sudo: install $(GUI_DEBS) for the window and its tests"; exit 0; fi; \
	  echo "gui-deps: installing $(GUI_DEBS)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$sudo apt-get install -y -qq --no-install-recommends $(GUI_DEBS) >/dev/null 2>&1 || \
	  { $$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends $(GUI_DEBS) >/dev/null; }; \
	fi

# Installs WEB_DEBS when missing, as gui-deps does.
web-deps:
	@if command -v dpkg >/dev/null && ! dpkg -s $(WEB_DEBS) >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo -n"; \
	  else echo "web-deps: not root and no sudo: install $(WEB_DEBS) for the browser tests"; exit 0; fi; \
	  echo "web-deps: installing $(WEB_DEBS)"; \
	  export DEBIAN_FRONTEND=noninteractive; \
	  $$sudo apt-get install -y -qq --no-install-recommends $(WEB_DEBS) >/dev/null 2>&1 || \
	  { $$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends $(WEB_DEBS) >/dev/null; }; \
	fi

assets: $(STAMP)
	$(BIN)/python tools/make_assets.py

# ruff, then mypy over the installed name (tools/typecheck.py maps the folders as the wheel does).
lint: $(STAMP)
	$(BIN)/ruff check board99 wire server client commands web tests bench tools
	$(BIN)/python tools/typecheck.py

# The whole suite on every core (pytest-xdist): 6.5 minutes on 2 cores, 12.4 on one process.
test: $(STAMP) lint gui-deps web-deps
	$(BIN)/python -m pytest -n auto --dist worksteal

# The quick loop while working (README, "Contributing"): every test but those marked slow, stopping at the
# first failure. `make test` stays the whole suite, and is what CI runs.
test-fast: $(STAMP) gui-deps web-deps
	$(BIN)/python -m pytest -q -x -m "not slow"

# Two network namespaces as two machines: discovery, a remote bot and a full game across them (root).
lan-check: $(STAMP)
	$(BIN)/python tools/lan_check.py --curve

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
