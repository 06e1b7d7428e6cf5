# Two commands do all set-up on a fresh machine (Python 3.11, pip, Java 17):
#   make certify   certify the embedded reference and write the report
#   make test      run the whole test suite
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed-$(shell cksum pyproject.toml | cut -d' ' -f1)

.PHONY: test certify clean

$(STAMP): pyproject.toml
	rm -f $(VENV)/.installed-*
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $@

test: $(STAMP)
	$(VENV)/bin/python -m pytest

certify: $(STAMP)
	$(VENV)/bin/mqspec certify --target reference

clean:
	rm -rf $(VENV) results .pytest_cache .hypothesis
