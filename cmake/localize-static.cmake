# localize-static.cmake - rewrites a static archive so that it exports only the names that
# start with KEEP (xgd_). Its objects are combined by a partial link (-r) into one object, in
# which objcopy makes every other defined global symbol local; the archive then holds that one
# object. The library's own cross-file references were resolved by the partial link, so
# nothing is lost, and a program linking the archive next to vkd3d, Vulkan or SDL (or its own
# INITGUID interface IDs) meets no name of xgd's but the public ones.
#
#   cmake -DARCHIVE=libxgd.a -DCC=cc -DOBJCOPY=objcopy -DOBJDUMP=objdump -DAR=ar -DKEEP=xgd_
#         -P localize-static.cmake
foreach(v ARCHIVE CC OBJCOPY AR KEEP)
    if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
        message(FATAL_ERROR "localize-static.cmake: ${v} is not set")
    endif()
endforeach()

set(work "${ARCHIVE}.localize")
file(REMOVE_RECURSE "${work}")
file(MAKE_DIRECTORY "${work}")
# The object is named after the archive (libxgd.a -> xgd.o), so a link map names the library.
get_filename_component(stem "${ARCHIVE}" NAME_WE)
string(REGEX REPLACE "^lib" "" stem "${stem}")
set(object "${work}/${stem}.o")

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(NOT rc EQUAL 0)
        string(REPLACE ";" " " cmd "${ARGN}")
        message(FATAL_ERROR "localize-static.cmake: ${cmd}\n${out}")
    endif()
endfunction()

# -nostdlib: only the archive's members go into the object (no start files, no libraries).
run("${CC}" -r -nostdlib -o "${object}"
    -Wl,--whole-archive "${ARCHIVE}" -Wl,--no-whole-archive)
# COMDAT (link-once) symbols stay global. They exist in PE/COFF objects (mingw-w64): the
# Direct3D 12 interface IDs INITGUID defines are __declspec(selectany), and gcc reaches
# external data through .refptr.* link-once pointers. A PE linker keeps one copy of each such
# section and discards the others by name, never reporting a duplicate; a local symbol in a
# discarded copy would leave xgd's references to it pointing at address 0 (seen in a link
# where the program defines the same interface IDs). ELF objects of C code have none.
set(keep_file "${work}/keep-global.txt")
file(WRITE "${keep_file}" "")
if(OBJDUMP)
    execute_process(COMMAND "${OBJDUMP}" -h "${object}" RESULT_VARIABLE rc
                    OUTPUT_VARIABLE sections ERROR_QUIET)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "localize-static.cmake: ${OBJDUMP} -h ${object} failed")
    endif()
    string(REGEX MATCHALL "\\(COMDAT [^ )]+" comdat "${sections}")
    list(TRANSFORM comdat REPLACE "^\\(COMDAT " "")
    list(REMOVE_DUPLICATES comdat)
    string(REPLACE ";" "\n" comdat "${comdat}")
    file(WRITE "${keep_file}" "${comdat}\n")
endif()
run("${OBJCOPY}" --wildcard "--keep-global-symbol=${KEEP}*" "--keep-global-symbols=${keep_file}"
    "${object}")
run("${AR}" rcs "${work}/${stem}.a" "${object}")
file(RENAME "${work}/${stem}.a" "${ARCHIVE}")
file(REMOVE_RECURSE "${work}")
