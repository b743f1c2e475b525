# Warning set shared by every xgd target (library, tests, tools): the project compiles
# warning-free under gcc and clang.
function(xgd_target_warnings target)
    if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE
            -Wall -Wextra -Wpedantic $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes> -Wshadow)
        if(XGD_WERROR)
            target_compile_options(${target} PRIVATE -Werror)
        endif()
    elseif(MSVC)
        target_compile_options(${target} PRIVATE /W4)
        if(XGD_WERROR)
            target_compile_options(${target} PRIVATE /WX)
        endif()
    endif()
endfunction()
