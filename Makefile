# xgd: two commands matter.
#   make demo   installs what is missing, builds, renders build/demo.png
#   make test   installs what is missing, builds, runs the whole test suite
# Also: make asan (ASan+UBSan build and suite), make clang (clang build and suite),
#       make consumer (install + find_package/pkg-config consumers), make clean.

BUILD       ?= build
BUILD_ASAN  ?= build-asan
BUILD_CLANG ?= build-clang
BUILD_TYPE  ?= RelWithDebInfo
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS  ?=

# Debian packages: the toolchain, pkg-config and libspng (PNG load/save); clang only for CI.
DEPS        := cmake build-essential gcc pkg-config libspng-dev
CI_DEPS     := $(DEPS) clang
# .ci/check-dxbc.sh (committed DXBC -> SPIR-V -> spirv-val) and .ci/windows-cross.sh (mingw-w64)
CI_DEPS     += vkd3d-compiler spirv-tools xxd mingw-w64
# the Vulkan renderer: loader and headers, glslang (stock shaders at build time), lavapipe and
# the Khronos validation layer (the vulkan conformance suite runs under it)
CI_DEPS     += libvulkan-dev glslang-tools mesa-vulkan-drivers vulkan-validationlayers

.PHONY: all deps ci-deps build demo test asan clang consumer clean

all: build

# Installs only the packages dpkg does not report as installed; sudo when not root.
define install_missing
	@if ! command -v dpkg-query >/dev/null 2>&1; then \
	    echo "dpkg-query not found: install $(1) with your package manager"; exit 0; fi; \
	missing=""; \
	for p in $(1); do \
	    dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q "install ok installed" \
	        || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	    sudo=""; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	    echo "installing:$$missing"; \
	    $$sudo apt-get update -q && \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(DEPS))

ci-deps:
	$(call install_missing,$(CI_DEPS))

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/tools/xgd-demo --out $(BUILD)/demo.png
	@echo "demo image: $(abspath $(BUILD)/demo.png)"

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j2

asan: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DXGD_SANITIZE=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j2

clang: ci-deps
	CC=clang cmake -S . -B $(BUILD_CLANG) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)
	cmake --build $(BUILD_CLANG) -j $(JOBS)
	ctest --test-dir $(BUILD_CLANG) --output-on-failure -j2

consumer: build
	bash cmake/consumer-check.sh $(BUILD) $(BUILD)/consumer-check

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_CLANG)
