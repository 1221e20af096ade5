# SPDX-License-Identifier: BSD-3-Clause
# What `cmake --install` puts where, and how users find it again: the
# libraries with exported CMake targets (find_package(weft): weft::weft,
# weft::mpi, weft::ompt, with a version file), pkg-config files (weft.pc,
# weft-mpi.pc; relative to their own place, so --prefix gives correct
# ones), the public headers and the generated weft/version.h.
include(CMakePackageConfigHelpers)

set(weft_exported weft)
set_target_properties(weft PROPERTIES EXPORT_NAME weft)
if(TARGET weft_mpi)
    list(APPEND weft_exported weft_mpi)
    set_target_properties(weft_mpi PROPERTIES EXPORT_NAME mpi)
endif()
if(TARGET weft_ompt)
    list(APPEND weft_exported weft_ompt)
    set_target_properties(weft_ompt PROPERTIES EXPORT_NAME ompt)
endif()
install(TARGETS ${weft_exported} EXPORT weftTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(weft_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/weft)
install(EXPORT weftTargets NAMESPACE weft:: DESTINATION ${weft_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/weftConfig.cmake.in
    ${PROJECT_BINARY_DIR}/weftConfig.cmake INSTALL_DESTINATION ${weft_cmake_dir})
# 0.x: a minor version may change the API, so only the same minor is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/weftConfigVersion.cmake
    COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/weftConfig.cmake ${PROJECT_BINARY_DIR}/weftConfigVersion.cmake
    DESTINATION ${weft_cmake_dir})

install(FILES recorder/include/weft/user.h definitions/include/weft/compiler.h
    ${PROJECT_BINARY_DIR}/include/weft/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/weft)
# The merged POMP proposal's header, by the name its examples include.
install(FILES adapters/pomp/include/pomplib.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

file(RELATIVE_PATH WEFT_PC_PREFIX_FROM_PCDIR
    ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" WEFT_PC_PREFIX_FROM_PCDIR "${WEFT_PC_PREFIX_FROM_PCDIR}")
configure_file(cmake/weft.pc.in ${PROJECT_BINARY_DIR}/weft.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/weft.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TARGET weft_mpi)
    configure_file(cmake/weft-mpi.pc.in ${PROJECT_BINARY_DIR}/weft-mpi.pc @ONLY)
    install(FILES ${PROJECT_BINARY_DIR}/weft-mpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# A program that links weft::mpi needs libweft too (the wrappers record
# through it).
if(TARGET weft_mpi)
    set_property(TARGET weft_mpi APPEND PROPERTY INTERFACE_LINK_LIBRARIES weft)
endif()
# libweft-mpi and libweft-ompt find the libweft installed beside them: a
# program's own RUNPATH does not apply to its libraries' dependencies, and
# --as-needed links often leave libweft out of the program's direct ones.
foreach(adapter weft_mpi weft_ompt)
    if(TARGET ${adapter})
        set_target_properties(${adapter} PROPERTIES INSTALL_RPATH "$ORIGIN")
    endif()
endforeach()
