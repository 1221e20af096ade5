#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every source file of weft names its licence in one SPDX line.

Checks (or, with --add, writes) `SPDX-License-Identifier: BSD-3-Clause` in
every file whose kind has comments: C, C++ and Fortran sources and headers,
CMake files, shell, Python and JavaScript, CSS and HTML. Data is left out
(test fixtures, expected outputs, lock files, the page's built bundle).

The check accepts the line among a file's first or last three lines. Where
--add puts it: at the top (after a `#!` line or `<!DOCTYPE>`), except in
the compiled sources of tests/, examples/ and bench/, where it is the last
line: tests assert the source lines of regions in those files, and a line
added at the top would move them all.

    check_spdx.py SOURCE_DIR [--add]
"""
import os
import subprocess
import sys

TAG = "SPDX-License-Identifier: BSD-3-Clause"
# .inc: the Fortran include files of the compile tests.
COMMENT = {".c": "/* {} */", ".h": "/* {} */", ".cpp": "/* {} */", ".inc": "! {}",
           ".cmake": "# {}", ".sh": "# {}", ".py": "# {}", ".mjs": "// {}", ".js": "// {}",
           ".css": "/* {} */", ".html": "<!-- {} -->", ".f90": "! {}", ".F90": "! {}",
           ".f": "! {}", ".F": "! {}"}
COMPILED = (".c", ".h", ".cpp", ".inc", ".f90", ".F90", ".f", ".F")
AT_END_DIRS = ("tests/", "examples/", "bench/")
SKIP_PARTS = ("node_modules", "/dist/", "package-lock.json", "/fixtures/", "forbidden/",
              "ctc_inputs/", ".expected")
LOOKED_AT = 3  # lines at the top or the end, one of which must hold the tag


def style_of(root, rel):
    name = os.path.basename(rel)
    if name == "CMakeLists.txt" or name.endswith((".pc.in", ".cmake.in")):
        return "# {}"
    if name.endswith(".h.in"):
        return "/* {} */"
    ext = os.path.splitext(name)[1]
    if ext in COMMENT:
        return COMMENT[ext]
    if ext == "" and rel.startswith(("scripts/", "bench/", ".ci/")):
        with open(os.path.join(root, rel), "rb") as f:
            first = f.readline()
        if first.startswith(b"#!") and (b"sh" in first or b"python" in first):
            return "# {}"
    return None


def at_end(rel):
    return rel.startswith(AT_END_DIRS) and rel.endswith(COMPILED)


def source_files(root):
    """The files git tracks; without git (an unpacked tarball), the tree
    without build directories."""
    try:
        out = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                             check=True).stdout
        return [rel for rel in out.split("\n") if rel]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not d.startswith(("build", ".git"))]
            for name in filenames:
                found.append(os.path.relpath(os.path.join(dirpath, name), root))
        return found


def add_tag(rel, text, line):
    if at_end(rel):
        return text + ("" if text.endswith("\n") else "\n") + line
    if text.startswith("#!") or (rel.endswith(".html") and text.lower().startswith("<!doctype")):
        first, _, rest = text.partition("\n")
        return first + "\n" + line + rest
    return line + text


def main():
    root = sys.argv[1]
    add = "--add" in sys.argv[2:]
    missing = []
    checked = 0
    for rel in source_files(root):
        path = os.path.join(root, rel)
        if any(part in rel for part in SKIP_PARTS) or not os.path.isfile(path):
            continue
        style = style_of(root, rel)
        if not style:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        checked += 1
        lines = text.rstrip("\n").split("\n")
        if any(TAG in l for l in lines[:LOOKED_AT] + lines[-LOOKED_AT:]):
            continue
        if not add:
            missing.append(rel)
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(add_tag(rel, text, style.format(TAG) + "\n"))
    for rel in missing:
        print(f"check_spdx: {rel}: no '{TAG}' line in its first or last {LOOKED_AT} lines")
    if missing:
        print(f"check_spdx: {len(missing)} of {checked} files without a licence line"
              " (tests/layers/check_spdx.py SOURCE_DIR --add writes them)")
        return 1
    print(f"check_spdx: {checked} files, each with its licence line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
