# mingw-w64.cmake - CMake toolchain for cross-compiling xgd to 64-bit Windows with mingw-w64
# (Debian: apt-get install mingw-w64). Use: cmake -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(XGD_MINGW_TRIPLE x86_64-w64-mingw32 CACHE STRING "mingw-w64 target triple")
set(CMAKE_C_COMPILER ${XGD_MINGW_TRIPLE}-gcc)
set(CMAKE_RC_COMPILER ${XGD_MINGW_TRIPLE}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${XGD_MINGW_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# C99/C11 printf (%zu) in the C runtime, matching the format checks.
add_compile_definitions(__USE_MINGW_ANSI_STDIO=1)
# pkg-config must not hand the build machine's Linux libraries (libspng, vkd3d) to the cross
# build: only .pc files of the target's sysroot count (Debian ships no mingw libspng, so
# XGD_PNG defaults to OFF here).
set(ENV{PKG_CONFIG_LIBDIR} "/usr/${XGD_MINGW_TRIPLE}/lib/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
