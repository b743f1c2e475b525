# test_dxbc_writer.c (the SPIR-V -> DXBC translator of the Direct3D 12 renderer): checks the
# translated DXBC with libvkd3d-shader, makes SPIR-V from D3D9 assembly with MojoShader
# (libmojoshader-dev) and from the HLSL here with glslangValidator (glslang-tools) at build
# time. The MojoShader and glslang parts are skipped (exit 77) where their tool is missing.
# libvkd3d-shader comes with libvkd3d-dev, which the Direct3D 12 renderer needs anyway
pkg_check_modules(XGD_VKD3D_SHADER_PC REQUIRED IMPORTED_TARGET libvkd3d-shader)
target_link_libraries(xgd-tests PRIVATE PkgConfig::XGD_VKD3D_SHADER_PC)
find_library(XGD_MOJOSHADER_LIB mojoshader)
find_path(XGD_MOJOSHADER_INCLUDE mojoshader/mojoshader.h)
if(XGD_MOJOSHADER_LIB AND XGD_MOJOSHADER_INCLUDE)
    target_compile_definitions(xgd-tests PRIVATE XGD_TEST_HAVE_MOJOSHADER)
    target_link_libraries(xgd-tests PRIVATE ${XGD_MOJOSHADER_LIB} m)
endif()
find_program(XGD_GLSLANG_VALIDATOR glslangValidator)
if(XGD_GLSLANG_VALIDATOR)
    # one header, dxbc_hlsl_tests.h, holding every test shader as SPIR-V words
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/dxbc")
    file(MAKE_DIRECTORY "${dir}")
    set(headers "")
    set(table "")
    file(GLOB hlsl_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/dxbc/*.hlsl")
    foreach(src IN LISTS hlsl_sources)
        get_filename_component(base "${src}" NAME_WE)
        foreach(stage vert frag)
            if(stage STREQUAL "vert")
                set(entry VSMain)
            else()
                set(entry PSMain)
            endif()
            set(out "${dir}/${base}_${stage}.h")
            # -Os inlines the HLSL entry point's wrapper (the translator takes one function)
            add_custom_command(OUTPUT "${out}"
                COMMAND ${XGD_GLSLANG_VALIDATOR} -D -V -S ${stage} -e ${entry} -Os
                        --vn dxbc_hlsl_${base}_${stage} -o "${out}" "${src}"
                DEPENDS "${src}" VERBATIM)
            list(APPEND headers "${out}")
            string(APPEND table "#include \"${base}_${stage}.h\"\n")
            string(APPEND table "#define DXBC_HLSL_HAVE_${base}_${stage} 1\n")
        endforeach()
    endforeach()
    # compute shaders (GLSL, <name>.comp): the translator's compute paths beyond mips.comp
    file(GLOB comp_sources CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/dxbc/*.comp")
    foreach(src IN LISTS comp_sources)
        get_filename_component(base "${src}" NAME_WE)
        set(out "${dir}/${base}_comp.h")
        add_custom_command(OUTPUT "${out}"
            COMMAND ${XGD_GLSLANG_VALIDATOR} -V -S comp --vn dxbc_comp_${base} -o "${out}" "${src}"
            DEPENDS "${src}" VERBATIM)
        list(APPEND headers "${out}")
        string(APPEND table "#include \"${base}_comp.h\"\n")
        string(APPEND table "#define DXBC_HAVE_${base}_comp 1\n")
    endforeach()
    file(WRITE "${dir}/dxbc_hlsl_tests.h.in" "${table}")
    configure_file("${dir}/dxbc_hlsl_tests.h.in" "${dir}/dxbc_hlsl_tests.h" COPYONLY)
    add_custom_target(xgd-dxbc-hlsl DEPENDS ${headers})
    add_dependencies(xgd-tests xgd-dxbc-hlsl)
    target_include_directories(xgd-tests PRIVATE "${dir}")
    target_compile_definitions(xgd-tests PRIVATE XGD_TEST_HAVE_DXBC_HLSL)
endif()
