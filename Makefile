# Thin wrapper over CMake: `make`, `make test`, `make demo`, `make install PREFIX=...`.
BUILD ?= build
PREFIX ?= /usr/local
CMAKE_FLAGS ?=

.PHONY: all deps configure test demo install clean asan

all: configure
	cmake --build $(BUILD) -j$$(nproc)

deps:
	./scripts/install-deps

configure: deps
	@test -f $(BUILD)/CMakeCache.txt || cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

test: all
	cd $(BUILD) && ctest --output-on-failure -j$$(nproc)

demo: all
	./scripts/demo $(BUILD)

install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

# The same tests under AddressSanitizer and UndefinedBehaviorSanitizer.
asan:
	$(MAKE) test BUILD=build-asan CMAKE_FLAGS="-DIOLENS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"

clean:
	rm -rf $(BUILD) build-asan
