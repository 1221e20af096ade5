# SPDX-License-Identifier: BSD-3-Clause
# Runs one end-to-end scenario of `weft compile` with a real compiler; used
# by the CTest entries of tests/compile/CMakeLists.txt. Variables (-D):
#   WEFT      the weft executable
#   SCENARIO  what to do (the if() blocks below)
#   COMPILER  the compiler command (gcc, clang, g++, gfortran, mpicc)
#   EXT       the suffix of the scenario's sources (c, cpp, f90, f)
#   PROGRAMS  tests/compile/programs
#   PRELOAD   empty, or the sanitizer runtime a sanitized libweft needs
#             loaded first (the programs run with it in LD_PRELOAD)
#   MPIEXEC, MPI_INCLUDE, MPI_LIBDIR, OTF2_PRINT, WEFT_LIB, WEFT_MPI_LIB
#             for the MPI scenarios only: mpiexec, the directories of mpi.h
#             and libmpi.so, otf2-print, and libweft and libweft-mpi (the
#             versioned files) for the installed layout of mpi_installed
#   WORKDIR   a directory of this test's own, emptied first, holding
#             src/    a copy of PROGRAMS (the sources are compiled from here)
#             build/  the current directory of every command
#             tmp/    TMPDIR: weft compile's work directories go here
#             trace*/ WEFT_EXPERIMENT_DIRECTORY of the programs run
# Every scenario checks exit codes and output, that src/ is unchanged, that
# build/ holds exactly the files the compiler itself would have made, and
# that tmp/ is empty at the end (no work directory left behind).
cmake_minimum_required(VERSION 3.20)

set(SRC "${WORKDIR}/src")
set(BUILD "${WORKDIR}/build")
set(TMP "${WORKDIR}/tmp")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${BUILD}" "${TMP}")
file(COPY "${PROGRAMS}/" DESTINATION "${SRC}")
file(GLOB_RECURSE src_files_before RELATIVE "${SRC}" "${SRC}/*")
set(ENV{TMPDIR} "${TMP}")
set(ENV{OMP_NUM_THREADS} 2)
set(ENV{LC_ALL} C)
set(run_count 0)

function(fail_test message)
    message(FATAL_ERROR "${SCENARIO}: ${message}\n"
        "command: ${last_command}\n--- exit: ${rc}\n--- stdout:\n${out}\n--- stderr:\n${err}")
endfunction()

# weft_compile(ARGS...): runs `weft compile ARGS` in build/; sets rc, out, err.
macro(weft_compile)
    set(last_command "weft compile ${ARGN}")
    execute_process(COMMAND "${WEFT}" compile ${ARGN} WORKING_DIRECTORY "${BUILD}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    # Linking a sanitized libweft makes ld warn about the runtime's tmpnam.
    if(PRELOAD)
        string(REGEX REPLACE "[^\n]*/lib[at]san\\.so[^\n]*: warning: [^\n]*\n" "" err "${err}")
    endif()
endmacro()

function(expect_exit code)
    if(NOT "${rc}" STREQUAL "${code}")
        fail_test("exit code ${rc}, expected ${code}")
    endif()
endfunction()

function(expect_stderr_lines count)
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines lines)
    if(NOT lines EQUAL count OR (NOT err STREQUAL "" AND NOT err MATCHES "\n$"))
        fail_test("stderr has ${lines} line(s), expected ${count}")
    endif()
endfunction()

function(expect_match variable regex)
    if(NOT "${${variable}}" MATCHES "${regex}")
        fail_test("${variable} does not match '${regex}'")
    endif()
endfunction()

function(expect_no_match variable regex)
    if("${${variable}}" MATCHES "${regex}")
        fail_test("${variable} matches '${regex}'")
    endif()
endfunction()

# compile_ok(ARGS...): weft compile must succeed silently.
macro(compile_ok)
    weft_compile(${ARGN})
    expect_exit(0)
    expect_stderr_lines(0)
endmacro()

# run_program(PROGRAM EXPECTED_STDOUT): runs build/PROGRAM, which must exit 0
# and print exactly EXPECTED_STDOUT; its trace (if any) goes to trace<N>/.
macro(run_program program expected)
    math(EXPR run_count "${run_count} + 1")
    set(ENV{WEFT_EXPERIMENT_DIRECTORY} "${WORKDIR}/trace${run_count}")
    set(last_command "${program}")
    if(PRELOAD)
        set(ENV{LD_PRELOAD} "${PRELOAD}")
        set(ENV{ASAN_OPTIONS} "detect_leaks=0")
        set(ENV{TSAN_OPTIONS} "report_bugs=0")
    endif()
    execute_process(COMMAND "${BUILD}/${program}" WORKING_DIRECTORY "${BUILD}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    unset(ENV{LD_PRELOAD})
    expect_exit(0)
    if(NOT out STREQUAL "${expected}\n")
        fail_test("the program printed something else than '${expected}'")
    endif()
endmacro()

# run_mpi_program(PROGRAM EXPECTED_STDOUT): the same, under mpiexec with two
# ranks (as root, Open MPI's mpiexec needs to be told that this is fine).
macro(run_mpi_program program expected)
    math(EXPR run_count "${run_count} + 1")
    set(ENV{WEFT_EXPERIMENT_DIRECTORY} "${WORKDIR}/trace${run_count}")
    set(mpiexec_flags "")
    execute_process(COMMAND id -u OUTPUT_VARIABLE uid OUTPUT_STRIP_TRAILING_WHITESPACE)
    execute_process(COMMAND "${MPIEXEC}" --version OUTPUT_VARIABLE mpiexec_version
        ERROR_QUIET)
    if(mpiexec_version MATCHES "Open MPI|OpenRTE")
        list(APPEND mpiexec_flags --oversubscribe)
        if(uid STREQUAL "0")
            list(APPEND mpiexec_flags --allow-run-as-root)
        endif()
    endif()
    string(REPLACE ";" " " last_command "${MPIEXEC};${mpiexec_flags};-n 2 ${program}")
    if(PRELOAD)
        set(ENV{LD_PRELOAD} "${PRELOAD}")
        set(ENV{ASAN_OPTIONS} "detect_leaks=0")
        set(ENV{TSAN_OPTIONS} "report_bugs=0")
    endif()
    execute_process(COMMAND "${MPIEXEC}" ${mpiexec_flags} -n 2 "${BUILD}/${program}"
        WORKING_DIRECTORY "${BUILD}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
        TIMEOUT 60)
    unset(ENV{LD_PRELOAD})
    expect_exit(0)
    if(NOT out STREQUAL "${expected}\n")
        fail_test("the program printed something else than '${expected}'")
    endif()
endmacro()

# expect_mpi_trace(): the last run left one trace whose events (otf2-print)
# include MPI_Init and MPI_Finalize regions on both ranks. The MPI tests
# (tests/mpi) check the rest.
function(expect_mpi_trace)
    set(trace "${WORKDIR}/trace${run_count}/traces.otf2")
    if(NOT EXISTS "${trace}")
        fail_test("the MPI program wrote no trace in trace${run_count}/")
    endif()
    set(last_command "otf2-print ${trace}")
    execute_process(COMMAND "${OTF2_PRINT}" "${trace}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    expect_exit(0)
    foreach(region MPI_Init MPI_Finalize)
        string(REGEX MATCHALL "\nENTER +[0-9]+ [^\n]*\"${region}\"" enters "${out}")
        list(LENGTH enters count)
        if(NOT count EQUAL 2)
            string(SUBSTRING "${out}" 0 4000 out)
            fail_test("${count} enters of ${region} in the trace, expected 2 (one per rank)")
        endif()
    endforeach()
endfunction()

# expect_build_files(NAMES...): build/ holds exactly these files.
function(expect_build_files)
    file(GLOB_RECURSE found RELATIVE "${BUILD}" "${BUILD}/*")
    list(SORT found)
    set(expected ${ARGN})
    list(SORT expected)
    if(NOT "${found}" STREQUAL "${expected}")
        fail_test("build/ holds '${found}', expected '${expected}'")
    endif()
endfunction()

function(expect_clean)
    file(GLOB_RECURSE src_files RELATIVE "${SRC}" "${SRC}/*")
    if(NOT "${src_files}" STREQUAL "${src_files_before}")
        fail_test("files appeared in src/: '${src_files}'")
    endif()
    file(GLOB left LIST_DIRECTORIES true "${TMP}/*")
    if(left)
        fail_test("work directories were left in TMPDIR: ${left}")
    endif()
endfunction()

set(hello "hello from weft compile")

# --- one program, compiled and linked in one command ---------------------------------
if(SCENARIO STREQUAL "hello")
    compile_ok(-- ${COMPILER} -fopenmp ../src/hello.${EXT} -o hello)
    run_program(hello "${hello}")
    expect_build_files(hello)

elseif(SCENARIO STREQUAL "short_form")
    compile_ok(${COMPILER} -fopenmp ../src/hello.${EXT} -o hello)
    run_program(hello "${hello}")
    expect_build_files(hello)

# Without an OpenMP flag nothing is instrumented, but the link still gets libweft.
elseif(SCENARIO STREQUAL "serial")
    weft_compile(--verbose -- ${COMPILER} ../src/hello.${EXT} -o hello)
    expect_exit(0)
    expect_no_match(err "opari2 ")
    expect_match(err "pomp2-parse-init-regions")
    expect_match(err " -lweft ")
    run_program(hello "${hello}")
    expect_build_files(hello)

# --keep: one line naming the work directory, which holds the instrumented copy,
# OPARI2's include file and the region-initialisation unit. A source the
# compiler preprocesses goes through the preprocessor first: OPARI2 reads
# hello.in.EXT, the copy holds line markers naming the source as given. With
# --no-preprocess (and for a .f90 or .f, which gfortran does not
# preprocess) OPARI2 reads the source itself and the copy's #line names it.
elseif(SCENARIO STREQUAL "keep")
    set(preprocessed ON)
    if(COMPILER MATCHES "fortran")
        set(preprocessed OFF)
    endif()
    foreach(mode default no_preprocess)
        set(options --keep)
        if(mode STREQUAL "no_preprocess")
            list(APPEND options --no-preprocess)
        endif()
        weft_compile(${options} -- ${COMPILER} -fopenmp ../src/hello.${EXT} -o hello)
        expect_exit(0)
        expect_stderr_lines(1)
        expect_match(err "^weft compile: kept the work directory ([^\n]+)\n$")
        string(REGEX REPLACE "^weft compile: kept the work directory ([^\n]+)\n$" "\\1" kept
            "${err}")
        if(preprocessed AND mode STREQUAL "default")
            set(files s1/hello.pre.${EXT} s1/hello.in.${EXT} s1/hello.${EXT}
                      s1/hello.in.${EXT}.opari.inc s1/hello.o weft_pomp2_marker.h)
            set(copy_file s1/hello.${EXT})
            set(line_re "\n# 1 \"\\.\\./src/hello\\.${EXT}\"")
        else()
            string(TOUPPER "${EXT}" upper_ext)
            set(copy_ext ${EXT})
            if(COMPILER MATCHES "fortran")
                set(copy_ext ${upper_ext})
            endif()
            set(files s1/hello.${copy_ext} s1/hello.${EXT}.opari.inc s1/hello.o)
            set(copy_file s1/hello.${copy_ext})
            set(line_re "#line 1 \"\\.\\./src/hello\\.${EXT}\"")
        endif()
        foreach(file ${files} pomp2_init_regions.c pomp2_init_regions.o)
            if(NOT EXISTS "${kept}/${file}")
                fail_test("${mode}: the kept work directory lacks ${file}")
            endif()
        endforeach()
        file(READ "${kept}/${copy_file}" copy)
        if(NOT copy MATCHES "${line_re}")
            fail_test("${mode}: the copy does not name ../src/hello.${EXT}:\n${copy}")
        endif()
        # (its include of OPARI2's file and weft's marker header are there)
        if(copy MATCHES "\n#(line)? [0-9]+ \"[^\"]*/s1/hello\\.(pre|in)\\.")
            fail_test("${mode}: a line marker of the copy names a work file")
        endif()
        string(FIND "${kept}" "${TMP}/weft-compile-" position)
        if(NOT position EQUAL 0)
            fail_test("the work directory ${kept} is not in TMPDIR")
        endif()
        run_program(hello "${hello}")
        expect_build_files(hello)
        file(REMOVE_RECURSE "${kept}")
    endforeach()

# --- a compile error: the compiler's own messages and exit status --------------------
elseif(SCENARIO STREQUAL "error")
    # The same command without weft, from a sibling directory, for reference.
    file(MAKE_DIRECTORY "${WORKDIR}/direct")
    execute_process(COMMAND ${COMPILER} -fopenmp -c ../src/bad.${EXT}
        WORKING_DIRECTORY "${WORKDIR}/direct"
        RESULT_VARIABLE direct_rc OUTPUT_VARIABLE direct_out ERROR_VARIABLE direct_err)
    file(REMOVE_RECURSE "${WORKDIR}/direct")
    if(direct_rc EQUAL 0)
        fail_test("${COMPILER} compiled bad.${EXT} without an error")
    endif()
    weft_compile(-- ${COMPILER} -fopenmp -c ../src/bad.${EXT})
    expect_exit(${direct_rc})
    if(NOT err STREQUAL direct_err)
        fail_test("stderr differs from the compiler's own:\n${direct_err}")
    endif()
    expect_build_files()

# An error inside an OpenMP construct of a preprocessed source: the same
# messages at the same lines as without weft, and nothing else (the source
# does not compile without weft either).
elseif(SCENARIO STREQUAL "error_in_construct")
    file(MAKE_DIRECTORY "${WORKDIR}/direct")
    execute_process(COMMAND ${COMPILER} -fopenmp -c ../src/bad_omp.c
        WORKING_DIRECTORY "${WORKDIR}/direct"
        RESULT_VARIABLE direct_rc OUTPUT_VARIABLE direct_out ERROR_VARIABLE direct_err)
    file(REMOVE_RECURSE "${WORKDIR}/direct")
    expect_match(direct_err "bad_omp\\.c:17:")
    weft_compile(-- ${COMPILER} -fopenmp -c ../src/bad_omp.c)
    expect_exit(${direct_rc})
    if(NOT err STREQUAL direct_err)
        fail_test("stderr differs from the compiler's own:\n${direct_err}")
    endif()
    expect_build_files()

# The instrumented copy fails where the source compiles (OPARI2 reading the
# source of preprocess/ifdef_for.c): the compiler's messages, then one line
# naming the source and the kept copy; the work directory stays for a look.
elseif(SCENARIO STREQUAL "copy_failure")
    file(COPY "${PROGRAMS}/../preprocess/ifdef_for.c" DESTINATION "${WORKDIR}/pp")
    weft_compile(--no-preprocess -- ${COMPILER} -fopenmp -c ../pp/ifdef_for.c)
    expect_exit(1)
    string(CONCAT line_re "\nweft compile: the instrumented copy of '\\.\\./pp/ifdef_for\\.c' "
        "failed to compile, the source itself compiles; kept the copy: "
        "(${TMP}/weft-compile-[^/]+/s1/ifdef_for\\.c) \\(report it\\)\n$")
    expect_match(err "${line_re}")
    string(REGEX MATCH "${line_re}" line "${err}")
    if(NOT EXISTS "${CMAKE_MATCH_1}")
        fail_test("the kept copy ${CMAKE_MATCH_1} does not exist")
    endif()
    file(GLOB kept "${TMP}/weft-compile-*")
    file(REMOVE_RECURSE ${kept})
    expect_build_files()
    weft_compile(-- ${COMPILER} -fopenmp -c ../pp/ifdef_for.c)
    expect_exit(0)
    expect_stderr_lines(0)
    expect_build_files(ifdef_for.o)

# A preprocessed Fortran source with -MD: the dependency file joins the
# preprocessor's headers and the compiler's modules, names no work file.
elseif(SCENARIO STREQUAL "depfile_fortran")
    compile_ok(-- ${COMPILER} -fopenmp -c ../src/mod_const.f90)
    compile_ok(-- ${COMPILER} -fopenmp -MD -MP -c ../src/depends.F90)
    expect_build_files(mod_const.o mod_const.mod depends.o depends.d)
    file(READ "${BUILD}/depends.d" deps)
    foreach(re "^depends\\.o( depends\\.o)?: \\.\\./src/depends\\.F90 " "\\.\\./src/depends\\.h"
               "mod_const\\.mod" "\n\\.\\./src/depends\\.h:\n")
        if(NOT deps MATCHES "${re}")
            fail_test("the dependency file does not match '${re}':\n${deps}")
        endif()
    endforeach()
    if(deps MATCHES "weft-compile-|opari")
        fail_test("the dependency file names a work file:\n${deps}")
    endif()
    compile_ok(-- ${COMPILER} -fopenmp depends.o mod_const.o -o depends)
    run_program(depends "sum=110")

# A source that does not exist: the compiler reports it, unchanged.
elseif(SCENARIO STREQUAL "missing_source")
    file(MAKE_DIRECTORY "${WORKDIR}/direct")
    execute_process(COMMAND ${COMPILER} -fopenmp -c ../src/no_such_file.${EXT}
        WORKING_DIRECTORY "${WORKDIR}/direct"
        RESULT_VARIABLE direct_rc OUTPUT_VARIABLE direct_out ERROR_VARIABLE direct_err)
    file(REMOVE_RECURSE "${WORKDIR}/direct")
    weft_compile(-- ${COMPILER} -fopenmp -c ../src/no_such_file.${EXT})
    expect_exit(${direct_rc})
    if(direct_rc EQUAL 0 OR NOT err STREQUAL direct_err)
        fail_test("stderr differs from the compiler's own:\n${direct_err}")
    endif()
    expect_build_files()

# --- OPARI2 rejects the source: its message, a line naming it, its status ------------
elseif(SCENARIO STREQUAL "opari2_error")
    weft_compile(-- ${COMPILER} -fopenmp -c ../src/opari_bad.c)
    expect_exit(1)
    expect_match(err "ERROR: could not determine end of OpenMP construct")
    expect_match(err
        "\nweft compile: opari2 failed on '\\.\\./src/opari_bad\\.c' \\(exit status 1\\), which does not compile without weft either \\(the compiler says why when run without weft\\)\n$")
    expect_build_files()

# --- OPARI2 crashes on a source the compiler rejects too: one line names it -----------
elseif(SCENARIO STREQUAL "opari2_crash")
    weft_compile(-- ${COMPILER} -fopenmp -c ../src/opari_crash.c)
    expect_exit(139)
    expect_match(err
        "\nweft compile: opari2 crashed on '\\.\\./src/opari_crash\\.c' \\(signal 11, Segmentation fault\\), which does not compile without weft either")
    if(err MATCHES "killed by signal")
        fail_test("the crash is reported twice:\n${err}")
    endif()
    expect_build_files()

# --- doacross directives in a source not preprocessed: the hint names the remedy -------
elseif(SCENARIO STREQUAL "doacross_unpreprocessed")
    weft_compile(-- ${COMPILER} -fopenmp -c ../src/doacross.${EXT})
    expect_exit(1)
    expect_match(err "\\(OpenMP that OPARI2 does not know \\(doacross loops, clauses of combined loops, if modifiers, cancel, combined master constructs, end atomic, continuation marks\\) needs weft compile's preprocessing: add -cpp\\)\n$")
    file(GLOB kept "${TMP}/weft-compile-*") # kept for a look, as the line says
    file(REMOVE_RECURSE ${kept})
    compile_ok(-- ${COMPILER} -cpp -fopenmp ../src/doacross.${EXT} -o prog)
    run_program(prog "           7")

# --- parallel master in a source not preprocessed: the same hint; with -cpp it builds ---
elseif(SCENARIO STREQUAL "parallel_master_unpreprocessed")
    weft_compile(-- ${COMPILER} -fopenmp -c ../src/parallel_master.${EXT})
    expect_exit(1)
    expect_match(err "combined master constructs, end atomic, continuation marks\\) needs weft compile's preprocessing: add -cpp\\)\n$")
    file(GLOB kept "${TMP}/weft-compile-*")
    file(REMOVE_RECURSE ${kept})
    compile_ok(-- ${COMPILER} -cpp -fopenmp ../src/parallel_master.${EXT} -o prog)
    run_program(prog "           7")

# --- a range-based for with an unbraced body, not preprocessed: one line says so ---
elseif(SCENARIO STREQUAL "range_for_unpreprocessed")
    weft_compile(--no-preprocess -- ${COMPILER} -fopenmp -c ../src/range_for.${EXT})
    expect_exit(0)
    expect_match(err "^weft compile: '\\.\\./src/range_for\\.cpp' has 1 OpenMP loop over a range-based for with an unbraced body, .* leave out --no-preprocess\n$")
    expect_stderr_lines(1)
    compile_ok(-- ${COMPILER} -fopenmp ../src/range_for.${EXT} -o prog)
    run_program(prog "10 1")

# --- a compiler warning after a Fortran atomic names the source, not a work file ---
elseif(SCENARIO STREQUAL "warning_after_atomic")
    weft_compile(-- ${COMPILER} -fopenmp -Wconversion -c ../src/atomic_warn.F90)
    expect_exit(0)
    expect_match(err "^\\.\\./src/atomic_warn\\.F90:14:")
    if(err MATCHES "weft-compile|\\.in\\.f90")
        fail_test("the warning names a work file:\n${err}")
    endif()

# --- a fixed-form parallel do simd: the message says how to write it ---------------
elseif(SCENARIO STREQUAL "simd_fixed_hint")
    weft_compile(-- ${COMPILER} -cpp -fopenmp -c ../src/simd_fixed.${EXT})
    expect_exit(1)
    expect_match(err "\\(clauses of combined loops such as `parallel do simd` cannot be passed by OPARI2 in fixed form: write `!\\$omp parallel` and `!\\$omp do simd`[^\n]*\\)\n$")
    file(GLOB kept "${TMP}/weft-compile-*")
    file(REMOVE_RECURSE ${kept})

# --- a cancellable parallel region: built, with one line saying what OPARI2 misses ---
elseif(SCENARIO STREQUAL "cancel_warning")
    weft_compile(-- ${COMPILER} -fopenmp ../src/cancel_parallel.c -o prog)
    expect_exit(0)
    expect_match(err "^weft compile: '\\.\\./src/cancel_parallel\\.c' has 1 cancel or cancellation point directive for a parallel region, sections or a taskgroup, which OPARI2 does not instrument: .*weft run\\) instead\n$")
    expect_stderr_lines(1)
    run_program(prog "1")

# --- two files: compiled separately (-c, -c, link), and in one command ---------------
elseif(SCENARIO STREQUAL "separate")
    compile_ok(-- ${COMPILER} -fopenmp -c ../src/main2.${EXT})
    compile_ok(-- ${COMPILER} -fopenmp -c ../src/add.${EXT} -o add_obj.o)
    expect_build_files(main2.o add_obj.o)
    compile_ok(-- ${COMPILER} -fopenmp main2.o add_obj.o -o prog)
    run_program(prog "sum=5")
    expect_build_files(main2.o add_obj.o prog)

elseif(SCENARIO STREQUAL "one_command")
    compile_ok(-- ${COMPILER} -fopenmp ../src/main2.${EXT} ../src/add.${EXT} -o prog)
    run_program(prog "sum=5")
    expect_build_files(prog)

elseif(SCENARIO STREQUAL "one_command_compile")
    compile_ok(-- ${COMPILER} -fopenmp -c ../src/main2.${EXT} ../src/add.${EXT})
    expect_build_files(main2.o add.o)
    compile_ok(-- ${COMPILER} -fopenmp main2.o add.o -o prog)
    run_program(prog "sum=5")

# Two sources with the same name in one command must not overwrite each other.
elseif(SCENARIO STREQUAL "same_basename")
    compile_ok(-- ${COMPILER} -fopenmp ../src/same_main.c ../src/dir1/util.c ../src/dir2/util.c
               -o prog)
    run_program(prog "one+two=3")
    expect_build_files(prog)

# --- a quoted include next to the source, compiled from another directory -----------
# decoy/ holds a header of the same name that fails to compile; it is on the -I
# path, which the compiler searches only after the source's own directory.
elseif(SCENARIO STREQUAL "include")
    compile_ok(-- ${COMPILER} -fopenmp -I ../src/decoy -c ../src/include.${EXT})
    expect_build_files(include.o)
    compile_ok(-- ${COMPILER} -fopenmp include.o -o include)
    run_program(include "${hello}")
    compile_ok(-- ${COMPILER} -fopenmp -I../src/decoy ../src/include.${EXT} -o include2)
    run_program(include2 "${hello}")
    expect_build_files(include.o include include2)

# --- make dependency files name the source, not the work directory -------------------
elseif(SCENARIO STREQUAL "depfile")
    compile_ok(-- ${COMPILER} -fopenmp -MD -MP -c ../src/include.${EXT})
    compile_ok(-- ${COMPILER} -fopenmp -MMD -MF deps.d -MT custom -c ../src/hello.${EXT}
               -o hello.o)
    expect_build_files(include.o include.d hello.o deps.d)
    file(READ "${BUILD}/include.d" deps)
    file(READ "${BUILD}/deps.d" deps2)
    foreach(check "deps;^include\\.o: \\.\\./src/include\\.${EXT} " "deps;\\.\\./src/greeting\\.h"
                  "deps2;^custom: \\.\\./src/hello\\.${EXT}\n$")
        list(GET check 0 var)
        list(GET check 1 re)
        if(NOT "${${var}}" MATCHES "${re}")
            fail_test("the dependency file does not match '${re}':\n${${var}}")
        endif()
    endforeach()
    # (pomp2_lib.h, which every instrumented source includes, may appear
    # with -MD as a system header; weft's files never)
    if(deps MATCHES "weft-compile-|opari\\.inc|weft_pomp2" OR
       deps2 MATCHES "weft-compile-|opari\\.inc|weft_pomp2")
        fail_test("a dependency file names the work directory:\n${deps}${deps2}")
    endif()

# --- untied tasks: made tied silently by default, kept with --keep-untied -------------
elseif(SCENARIO STREQUAL "untied")
    weft_compile(--keep -- ${COMPILER} -fopenmp -c ../src/task.c)
    expect_exit(0)
    expect_stderr_lines(1)
    string(REGEX REPLACE "^weft compile: kept the work directory ([^\n]+)\n$" "\\1" kept "${err}")
    file(READ "${kept}/s1/task.c" copy)
    expect_no_match(copy "#pragma omp task [^\n]*untied")
    file(REMOVE_RECURSE "${kept}")
    weft_compile(--keep --keep-untied -- ${COMPILER} -fopenmp -c ../src/task.c)
    expect_exit(0)
    expect_stderr_lines(1)
    string(REGEX REPLACE "^weft compile: kept the work directory ([^\n]+)\n$" "\\1" kept "${err}")
    file(READ "${kept}/s1/task.c" copy)
    expect_match(copy "#pragma omp task shared\\(x\\) untied")
    file(REMOVE_RECURSE "${kept}")
    expect_build_files(task.o)

# --- --verbose prints every command ---------------------------------------------------
elseif(SCENARIO STREQUAL "verbose")
    weft_compile(-v -- ${COMPILER} -fopenmp ../src/hello.${EXT} -o hello)
    expect_exit(0)
    string(CONCAT preprocess_re "\n${COMPILER} -fopenmp -I[^ ]*/include -I[^ ]+ -include "
        "[^ ]*/weft_pomp2_marker\\.h -E \\.\\./src/hello\\.c -o [^ ]*/s1/hello\\.pre\\.c\n")
    foreach(re "${preprocess_re}"
               "\nopari2 --preprocessed --omp-task-untied=no-warn --c [^ ]*/s1/hello\\.in\\.c [^\n]*/s1/hello\\.c\n"
               "\n${COMPILER} -fopenmp -undef -w -E [^ ]*/s1/hello\\.c -o [^ ]*/s1/hello\\.i\n"
               "\n${COMPILER} -fopenmp -c [^ ]*/s1/hello\\.i -o [^ ]*/s1/hello\\.o\n"
               "\n[^\n]*nm -B [^\n]*/s1/hello\\.o \\| [^\n]*pomp2-parse-init-regions[^\n]* > "
               "\n${COMPILER} -x c -c [^\n]*/pomp2_init_regions\\.c -o "
               "\n${COMPILER} -I[^ ]*/include -fopenmp [^\n]*/s1/hello\\.o -o hello [^\n]*/pomp2_init_regions\\.o "
               "-L[^\n]* -Wl,--push-state,--no-as-needed -lweft -Wl,--pop-state -Xlinker -rpath ")
        expect_match(err "${re}")
    endforeach()
    run_program(hello "${hello}")
    weft_compile(-v --no-preprocess -- ${COMPILER} -fopenmp ../src/hello.${EXT} -o hello)
    expect_exit(0)
    foreach(re "\nopari2 --omp-task-untied=no-warn --c \\.\\./src/hello\\.c [^\n]*/s1/hello\\.c\n"
               "\n${COMPILER} -iquote \\.\\./src -fopenmp [^\n]* -c [^\n]*/s1/hello\\.c -o ")
        expect_match(err "${re}")
    endforeach()
    expect_no_match(err " -E ")
    run_program(hello "${hello}")

# --- commands that run unchanged -------------------------------------------------------
elseif(SCENARIO STREQUAL "passthrough")
    weft_compile(-- ${COMPILER} --version)
    expect_exit(0)
    expect_match(out "[0-9]+\\.[0-9]+")
    weft_compile(-- ${COMPILER} -fopenmp -E ../src/task.c)
    expect_exit(0)
    expect_match(out "#pragma omp task shared\\(x\\) untied")
    expect_no_match(out "POMP2")
    weft_compile(-- ${COMPILER} -fopenmp -x c -c ../src/task.c -o task.o)
    expect_exit(0)
    expect_stderr_lines(0)
    expect_build_files(task.o)

# --- errors of weft compile itself -----------------------------------------------------
elseif(SCENARIO STREQUAL "usage")
    weft_compile()
    expect_exit(2)
    expect_stderr_lines(1)
    expect_match(err "^weft compile: no compiler given")
    weft_compile(--)
    expect_exit(2)
    expect_stderr_lines(1)
    weft_compile(--bogus -- ${COMPILER} -c x.c)
    expect_exit(2)
    expect_stderr_lines(1)
    expect_match(err "^weft compile: unknown option '--bogus'")
    # --opari1 with a prefix that holds no OPARI 1.
    file(WRITE "${BUILD}/x.c" "int main(void) { return 0; }\n")
    weft_compile(--opari1=${WORKDIR}/no-opari -- ${COMPILER} -fopenmp -c x.c)
    expect_exit(1)
    expect_stderr_lines(1)
    expect_match(err "^weft compile: --opari1: '.*/no-opari' has no bin/opari and include/pomp_lib.h; give OPARI 1's install prefix with --opari1=PREFIX")
    file(REMOVE "${BUILD}/x.c")
    weft_compile(--help)
    expect_exit(0)
    expect_match(out "^usage: weft compile \\[OPTIONS\\] -- COMPILER")
    expect_stderr_lines(0)
    set(last_command "weft --help")
    execute_process(COMMAND "${WEFT}" --help RESULT_VARIABLE rc OUTPUT_VARIABLE out
        ERROR_VARIABLE err)
    expect_exit(0)
    expect_match(out "\n  compile +wrap a compiler")
    weft_compile(-- no-such-compiler-for-weft -fopenmp -c ../src/hello.c)
    expect_exit(1)
    expect_stderr_lines(1)
    expect_match(err "^weft compile: cannot run 'no-such-compiler-for-weft': No such file")
    expect_build_files()

# opari2 or opari2-config not on PATH: one line naming the tool, exit 1.
elseif(SCENARIO STREQUAL "missing_tools")
    file(MAKE_DIRECTORY "${WORKDIR}/bin")
    find_program(compiler_path ${COMPILER} REQUIRED)
    find_program(opari2_config opari2-config REQUIRED)
    set(saved_path "$ENV{PATH}")
    set(ENV{PATH} "${WORKDIR}/bin")
    weft_compile(-- ${compiler_path} -fopenmp -c ../src/hello.c)
    expect_exit(1)
    expect_stderr_lines(1)
    expect_match(err
        "^weft compile: cannot run 'opari2-config': No such file[^\n]*apt install opari2")
    file(CREATE_LINK "${opari2_config}" "${WORKDIR}/bin/opari2-config" SYMBOLIC)
    weft_compile(-- ${compiler_path} -fopenmp -c ../src/hello.c)
    expect_exit(1)
    expect_stderr_lines(1)
    expect_match(err "^weft compile: cannot run 'opari2': No such file[^\n]*apt install opari2")
    set(ENV{PATH} "${saved_path}")
    expect_build_files()

# --- OpenMP constructs (needs the POMP2 adapter in libweft) ----------------------------
elseif(SCENARIO STREQUAL "openmp")
    compile_ok(-- ${COMPILER} -fopenmp ../src/omp.${EXT} -o omp)
    run_program(omp "threads=2 count=2")
    expect_build_files(omp)
    if(NOT EXISTS "${WORKDIR}/trace${run_count}/traces.otf2")
        fail_test("the program wrote no trace in trace${run_count}/")
    endif()
    set(last_command "weft summary trace${run_count}")
    execute_process(COMMAND "${WEFT}" summary "${WORKDIR}/trace${run_count}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    expect_exit(0)
    expect_match(out "!\\$omp parallel @omp\\.${EXT}:")
    expect_match(out "!\\$omp critical @omp\\.${EXT}:")

# --- MPI: libweft-mpi linked before the MPI library ---------------------------------
# An MPI compiler wrapper appends its libraries after the user's arguments,
# so weft's come last among those; the program runs with two ranks and
# records its MPI calls.
elseif(SCENARIO STREQUAL "mpi")
    weft_compile(-v -- ${COMPILER} ../src/mpi_hello.c -o mpi_hello)
    expect_exit(0)
    string(CONCAT link_re "\n${COMPILER} [^\n]*-o mpi_hello [^\n]*/pomp2_init_regions\\.o "
        "-L[^ ]+ -L[^ ]*/adapters/pmpi -Wl,--push-state,--no-as-needed -lweft-mpi -lweft "
        "-Wl,--pop-state -Xlinker -rpath -Xlinker [^ ]+ -Xlinker -rpath -Xlinker "
        "[^ ]*/adapters/pmpi\n")
    expect_match(err "${link_re}")
    run_mpi_program(mpi_hello "ranks=2 sum=1")
    expect_mpi_trace()
    expect_build_files(mpi_hello)

# A plain compiler with -lmpi: weft's libraries go just before it.
elseif(SCENARIO STREQUAL "mpi_lmpi")
    weft_compile(-v -- ${COMPILER} -I${MPI_INCLUDE} ../src/mpi_hello.c -o mpi_hello
                 -L${MPI_LIBDIR} -lmpi -lm)
    expect_exit(0)
    string(CONCAT link_re "\n${COMPILER} -I[^\n]* -o mpi_hello -L[^ ]+ "
        "[^ ]*/pomp2_init_regions\\.o -L[^ ]+ -L[^ ]*/adapters/pmpi "
        "-Wl,--push-state,--no-as-needed -lweft-mpi -lweft -Wl,--pop-state -lmpi -lm "
        "-Xlinker -rpath ")
    expect_match(err "${link_re}")
    run_mpi_program(mpi_hello "ranks=2 sum=1")
    expect_mpi_trace()
    expect_build_files(mpi_hello)

# An installed weft (bin/weft, lib/libweft.so): libweft-mpi is taken from the
# same lib directory, never from the build tree. Without it there, one line
# says so and the program links without it.
elseif(SCENARIO STREQUAL "mpi_installed")
    set(inst "${WORKDIR}/inst")
    file(MAKE_DIRECTORY "${inst}/bin" "${inst}/lib")
    file(COPY "${WEFT}" DESTINATION "${inst}/bin")
    get_filename_component(weft_name "${WEFT}" NAME)
    set(WEFT "${inst}/bin/${weft_name}")
    foreach(name libweft.so libweft.so.0)
        execute_process(COMMAND ${CMAKE_COMMAND} -E copy "${WEFT_LIB}" "${inst}/lib/${name}")
    endforeach()
    weft_compile(-v -- ${COMPILER} ../src/mpi_hello.c -o mpi_hello)
    expect_exit(0)
    string(CONCAT missing_re "^weft compile: cannot find libweft-mpi\\.so in "
        "${inst}/bin/\\.\\./lib; linking without it: MPI calls will not be recorded\n")
    expect_match(err "${missing_re}")
    expect_no_match(err "-lweft-mpi|adapters/pmpi")
    run_mpi_program(mpi_hello "ranks=2 sum=1")
    foreach(name libweft-mpi.so libweft-mpi.so.0)
        execute_process(COMMAND ${CMAKE_COMMAND} -E copy "${WEFT_MPI_LIB}" "${inst}/lib/${name}")
    endforeach()
    weft_compile(-v -- ${COMPILER} ../src/mpi_hello.c -o mpi_hello)
    expect_exit(0)
    expect_match(err
        " -L${inst}/bin/\\.\\./lib -Wl,--push-state,--no-as-needed -lweft-mpi -lweft ")
    expect_no_match(err "adapters/pmpi|cannot find")
    run_mpi_program(mpi_hello "ranks=2 sum=1")
    expect_mpi_trace()
    expect_build_files(mpi_hello)

else()
    message(FATAL_ERROR "unknown scenario '${SCENARIO}'")
endif()

expect_clean()
