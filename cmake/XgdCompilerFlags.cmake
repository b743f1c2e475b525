# Warning set (and floating-point contraction off) shared by every xgd target (library, tests, tools): the project compiles
# warning-free under gcc and clang.
function(xgd_target_warnings target)
    if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
        target_compile_options(${target} PRIVATE
            -Wall -Wextra -Wpedantic $<$<COMPILE_LANGUAGE:C>:-Wstrict-prototypes> -Wshadow)
        # no fused multiply-add unless written: the software renderer's SIMD row path and its
        # scalar reference must round alike (clang contracts by default where FMA exists)
        target_compile_options(${target} PRIVATE -ffp-contract=off)
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
