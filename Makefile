# Thin wrapper so users type make, make check, make demo.
# The real build is meson + ninja in $(BUILD).
BUILD   ?= build
PREFIX  ?= /usr/local
DESTDIR ?=
SANITIZE ?=
MESON_OPTS ?=

ifneq ($(SANITIZE),)
BUILD := build-san
MESON_OPTS += -Db_sanitize=address,undefined -Db_lundef=false
endif

.PHONY: all build deps check check-long check-loaded demo install clean bench bench-resolution bench-stream-dut

all: build

$(BUILD)/build.ninja:
	@command -v meson >/dev/null || { echo "meson is missing: run 'make deps' (as root) first" >&2; exit 1; }
	meson setup $(BUILD) --prefix=$(PREFIX) $(MESON_OPTS)

build: $(BUILD)/build.ninja
	ninja -C $(BUILD)

deps:
	@bash scripts/deps.sh

# check: all but the long tier (tests/long.list), within 12 minutes here (11 min 16 s from a fresh clone, build included);
# check-long: every test, as CI runs them.
check: deps
	$(MAKE) build
	WR_BUILD=$(BUILD) WR_TIER=quick bash tests/run

check-long: deps
	$(MAKE) build
	WR_BUILD=$(BUILD) WR_TIER=all bash tests/run

# The suite under a light background load (tests/loaded.sh).
check-loaded: deps
	$(MAKE) build
	WR_BUILD=$(BUILD) bash tests/loaded.sh

demo: deps
	$(MAKE) build
	bash scripts/demo.sh $(BUILD)/wirerate

install: build
	DESTDIR=$(DESTDIR) meson install -C $(BUILD) --no-rebuild

clean:
	rm -rf build build-san

bench: deps
	$(MAKE) build
	bash scripts/deps.sh --bench
	bash bench/gen.sh $(BUILD)/wirerate
	bash bench/store.sh $(BUILD)

# What an interleaved matrix resolves on this host: hours at TRIES=20 on a
# VM lab (bench/resolution.sh says how to make it shorter).
bench-resolution: build
	LAB=netns bash bench/resolution.sh $(BUILD)/wirerate
	LAB=vm bash bench/resolution.sh $(BUILD)/wirerate

# The DUT's sender started through its agent beside one started by hand
# in the same VM guest, alternating: a ratio, about 1 or above.
bench-stream-dut: build
	bash bench/stream_dut.sh $(BUILD)/wirerate
