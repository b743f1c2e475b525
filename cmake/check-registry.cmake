# ctest harness.registry: the runner's --list/--list-fixtures must name exactly the tests the
# configure-time scan registered.
execute_process(COMMAND "${RUNNER}" --list OUTPUT_VARIABLE units RESULT_VARIABLE rc1)
execute_process(COMMAND "${RUNNER}" --list-fixtures OUTPUT_VARIABLE fixtures RESULT_VARIABLE rc2)
if(NOT rc1 EQUAL 0 OR NOT rc2 EQUAL 0)
    message(FATAL_ERROR "xgd-tests --list failed (${rc1}, ${rc2})")
endif()
string(REGEX REPLACE "\n$" "" units "${units}")
string(REGEX REPLACE "\n$" "" fixtures "${fixtures}")
string(REPLACE "\n" ";" actual "${units}")
string(REPLACE "\n" ";" fixture_list "${fixtures}")
list(APPEND actual ${fixture_list})
list(REMOVE_ITEM actual "")
list(SORT actual)
string(REPLACE "," ";" expected "${EXPECTED}")
list(SORT expected)
if(NOT actual STREQUAL expected)
    message(FATAL_ERROR "runner lists [${actual}] but the scan registered [${expected}]; "
                        "re-run cmake, or write each test as XGD_TEST(name) / XGD_FIXTURE(name) "
                        "at the start of a line")
endif()
list(LENGTH actual n)
message(STATUS "registry agrees: ${n} tests")
