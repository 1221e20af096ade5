#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The include edges weft allows, checked over every source file.

weft is built in layers (docs/dev/ARCHITECTURE.md):

    definitions  <-  recorder  <-  adapters/{pomp,ompt,pmpi}
         ^              ^
         +---- tools/ (cli <- trace <- summary, check, view, recover; cli <- compile, run, convert)

A file may include its own folder's headers, the public headers of the
layers below it, and the system and third-party headers its layer owns
(OTF2 for the layers that write or read it, MPI and OMPT for their adapters).
CMake's include directories already refuse most other edges; this check
catches what compiles anyway: a relative path into another folder, OTF2
(a system header) where it does not belong, or one adapter's header in
another. Prints one line per forbidden include and exits 1 when there is
any.

    check_layers.py SOURCE_DIR
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)

# Public header directories and the module that provides them.
PUBLIC = {
    "definitions/include": "definitions",
    "definitions/otf2": "definitions-otf2",
    "recorder/include": "recorder",
    "adapters/pomp/include": "pomp-api",
}

# Modules, by the folder their files live in (longest prefix wins).
MODULES = {
    "definitions": "definitions",
    "recorder": "recorder",
    "adapters/pomp": "pomp",
    "adapters/ompt": "ompt",
    "adapters/pmpi": "pmpi",
    "tools/cli": "cli",
    "tools/trace": "trace",
    "tools/summary": "summary",
    "tools/check": "check",
    "tools/compile": "compile",
    "tools/run": "run",
    "tools/convert": "convert",
    "tools/view": "view",
    "tools/recover": "recover",
}

# Which modules' headers each module may include (its own always).
ALLOWED = {
    "definitions": {"definitions", "definitions-otf2"},
    "recorder": {"definitions", "definitions-otf2"},
    "pomp": {"definitions", "recorder", "pomp-api"},
    "ompt": {"definitions", "recorder"},
    "pmpi": {"definitions", "recorder"},
    "cli": {"definitions", "recorder"},
    "trace": {"definitions", "recorder", "cli"},
    "summary": {"definitions", "recorder", "cli", "trace"},
    "check": {"definitions", "recorder", "cli", "trace"},
    "view": {"definitions", "recorder", "cli", "trace", "summary"},
    "recover": {"definitions", "recorder", "cli", "trace"},
    "compile": {"definitions", "recorder", "cli"},
    "run": {"definitions", "recorder", "cli"},
    "convert": {"definitions", "recorder", "cli"},
}

# System headers only some modules may include: (pattern, modules, or
# exact files allowed).
RESTRICTED_SYSTEM = [
    (re.compile(r"^otf2/"), {"definitions", "recorder", "trace", "summary", "check", "view",
                             "recover"}, {"adapters/pmpi/pmpi_job.c", "tools/cli/info.c"}),
    (re.compile(r"^mpi\.h$"), {"pmpi"}, set()),
    (re.compile(r"^omp-tools\.h$"), {"ompt"}, set()),
    (re.compile(r"^bfd\.h$"), set(), {"definitions/symbols_bfd.c"}),
    (re.compile(r"^papi\.h$"), set(), {"recorder/metrics_papi.c"}),
]


def module_of(path):
    best = None
    for folder, module in MODULES.items():
        if path == folder or path.startswith(folder + "/"):
            if best is None or len(folder) > len(best[0]):
                best = (folder, module)
    return best


def public_provider(root, name):
    for folder, module in PUBLIC.items():
        if os.path.isfile(os.path.join(root, folder, name)):
            return module
    return None


def tools_provider(root, name):
    """The tools module whose folder holds header NAME."""
    for folder, module in MODULES.items():
        if folder.startswith("tools/") and os.path.isfile(os.path.join(root, folder, name)):
            return module
    return None


def check_file(root, path, problems):
    found = module_of(path)
    if not found:
        return
    folder, module = found
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = f.read()
    own_dir = os.path.dirname(path)
    for match in INCLUDE.finditer(text):
        kind, name = match.group(1), match.group(2)
        line = text.count("\n", 0, match.start()) + 1
        where = f"{path}:{line}: #include {kind}{name}{'>' if kind == '<' else kind}"
        if ".." in name.split("/"):
            problems.append(f"{where}: a relative path into another folder")
            continue
        provider = None
        if os.path.isfile(os.path.join(root, own_dir, name)) or \
                os.path.isfile(os.path.join(root, folder, name)):
            provider = module
        if provider is None:
            provider = public_provider(root, name)
        if provider is None and folder.startswith("tools/"):
            provider = tools_provider(root, name)
        if provider is None and kind == '"' and os.path.isfile(os.path.join(root, name)):
            provider = "?"
        if provider is not None:
            if provider != module and provider not in ALLOWED.get(module, set()):
                problems.append(f"{where}: {module} may not include {provider}'s headers")
            continue
        for pattern, modules, files in RESTRICTED_SYSTEM:
            if pattern.search(name) and module not in modules and path not in files:
                problems.append(f"{where}: {name} is not {module}'s to include")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    root = sys.argv[1]
    problems = []
    checked = 0
    for top in ("definitions", "recorder", "adapters", "tools"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = [d for d in dirnames if d not in ("node_modules", "test")]
            for name in sorted(filenames):
                if name.endswith((".c", ".h", ".cpp")):
                    rel = os.path.relpath(os.path.join(dirpath, name), root)
                    check_file(root, rel, problems)
                    checked += 1
    for p in problems:
        print(f"check_layers: {p}")
    if problems:
        print(f"check_layers: {len(problems)} forbidden include(s) in {checked} files")
        return 1
    print(f"check_layers: {checked} files, every include allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
