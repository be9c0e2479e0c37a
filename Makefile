# Thin wrapper over CMake: `make`, `make test`, `make demo`, `make install PREFIX=...`.
# CMake's output goes to $(BUILD)/<step>.log and is shown only when the step
# fails; `make V=1` shows it as it comes.
BUILD ?= build
PREFIX ?= /usr/local
CMAKE_FLAGS ?=
V ?= 0

.PHONY: all deps configure test demo install clean asan

# $(call step,WHAT,LOG,COMMAND): say WHAT, run COMMAND with its output in
# $(BUILD)/LOG.log, and print that output if COMMAND fails.
# $(show_warnings): CMake's warnings in the configure log.
ifeq ($(V),1)
step = $(3)
show_warnings = true
else
step = mkdir -p $(BUILD) && echo "$(1)" && \
	{ $(3) > $(BUILD)/$(2).log 2>&1 || \
	  { cat $(BUILD)/$(2).log; echo "make: $(1) failed (output above, also in $(BUILD)/$(2).log)"; \
	    exit 1; }; }
show_warnings = sed -n '/^CMake Warning/,/^$$/p' $(BUILD)/configure.log
endif

all: configure
	@$(call step,building in $(BUILD)/...,build,cmake --build $(BUILD) -j$$(nproc))

deps:
	@./scripts/install-deps

# CMake's warnings (such as MPI not found) are worth seeing even when it succeeds.
configure: deps
	@test -f $(BUILD)/CMakeCache.txt || { \
	  $(call step,configuring $(BUILD)/...,configure,cmake -S . -B $(BUILD) \
	    -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)) && $(show_warnings); }

test: all
	@cd $(BUILD) && ctest --output-on-failure -j$$(nproc)

demo: all
	@./scripts/demo $(BUILD)

install: all
	@$(call step,installing into $(PREFIX) (files listed in $(BUILD)/install_manifest.txt),install,\
	  cmake --install $(BUILD) --prefix $(PREFIX))

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
asan:
	@$(MAKE) --no-print-directory test BUILD=build-asan \
	  CMAKE_FLAGS="-DIOLENS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"

clean:
	rm -rf $(BUILD) build-asan
