# xgd: two commands matter.
#   make demo   installs what is missing, builds, renders build/demo.png
#   make test   installs what is missing, builds, runs the whole test suite
# Also: make asan (ASan+UBSan build and suite), make clang (clang build and suite),
#       make tsan (ThreadSanitizer build, the tests that use threads),
#       make consumer (install + find_package/pkg-config consumers), make fuzz (libFuzzer
#       targets in build-fuzz/, each run FUZZ_SECONDS from fuzz/corpus/ with a fixed seed,
#       FUZZ_SEED; FUZZ_SEED=0 explores), make clean.

BUILD       ?= build
BUILD_ASAN  ?= build-asan
BUILD_CLANG ?= build-clang
BUILD_TSAN  ?= build-tsan
BUILD_HEADLESS ?= build-headless
# The tests `make tsan` runs (a ctest regex): the two-device, two-thread fixture on the software
# renderer and the unit tests that start threads (SoftwareThreads_: the software renderer's
# rasterizer threads). Add `|^conformance\.(vulkan|d3d12)\.Threads_`
# to check the GPU renderers too (slower; third-party reports suppressed by tests/tsan.supp).
TSAN_TESTS  ?= ^conformance\.software\.Threads_|^unit\.D3D12_FenceFallsBack$$|^unit\.handles_two_threads$$|^unit\.SoftwareThreads_
BUILD_FUZZ  ?= build-fuzz
FUZZ_SECONDS ?= 120
# each file-format fuzz target (png, hlsl, xfx, ...): one loader, fewer seconds
FUZZ_SECONDS_SMALL ?= 20
BUILD_TYPE  ?= RelWithDebInfo
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_ARGS  ?=

# Debian packages. `make demo` / `make test` install what every renderer Linux can run needs:
# the toolchain, pkg-config, libspng (PNG load/save); the Vulkan loader and headers, glslang
# (stock shaders to SPIR-V at build time), lavapipe (a CPU Vulkan device) and the Khronos
# validation layer (the vulkan suite runs under it); vkd3d (Direct3D 12 on Vulkan).
DEPS        := cmake build-essential gcc pkg-config libspng-dev
# stb_image / stb_image_write headers: JPEG, BMP, GIF, TGA load and JPEG save.
DEPS        += libstb-dev
DEPS        += libvulkan-dev glslang-tools mesa-vulkan-drivers vulkan-validationlayers
DEPS        += libvkd3d-dev
# HLSL effect source compiled at run time: glslang's libraries, SPIRV-Cross' C library for
# reflection (optional at build time).
DEPS        += glslang-dev libspirv-cross-c-shared-dev
# Effects loaded from bytes: MojoShader parses fx_2_0 and translates D3D9 shaders to SPIR-V
# (the software executor's and the DXBC translator's tests use it too).
DEPS        += libmojoshader-dev
# libmspack: the LZX decoder of compressed .xnb content (src/content/xnb.c).
DEPS        += libmspack-dev
# Windowed devices: SDL2 and X11 windows (src/platform; each optional at build time).
DEPS        += libsdl2-dev libx11-dev
# SpriteFonts from TrueType files: stb_truetype (libstb-dev); DejaVu Sans for the font tests
# and the demo's line of text (fonts-dejavu-core).
DEPS        += fonts-dejavu-core
# CI adds clang (second compiler) and clang's runtimes (libFuzzer and the sanitizers for
# `make fuzz`; clang only recommends them, and packages are installed without recommends),
# and for .ci/check-dxbc.sh (committed DXBC -> SPIR-V -> spirv-val) and .ci/windows-cross.sh:
# vkd3d-compiler, spirv-tools, xxd, mingw-w64.
CI_DEPS     := $(DEPS) clang libclang-rt-14-dev vkd3d-compiler spirv-tools xxd mingw-w64
# xvfb-run (and its xauth): the windowed fixtures run against a virtual X server.
CI_DEPS     += xvfb xauth
# openbox: an EWMH window manager for the full-screen fixture (Xvfb has none, and borderless
# full screen is applied by the window manager); xprop (x11-utils) to wait until it runs.
CI_DEPS     += openbox x11-utils
# wine: .ci/windows-cross.sh runs the Windows programs it links, the DXGI swap-chain test among
# them (Wine's Direct3D 12 is vkd3d on lavapipe).
CI_DEPS     += wine

.PHONY: all deps ci-deps build demo test window-test asan asan-build clang clang-build tsan headless-build consumer fuzz clean

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

# The windowed fixtures (every renderer) against a virtual X server: one at a time, since the X
# server keeps no pixels of a window another covers; a missing display fails instead of
# skipping (XGD_TEST_REQUIRE_DISPLAY).
window-test: build
	XGD_TEST_REQUIRE_DISPLAY=1 xvfb-run -a -s '-screen 0 1024x768x24' \
	    ctest --test-dir $(BUILD) --output-on-failure --no-tests=error -j1 -R '^conformance\..*\.Window_' \
	    -E 'FullScreenByReset'
	XGD_TEST_REQUIRE_DISPLAY=1 XGD_TEST_REQUIRE_WM=1 xvfb-run -a -s '-screen 0 1024x768x24' \
	    sh -c 'openbox & wm=$$!; \
	    for i in $$(seq 50); do xprop -root _NET_SUPPORTING_WM_CHECK 2>/dev/null | grep -q window && break; sleep 0.2; done; \
	    ctest --test-dir $(BUILD) --output-on-failure --no-tests=error -j1 \
	        -R "^conformance\..*\.Window_.*FullScreenByReset"; \
	    rc=$$?; kill $$wm; wait $$wm; exit $$rc'

# The *-build targets only build (CI times builds and suites apart).
asan-build: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DXGD_SANITIZE=ON -DXGD_FAULT_INJECTION=ON $(CMAKE_ARGS)
	cmake --build $(BUILD_ASAN) -j $(JOBS)

asan: asan-build
	ctest --test-dir $(BUILD_ASAN) --output-on-failure -j2

clang-build: ci-deps
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_CLANG) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)
	cmake --build $(BUILD_CLANG) -j $(JOBS)

clang: clang-build
	ctest --test-dir $(BUILD_CLANG) --output-on-failure -j2

# ThreadSanitizer: any report fails its test (TSAN_OPTIONS set by CMake for ctest).
tsan: deps
	cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DXGD_TSAN=ON -DXGD_BUILD_TOOLS=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_TSAN) -j $(JOBS) --target xgd-tests
	ctest --test-dir $(BUILD_TSAN) --output-on-failure --no-tests=error -j2 -R '$(TSAN_TESTS)'

# SDL2 and X11 are optional: a build without them (headless devices only) must still compile.
headless-build: deps
	cmake -S . -B $(BUILD_HEADLESS) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DXGD_SDL2=OFF -DXGD_X11=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_HEADLESS) -j $(JOBS)

consumer: build
	bash cmake/consumer-check.sh $(BUILD) $(BUILD)/consumer-check

# libFuzzer (clang): the software renderer only, so each input runs in milliseconds.
fuzz: ci-deps
	CC=clang CXX=clang++ cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXGD_FUZZ=ON \
	    -DXGD_BUILD_TESTS=OFF -DXGD_BUILD_TOOLS=OFF -DXGD_VULKAN=OFF -DXGD_D3D12=OFF $(CMAKE_ARGS)
	cmake --build $(BUILD_FUZZ) -j $(JOBS)
	sh fuzz/run.sh $(BUILD_FUZZ) $(FUZZ_SECONDS) $(FUZZ_SECONDS_SMALL)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_CLANG) $(BUILD_TSAN) $(BUILD_FUZZ) $(BUILD_HEADLESS)
