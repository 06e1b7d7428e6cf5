# Two commands do all set-up on a fresh machine (Python 3.11, pip; Debian or Ubuntu for the rest):
#   make certify   certify the embedded reference and write the report
#   make test      run the whole test suite
# Both run the install step: the virtual environment (refreshed when pyproject.toml changes) and, through
# apt-get where it can (as root or with password-less sudo), Java 17 for the report pipeline (Spark) and
# Debian's chromium for the report's browser test, and, where Go is installed, builds the go-msrpc client shim
# (shims/go-msrpc, its modules fetched through the Go module proxy as go.sum pins them, into .venv/go).  Where it
# cannot, it says so in one line and goes on; the test that needs it then fails, it never skips.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)
APT_PACKAGES := $(strip $(if $(shell command -v java),,openjdk-17-jre-headless) \
                $(if $(shell command -v chromium || command -v chromium-browser),,chromium))

.PHONY: test certify variants install system-packages go-shim clean

install: $(STAMP) system-packages go-shim

$(STAMP): pyproject.toml
	rm -f $(VENV)/.installed-*
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $@

system-packages:
ifneq ($(APT_PACKAGES),)
	@if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "make: no apt-get here; install $(APT_PACKAGES) yourself"; \
	elif [ "$$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then \
	  echo "make: installing $(APT_PACKAGES) needs root: sudo apt-get install -y $(APT_PACKAGES)"; \
	else \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  echo "make: apt-get install $(APT_PACKAGES)"; \
	  { $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    --no-install-recommends $(APT_PACKAGES) >/dev/null; } \
	  || echo "make: apt-get could not install $(APT_PACKAGES); what needs them will fail"; \
	fi
endif

# the go-msrpc shim (tests/test_go_msrpc.py): module and build caches inside .venv, go.sum as it is
GO := $(shell command -v go)
GO_SHIM := shims/go-msrpc/bin/mqspec-go-msrpc
GO_ENV := GOPATH=$(CURDIR)/$(VENV)/go GOMODCACHE=$(CURDIR)/$(VENV)/go/pkg/mod GOCACHE=$(CURDIR)/$(VENV)/go-cache \
          GOFLAGS="-mod=readonly -modcacherw -buildvcs=false" GOTOOLCHAIN=local

ifeq ($(GO),)
go-shim:
	@echo "make: no Go here; the go-msrpc shim is not built (install Go 1.23 or newer: https://go.dev/dl)"
else
go-shim: $(GO_SHIM)

$(GO_SHIM): $(wildcard shims/go-msrpc/*.go) shims/go-msrpc/go.mod shims/go-msrpc/go.sum
	@echo "make: go build $(GO_SHIM)"
	@cd shims/go-msrpc && $(GO_ENV) go build -trimpath -o bin/mqspec-go-msrpc . \
	  || echo "make: go build of the go-msrpc shim failed; tests/test_go_msrpc.py will fail"
endif

# two workers (pytest-xdist): the machine this runs on has two cores
test: install
	$(VENV)/bin/python -m pytest -n 2 --dist worksteal

certify: install
	$(VENV)/bin/mqspec certify --target reference

# the whole suite once per reading of every open decision (about 20 minutes on 2 cores; make test runs the
# same proof in a cheaper form, see tests/test_readings.py)
variants: install
	$(VENV)/bin/python -m pytest tests/test_readings.py --variants -m variants

clean:
	rm -rf $(VENV) results .pytest_cache .hypothesis
