# SPDX-License-Identifier: BSD-3-Clause
# Turns the built page template (tools/view/page/dist/weft-view-template.html,
# committed, so building weft needs no Node.js) into a C array for `weft
# view`. Run by the build (cmake -P) whenever the template changes:
#   cmake -DTEMPLATE=... -DOUTPUT=... -P embed_template.cmake
# Refuses a template that does not hold the data marker exactly once.
file(READ "${TEMPLATE}" text)
string(REGEX MATCHALL "<!--WEFT:DATA-->" markers "${text}")
list(LENGTH markers count)
if(NOT count EQUAL 1)
    message(FATAL_ERROR "${TEMPLATE} holds the data marker <!--WEFT:DATA--> ${count} times, "
        "not once; rebuild it with node tools/view/page/build.mjs")
endif()
file(READ "${TEMPLATE}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)"
    "\\1\n" bytes "${bytes}")
file(WRITE "${OUTPUT}.tmp"
    "/* Generated from tools/view/page/dist/weft-view-template.html by embed_template.cmake. */\n"
    "#include <stddef.h>\n"
    "const unsigned char weft_view_template[] = {\n${bytes}};\n"
    "const size_t weft_view_template_size = sizeof weft_view_template;\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
