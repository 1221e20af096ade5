# SPDX-License-Identifier: BSD-3-Clause
# Runs the `weft` command once and checks its exit code and output; used by
# the CTest entries of tests/tools/CMakeLists.txt. PARAMS names a file
# (generated at configure time) that sets:
#   WEFT        the weft executable          WRITER  write_known_trace
#   WORKDIR     a directory of this test's own, emptied first
#   TRACE       optional: write the known trace (this variant) to WORKDIR/trace
#   BROKEN      optional: write write_broken_trace's variant to WORKDIR/trace
#               (BROKEN_WRITER)
#   GARBAGE     optional: write a file of that name in WORKDIR with junk in it
#   FIFO        optional: replace this file of WORKDIR (trace/traces.def, say)
#               by a named pipe; weft then gets 10 s before it counts as hung
#   ARGS        arguments; @DIR@ stands for WORKDIR
#   PREFIX      optional: a command to run weft under (valgrind)
#   EXIT        the expected exit code
#   STDOUT, STDERR  regular expressions that must all match
#   STDOUT_NOT      regular expressions that must not match stdout
#   STDOUT_EMPTY    stdout must be empty
#   STDERR_LINES    the exact number of lines on stderr
#   EXPECTED    a file that stdout must equal, @DIR@ standing for WORKDIR
cmake_minimum_required(VERSION 3.20)
include(${PARAMS})

file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
if(TRACE)
    execute_process(COMMAND "${WRITER}" "${WORKDIR}/trace" ${TRACE}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "write_known_trace failed (${rc}):\n${out}${err}")
    endif()
endif()
if(BROKEN)
    execute_process(COMMAND "${BROKEN_WRITER}" "${WORKDIR}/trace" ${BROKEN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "write_broken_trace failed (${rc}):\n${out}${err}")
    endif()
endif()
if(GARBAGE)
    file(WRITE "${WORKDIR}/${GARBAGE}" "This is not an OTF2 archive.\n")
endif()

set(timeout "")
if(FIFO)
    file(REMOVE "${WORKDIR}/${FIFO}")
    execute_process(COMMAND mkfifo "${WORKDIR}/${FIFO}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "mkfifo ${WORKDIR}/${FIFO} failed (${rc})")
    endif()
    set(timeout TIMEOUT 10)
endif()

set(args "")
foreach(arg IN LISTS ARGS)
    string(REPLACE "@DIR@" "${WORKDIR}" arg "${arg}")
    list(APPEND args "${arg}")
endforeach()
execute_process(COMMAND ${PREFIX} "${WEFT}" ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err ${timeout})

set(problems "")
if(NOT "${rc}" STREQUAL "${EXIT}")
    string(APPEND problems "exit code ${rc}, expected ${EXIT}\n")
endif()
foreach(re IN LISTS STDOUT)
    if(NOT out MATCHES "${re}")
        string(APPEND problems "stdout does not match '${re}'\n")
    endif()
endforeach()
foreach(re IN LISTS STDOUT_NOT)
    if(out MATCHES "${re}")
        string(APPEND problems "stdout matches '${re}'\n")
    endif()
endforeach()
foreach(re IN LISTS STDERR)
    if(NOT err MATCHES "${re}")
        string(APPEND problems "stderr does not match '${re}'\n")
    endif()
endforeach()
if(STDOUT_EMPTY AND NOT out STREQUAL "")
    string(APPEND problems "stdout is not empty\n")
endif()
if(DEFINED STDERR_LINES)
    string(REGEX MATCHALL "\n" newlines "${err}")
    list(LENGTH newlines lines)
    if(NOT lines EQUAL STDERR_LINES OR (NOT err STREQUAL "" AND NOT err MATCHES "\n$"))
        string(APPEND problems "stderr has ${lines} line(s), expected ${STDERR_LINES}\n")
    endif()
endif()
if(EXPECTED)
    file(READ "${EXPECTED}" expected)
    string(REPLACE "@DIR@" "${WORKDIR}" expected "${expected}")
    if(NOT out STREQUAL expected)
        string(APPEND problems "stdout differs from ${EXPECTED}; expected:\n${expected}\n")
    endif()
endif()

if(problems)
    list(JOIN args " " shown)
    message(FATAL_ERROR "weft ${shown}\n${problems}--- stdout:\n${out}--- stderr:\n${err}")
endif()
