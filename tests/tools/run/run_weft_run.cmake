# SPDX-License-Identifier: BSD-3-Clause
# Scenarios of `weft run` that need more than one command (see
# tests/tools/CMakeLists.txt, where each is one CTest entry tools_run_SCENARIO).
# Set on the command line:
#   SCENARIO    which one (below)
#   WEFT        the weft executable        PROBE   run_probe (prints env, argv)
#   LIBDIR      the build tree's directory of libweft.so
#   MPI_LIBDIR  the build tree's directory of libweft-mpi.so ("" when not built)
#   MPI_HELLO   run_mpi_hello ("" when MPI is not built)
#   MPIEXEC, MPIEXEC_NUMPROC_FLAG, OPEN_MPI (ON: add --allow-run-as-root --oversubscribe)
#   OTF2_PRINT  otf2-print
#   WORKDIR     a directory of this scenario's own, emptied first
#
# Scenarios:
#   script                 a "#!" script: not ELF, not MPI, runs, exit status passes
#   corrupt_elf            an executable with a truncated ELF header: inspected
#                          without crashing, "not an MPI program", then exec'd
#   installed_without_mpi  a copy of weft in PREFIX/bin with only libweft.so in
#                          PREFIX/lib: --mpi=yes (and an MPI program under auto)
#                          end with exit 2 and one line; a plain program still runs
#   installed              the same with libweft-mpi.so too: the installed
#                          libraries are preloaded, before the user's LD_PRELOAD
#   mpi_trace              mpirun -np 2 weft run -o DIR -- run_mpi_hello: DIR holds
#                          a trace with MPI_Init and MPI_Finalize on both ranks
#   mpi_verbose            the same with --verbose: says what is preloaded and why
cmake_minimum_required(VERSION 3.20)

file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")

# run(NAME cmd...): runs the command; NAME_rc, NAME_out, NAME_err.
function(run name)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(${name}_rc "${rc}" PARENT_SCOPE)
    set(${name}_out "${out}" PARENT_SCOPE)
    set(${name}_err "${err}" PARENT_SCOPE)
    list(JOIN ARGN " " shown)
    set(${name}_shown "${shown}" PARENT_SCOPE)
endfunction()

# The checks below record what failed in a global property; the script fails
# at the end with all of it. (Functions, not macros: a macro would expand the
# escapes of a regular expression once more.)
function(expect name what ok)
    if(NOT ok)
        string(CONCAT problem "${${name}_shown}\n  ${what}\n  exit code: ${${name}_rc}\n"
            "--- stdout:\n${${name}_out}--- stderr:\n${${name}_err}---\n")
        set_property(GLOBAL APPEND_STRING PROPERTY problems "${problem}")
    endif()
endfunction()

function(expect_rc name code)
    set(ok FALSE)
    if("${${name}_rc}" STREQUAL "${code}")
        set(ok TRUE)
    endif()
    expect(${name} "exit code should be ${code}" ${ok})
endfunction()

function(expect_match name stream regex)
    set(ok FALSE)
    if("${${name}_${stream}}" MATCHES "${regex}")
        set(ok TRUE)
    endif()
    expect(${name} "${stream} should match '${regex}'" ${ok})
endfunction()

function(expect_no_match name stream regex)
    set(ok TRUE)
    if("${${name}_${stream}}" MATCHES "${regex}")
        set(ok FALSE)
    endif()
    expect(${name} "${stream} should not match '${regex}'" ${ok})
endfunction()

# expect_count(NAME STREAM REGEX N): REGEX matches exactly N times.
function(expect_count name stream regex count)
    string(REGEX MATCHALL "${regex}" matches "${${name}_${stream}}")
    list(LENGTH matches found)
    set(ok FALSE)
    if(found EQUAL count)
        set(ok TRUE)
    endif()
    expect(${name} "${stream} should match '${regex}' ${count} time(s), not ${found}" ${ok})
endfunction()

function(expect_lines name stream count)
    expect_count(${name} ${stream} "\n" ${count})
endfunction()

# An installation prefix: a copy of weft (its run path still reaches the
# build tree's libweft) and links to the libraries in LIBS.
function(make_prefix prefix)
    file(MAKE_DIRECTORY "${prefix}/bin" "${prefix}/lib")
    file(COPY "${WEFT}" DESTINATION "${prefix}/bin")
    foreach(lib IN LISTS ARGN)
        get_filename_component(name "${lib}" NAME)
        file(CREATE_LINK "${lib}" "${prefix}/lib/${name}" SYMBOLIC)
    endforeach()
endfunction()

# The trace of an MPI run: otf2-print's output, checked for both ranks'
# MPI_Init and MPI_Finalize.
function(check_mpi_trace name dir)
    if(NOT EXISTS "${dir}/traces.otf2")
        expect(${name} "no ${dir}/traces.otf2" FALSE)
        return()
    endif()
    run(print "${OTF2_PRINT}" "${dir}/traces.otf2")
    expect_rc(print 0)
    foreach(region MPI_Init MPI_Finalize)
        expect_count(print out "\nENTER +[0-9]+ +[0-9]+ +Region: \"${region}\"" 2)
        expect_count(print out "\nLEAVE +[0-9]+ +[0-9]+ +Region: \"${region}\"" 2)
    endforeach()
endfunction()

set(mpirun "")
if(MPIEXEC)
    set(mpirun "${MPIEXEC}")
    if(OPEN_MPI)
        list(APPEND mpirun --allow-run-as-root --oversubscribe)
    endif()
    list(APPEND mpirun ${MPIEXEC_NUMPROC_FLAG} 2)
endif()

if(SCENARIO STREQUAL "script")
    file(WRITE "${WORKDIR}/script.sh" "#!/bin/sh\necho \"script ran with $1\"\nexit 4\n")
    file(CHMOD "${WORKDIR}/script.sh" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
    run(script "${WEFT}" run --verbose -- "${WORKDIR}/script.sh" arg)
    expect_rc(script 4)
    expect_match(script out "^script ran with arg\n$")
    expect_match(script err "'[^\n]*/script\\.sh' is not an ELF file \\(a script\\): not an MPI program")
    expect_no_match(script err "LD_PRELOAD")

elseif(SCENARIO STREQUAL "corrupt_elf")
    # The ELF magic and half an identification, then shell text: the kernel
    # rejects it (ENOEXEC) and execvp hands it to /bin/sh, as a shell would.
    string(ASCII 127 del)
    file(WRITE "${WORKDIR}/corrupt" "${del}ELF\nexit 5\n")
    file(CHMOD "${WORKDIR}/corrupt" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
    run(corrupt "${WEFT}" run --verbose -- "${WORKDIR}/corrupt")
    expect_match(corrupt err
        "weft run: '[^\n]*/corrupt' is a damaged ELF file \\([^\n]*\\): not an MPI program")
    expect_no_match(corrupt err "LD_PRELOAD")
    expect_rc(corrupt 5)

elseif(SCENARIO STREQUAL "installed_without_mpi")
    set(prefix "${WORKDIR}/prefix")
    make_prefix("${prefix}" "${LIBDIR}/libweft.so")
    file(REAL_PATH "${prefix}/lib" libdir)
    run(yes "${prefix}/bin/weft" run --mpi=yes -- "${PROBE}")
    expect_rc(yes 2)
    expect_lines(yes err 1)
    expect_match(yes err "^weft run: --mpi=yes, but this weft has no MPI wrappers \\(no libweft-mpi\\.so in ${libdir}\\);")
    expect_match(yes out "^$")
    if(MPI_HELLO)
        run(auto "${prefix}/bin/weft" run -- "${MPI_HELLO}")
        expect_rc(auto 2)
        expect_lines(auto err 1)
        expect_match(auto err "needs libmpi(ch)?\\.so[^\n]*: an MPI program, but this weft has no MPI wrappers")
    endif()
    run(plain "${prefix}/bin/weft" run -- "${PROBE}" 6)
    expect_rc(plain 6)
    expect_match(plain out "\nargv: \\[6\\]\n")

elseif(SCENARIO STREQUAL "installed")
    set(prefix "${WORKDIR}/prefix")
    make_prefix("${prefix}" "${LIBDIR}/libweft.so" "${MPI_LIBDIR}/libweft-mpi.so")
    file(REAL_PATH "${prefix}/lib" libdir)
    run(yes "${CMAKE_COMMAND}" -E env LD_PRELOAD=libm.so.6
        "${prefix}/bin/weft" run --mpi=yes --verbose -- "${PROBE}")
    expect_rc(yes 0)
    expect_match(yes out
        "^LD_PRELOAD=${libdir}/libweft-mpi\\.so:${libdir}/libweft\\.so:libm\\.so\\.6\n")
    expect_match(yes out "\nWEFT_VERBOSE=true\n")
    expect_match(yes err "weft run: --mpi=yes: preloading the MPI wrappers\n")

elseif(SCENARIO STREQUAL "mpi_trace")
    run(mpi ${mpirun} "${WEFT}" run -o "${WORKDIR}/trace" -- "${MPI_HELLO}")
    expect_rc(mpi 0)
    expect_match(mpi out "hello from rank 0 of 2\n")
    expect_match(mpi out "hello from rank 1 of 2\n")
    check_mpi_trace(mpi "${WORKDIR}/trace")

elseif(SCENARIO STREQUAL "mpi_verbose")
    run(mpi ${mpirun} "${WEFT}" run --verbose --output "${WORKDIR}/trace" -- "${MPI_HELLO}")
    expect_rc(mpi 0)
    # Each rank's weft run says why it preloads the MPI wrappers.
    expect_count(mpi err "needs libmpi(ch)?\\.so[.0-9]*: an MPI program: preloading the MPI wrappers\n" 2)
    expect_match(mpi err "weft run: LD_PRELOAD=/[^\n:]*/libweft-mpi\\.so:/[^\n:]*/libweft\\.so[:\n]")
    expect_match(mpi err "weft run: WEFT_EXPERIMENT_DIRECTORY=${WORKDIR}/trace\n")
    expect_match(mpi err "weft run: WEFT_VERBOSE=true\n")
    check_mpi_trace(mpi "${WORKDIR}/trace")

else()
    message(FATAL_ERROR "unknown SCENARIO '${SCENARIO}'")
endif()

get_property(problems GLOBAL PROPERTY problems)
if(problems)
    message(FATAL_ERROR "weft run scenario ${SCENARIO}:\n${problems}")
endif()
