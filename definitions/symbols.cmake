# SPDX-License-Identifier: BSD-3-Clause
# The symboliser (weft/symbols.h), included from definitions/CMakeLists.txt.
#
# A static PIC library, weft_symbols, linked into libweft-ompt only: libbfd
# is GPL-3, so libweft and libweft-mpi must not depend on it. With libbfd
# (Debian: binutils-dev) it names functions from the static symbol table,
# demangles C++ and finds file:line in DWARF; without it (WEFT_BFD=OFF, or
# AUTO and not found) it falls back to dladdr: exported functions only.
#
# weft_symbols calls weft_log_verbose but does not link the recorder: the
# program or library it is linked into also links libweft (libweft-ompt) or
# weft_internal (tests), listed after it.
set(WEFT_BFD AUTO CACHE STRING "Symbolise code addresses with libbfd: AUTO, ON or OFF")
set_property(CACHE WEFT_BFD PROPERTY STRINGS AUTO ON OFF)
if(NOT WEFT_BFD MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "WEFT_BFD must be AUTO, ON or OFF, not '${WEFT_BFD}'")
endif()

set(weft_have_bfd OFF)
if(NOT WEFT_BFD STREQUAL "OFF")
    find_path(WEFT_BFD_INCLUDE_DIR bfd.h)
    find_library(WEFT_BFD_LIBRARY NAMES bfd)
    if(WEFT_BFD_INCLUDE_DIR AND WEFT_BFD_LIBRARY)
        # Debian 12 ships a shared libbfd (libbfd-2.40-system.so, which pulls
        # in libz, libzstd and libsframe itself); a static libbfd.a needs
        # those three on the link line as well.
        include(CheckCSourceCompiles)
        set(weft_bfd_probe "#include <bfd.h>
            int main(void) { bfd_init(); return bfd_demangle(0, \"_Z1fv\", 3) == 0; }")
        set(CMAKE_REQUIRED_INCLUDES ${WEFT_BFD_INCLUDE_DIR})
        set(CMAKE_REQUIRED_LIBRARIES ${WEFT_BFD_LIBRARY})
        check_c_source_compiles("${weft_bfd_probe}" WEFT_BFD_LINKS)
        set(WEFT_BFD_EXTRA_LIBRARIES "")
        if(NOT WEFT_BFD_LINKS)
            set(CMAKE_REQUIRED_LIBRARIES ${WEFT_BFD_LIBRARY} sframe z zstd)
            check_c_source_compiles("${weft_bfd_probe}" WEFT_BFD_LINKS_STATIC)
            set(WEFT_BFD_EXTRA_LIBRARIES sframe z zstd)
        endif()
        unset(CMAKE_REQUIRED_INCLUDES)
        unset(CMAKE_REQUIRED_LIBRARIES)
        if(WEFT_BFD_LINKS OR WEFT_BFD_LINKS_STATIC)
            set(weft_have_bfd ON)
        endif()
    endif()
    if(NOT weft_have_bfd)
        if(WEFT_BFD STREQUAL "ON")
            message(FATAL_ERROR "WEFT_BFD=ON but no usable libbfd was found: install binutils-dev "
                                "(Debian) or configure with -DWEFT_BFD=AUTO or OFF")
        endif()
        message(STATUS "weft: libbfd not found (binutils-dev): code addresses are named by "
                       "dladdr only (exported functions, no file:line)")
    endif()
else()
    message(STATUS "weft: WEFT_BFD=OFF: code addresses are named by dladdr only "
                   "(exported functions, no file:line)")
endif()

add_library(weft_symbols STATIC
    symbols.c
    symbols_cache.c
    symbols_objects.c
    symbols_strings.c
    symbols_dladdr.c
    symbols_format.c)
set_target_properties(weft_symbols PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(weft_symbols
    PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include
    PRIVATE ${PROJECT_SOURCE_DIR}/recorder/include)
target_compile_definitions(weft_symbols PRIVATE _GNU_SOURCE)
target_link_libraries(weft_symbols PUBLIC Threads::Threads ${CMAKE_DL_LIBS})
if(weft_have_bfd)
    target_sources(weft_symbols PRIVATE symbols_bfd.c)
    target_include_directories(weft_symbols SYSTEM PRIVATE ${WEFT_BFD_INCLUDE_DIR})
    target_link_libraries(weft_symbols PUBLIC ${WEFT_BFD_LIBRARY} ${WEFT_BFD_EXTRA_LIBRARIES})
else()
    target_sources(weft_symbols PRIVATE symbols_nobfd.c)
endif()

# `weft info` reports it (tools/ reads WEFT_HAVE_BFD).
set(WEFT_HAVE_BFD ${weft_have_bfd} PARENT_SCOPE)
