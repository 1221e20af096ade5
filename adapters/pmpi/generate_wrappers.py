#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Generates libweft-mpi's MPI wrappers from mpi_functions.spec.

    generate_wrappers.py SPEC OUTDIR --mpi-h MPI_H_I [--fortran-symbols NM]
                         [--fortran-f08-symbols NM] [--families-header FILE]
    generate_wrappers.py --check SPEC --mpi-h MPI_H_I

writes three files into OUTDIR:
  mpi_wrappers.h          the function indices (WEFT_PMPI_<name>)
  mpi_wrappers.c          MPI_<Name>: the C wrappers, calling PMPI_<Name>
  mpi_wrappers_fortran.c  mpi_<name>_ (+ the aliases mpi_<name>, mpi_<name>__,
                          MPI_<NAME>): the Fortran (mpif.h / `use mpi`)
                          wrappers, written in C, calling pmpi_<name>_

Every wrapper is the same few steps: the region (registered on first use),
enter, the kind's pre-hook, the PMPI call, the kind's post-hook, leave. What
a kind does lives in the hand-written hooks (pmpi_hooks.h); here a kind is
only a few C statements naming the function's parameters, e.g. `send` is
    weft__pmpi_send({count}, {datatype}, {dest}, {tag}, {comm});
In a C wrapper `{count}` is the parameter itself; in a Fortran wrapper it is
the parameter's C value (`(int)*count`, `PMPI_Comm_f2c(*comm)`, ...), so one
statement serves both languages. Placeholders:
  {name}     the parameter's C value (a handle pointer: the address of a C
             copy, converted from Fortran just before the statement)
  {*name}    what an `int *` parameter points to (Fortran LOGICAL `flag`
             parameters become 0 or 1)
  {f:name}   the Fortran parameter as passed (Fortran-only statements)
  {index_base}  0 in C, 1 in Fortran (Waitany/Waitsome index numbering)

A bad spec (unknown kind or role, duplicate name, a missing field, a
parameter a kind needs but the function lacks) stops the build with
"SPEC:LINE: message". Python 3 standard library only; the output depends on
the spec, the preprocessed mpi.h (which functions exist, the parameter lists
of `mpi.h` entries) and the Fortran libraries' symbol lists alone. The kinds
live in wrapper_kinds.py, the reading of the spec and of mpi.h in
wrapper_spec.py; this file writes the wrappers.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from wrapper_kinds import HANDLE_F2C, PLACEHOLDER, SpecError  # noqa: E402
from wrapper_spec import read_header, read_spec  # noqa: E402

WIDTH = 100


# ---- formatting --------------------------------------------------------------------------------

def top_level_split(text):
    """Splits "f(a, g(b, c), d)" into ("f(", ["a", "g(b, c)", "d"], ")...")."""
    start = text.find("(")
    if start < 0:
        return None
    depth, parts, current = 0, [], ""
    for i in range(start + 1, len(text)):
        ch = text[i]
        if ch in "([":
            depth += 1
        elif ch in ")]":
            if depth == 0:
                parts.append(current.strip())
                return text[:start + 1], [p for p in parts if p], text[i:]
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return None


def wrap(text, indent):
    """One statement or declaration, broken after commas to fit WIDTH, the
    continuation lines aligned after the opening parenthesis."""
    pad = " " * indent
    if len(pad) + len(text) <= WIDTH:
        return [pad + text]
    split = top_level_split(text)
    if split is None:
        return [pad + text]
    head, args, tail = split
    first = pad + head
    cont = " " * len(first)
    out, current = [], first
    for i, arg in enumerate(args):
        piece = arg + ("," if i < len(args) - 1 else tail)
        if current == first:
            current += piece
        elif len(current) + 1 + len(piece) > WIDTH:
            out.append(current)
            current = cont + piece
        else:
            current += " " + piece
    out.append(current)
    return out


# ---- C wrappers --------------------------------------------------------------------------------

HEADER = "/* %s: generated from mpi_functions.spec by generate_wrappers.py - do not edit. */\n"


def expand_c(text, fn):
    def sub(m):
        token = m.group(1)
        if token == "index_base":
            return "0"
        if token.startswith(("f:", "len:")):
            raise SpecError("%s: Fortran placeholder {%s} in a C statement" % (fn.name, token))
        if token.startswith("*"):
            return "*" + token[1:]
        return token
    return PLACEHOLDER.sub(sub, text)


def c_wrapper(fn):
    k = fn.kind
    decl = "%s(%s)" % (fn.name, ", ".join([p.c_decl() for p in fn.params] +
                                          (["..."] if fn.variadic else [])) or "void")
    body = []
    body.append("const weft_region region = weft__pmpi_region(WEFT_PMPI_%s);" % fn.name)
    body.append("weft__pmpi_enter(region);")
    body += k.locals
    if k.leave_first:
        body.append("weft__pmpi_leave(region);")
    call_args = []
    for p in fn.params:
        if p.name in k.args:
            call_args.append(k.args[p.name])
        elif p.name == k.status:
            call_args.append("weft_recv_status")
        else:
            call_args.append(p.name)
    if k.status:
        body.append("MPI_Status weft_status_local;")
        body.append("MPI_Status *const weft_recv_status = %s != MPI_STATUS_IGNORE ? %s : "
                    "&weft_status_local;" % (k.status, k.status))
    body += [expand_c(s, fn) for s in k.pre_c]
    body.append("const int ret = P%s(%s);" % (fn.name, ", ".join(call_args)))
    body += [expand_c(s, fn) for s in k.post_c]
    if not k.leave_first:
        body.append("weft__pmpi_leave(region);")
    body += [expand_c(s, fn) for s in k.after_leave]
    body.append("return ret;")
    out = wrap("WEFT_EXPORT int " + decl, 0)
    out.append("{")
    for statement in body:
        extra = len(statement) - len(statement.lstrip(" "))
        out += wrap(statement.lstrip(" "), 4 + extra)
    out.append("}")
    return "\n".join(out) + "\n"


def write_c(functions, outdir):
    out = [HEADER % "mpi_wrappers.c"]
    out.append("""/* The C wrappers of libweft-mpi: each MPI_<Name> records its region and
 * hands its arguments to the hooks (pmpi_hooks.h) around PMPI_<Name>, whose
 * result it returns unchanged. */
#include <stdbool.h>

#include "mpi_wrappers.h"
#include "pmpi_hooks.h"

/* Programs still call functions MPI deprecated (MPI_Attr_get, ...): their
 * wrappers call the deprecated PMPI functions on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* clang-format off */
const weft_pmpi_function weft__pmpi_functions[WEFT_PMPI_FUNCTION_COUNT] = {""")
    for fn in functions:
        out.append('    [WEFT_PMPI_%s] = {"%s", WEFT_REGION_ROLE_%s},' % (fn.name, fn.name, fn.role))
    out.append("};")
    out.append("/* clang-format on */")
    out.append("")
    out.append("_Atomic uint32_t weft__pmpi_region_slots[WEFT_PMPI_FUNCTION_COUNT];")
    out.append("")
    for fn in functions:
        out.append(c_wrapper(fn))
    write(outdir, "mpi_wrappers.c", "\n".join(out))


def write_header(functions, outdir):
    out = [HEADER % "mpi_wrappers.h"]
    out.append("""/* The wrapped MPI functions by index: weft__pmpi_functions[WEFT_PMPI_<name>]
 * describes the region of <name>, shared by its C and Fortran wrappers. */
#ifndef WEFT_PMPI_MPI_WRAPPERS_H
#define WEFT_PMPI_MPI_WRAPPERS_H

enum {""")
    for fn in functions:
        out.append("    WEFT_PMPI_%s," % fn.name)
    out.append("    WEFT_PMPI_FUNCTION_COUNT")
    out.append("};")
    out.append("")
    out.append("#endif /* WEFT_PMPI_MPI_WRAPPERS_H */")
    write(outdir, "mpi_wrappers.h", "\n".join(out) + "\n")


# ---- Fortran wrappers --------------------------------------------------------------------------

class FortranExpander:
    """Expands placeholders for a Fortran wrapper; collects the C copies of
    handle pointers it needs (declared once, converted before each block)."""

    def __init__(self, fn):
        self.fn = fn
        self.copies = []

    def block(self, statements):
        converted, out = [], []
        for text in statements:
            for token in PLACEHOLDER.findall(text):
                p = self.fn.param(token.lstrip("*").split(":")[-1])
                if (p is not None and not token.startswith(("*", "f:", "len:"))
                        and p.fortran_class() == "handle_pointer" and p.name not in converted):
                    converted.append(p.name)
                    if p.name not in self.copies:
                        self.copies.append(p.name)
                    out.append("c_%s = %s(*%s);" % (p.name, HANDLE_F2C[p.base], p.name))
        return out + [PLACEHOLDER.sub(self.sub, text) for text in statements]

    def sub(self, m):
        token = m.group(1)
        fn = self.fn
        if token == "index_base":
            return "1"
        if token.startswith("f:"):
            return token[2:]
        if token.startswith("len:"):
            return token[4:] + "_len"
        p = fn.param(token.lstrip("*"))
        cls = p.fortran_class()
        if token.startswith("*"):
            return "(*%s != 0)" % p.name if p.name == "flag" else "(int)*%s" % p.name
        if cls == "buffer":
            return "weft__pmpi_f_buffer(%s)" % p.name
        if cls == "int":
            return "(int)*%s" % p.name
        if cls == "int_array":
            return "(const int *)%s" % p.name
        if cls == "handle":
            return "%s(*%s)" % (HANDLE_F2C[p.base], p.name)
        if cls == "handle_pointer":
            return "&c_%s" % p.name
        if cls == "offset":
            return "*%s" % p.name
        raise SpecError("%s: the parameter '%s' has no C value in Fortran; use {f:%s}"
                        % (fn.name, p.c_decl(), p.name))


def fortran_params(fn):
    """CHARACTER arguments come with their lengths after IERROR (gfortran
    passes them by value at the end, in order)."""
    return ([p.fortran_decl() for p in fn.fortran_params] + ["MPI_Fint *ierr"] +
            ["size_t %s_len" % p.name for p in fn.fortran_params
             if p.fortran_class() == "string"])


def fortran_wrapper(fn, f08=False):
    """mpif.h's mpi_<name>_ (with aliases), or with f08 mpi_f08's
    mpi_<name>_f08_, whose IERROR is optional (NULL when left out)."""
    k = fn.kind
    lower = fn.lower + ("_f08" if f08 else "")
    params = ", ".join(fortran_params(fn))
    x = FortranExpander(fn)
    pre = x.block(k.pre_f)
    post = x.block(k.post_f)
    after = x.block(k.after_leave)
    body = ["const weft_region region = weft__pmpi_region(WEFT_PMPI_%s);" % fn.name,
            "weft__pmpi_enter(region);"]
    if f08:
        body += ["MPI_Fint weft_ierr_local = 0;",
                 "if (!ierr)",
                 "    ierr = &weft_ierr_local;"]
    body += ["%s c_%s;" % (fn.param(name).base, name) for name in x.copies]
    body += k.locals
    if k.leave_first:
        body.append("weft__pmpi_leave(region);")
    call_args = []
    for p in fn.fortran_params:
        if p.name in k.args:
            call_args.append(k.args[p.name])
        elif p.name == k.status:
            call_args.append("weft_f_status")
        else:
            call_args.append(p.name)
    call_args.append("ierr")
    call_args += ["%s_len" % p.name for p in fn.fortran_params if p.fortran_class() == "string"]
    if k.status:
        body.append("MPI_Fint weft_f_status_local[WEFT_PMPI_F_STATUS_SIZE];")
        body.append("MPI_Fint *const weft_f_status = weft__pmpi_f_status_arg(%s, "
                    "weft_f_status_local);" % k.status)
    body += pre
    body.append("p%s_(%s);" % (lower, ", ".join(call_args)))
    uses_ret = any(re.search(r"\bret\b", s) for s in post + after) or k.status
    if uses_ret:
        body.append("const int ret = (int)*ierr;")
    if k.status:
        body.append("MPI_Status weft_status_c;")
        body.append("const MPI_Status *const weft_recv_status = weft__pmpi_f_status_read(ret, "
                    "weft_f_status, &weft_status_c);")
    body += post
    if not k.leave_first:
        body.append("weft__pmpi_leave(region);")
    body += after
    out = wrap("WEFT_EXPORT void %s_(%s)" % (lower, params), 0)
    out.append("{")
    for statement in body:
        extra = len(statement) - len(statement.lstrip(" "))
        out += wrap(statement.lstrip(" "), 4 + extra)
    out.append("}")
    for alias in () if f08 else (lower, lower + "__", fn.name.upper()):
        out += wrap('WEFT_EXPORT void %s(%s) __attribute__((alias("%s_")));'
                    % (alias, params, lower), 0)
    return "\n".join(out) + "\n"


def write_fortran(functions, f08_functions, outdir):
    out = [HEADER % "mpi_wrappers_fortran.c"]
    out.append("""/* The Fortran wrappers of libweft-mpi (mpif.h and `use mpi`): gfortran
 * calls mpi_<name>_, which records exactly what the C wrapper MPI_<Name>
 * records (the same hooks, on C handles converted with PMPI_*_f2c) and
 * calls Open MPI's Fortran implementation pmpi_<name>_ (libmpi_mpifh),
 * never a C MPI_ wrapper, so each call is recorded once. The aliases
 * mpi_<name>, mpi_<name>__ and MPI_<NAME> serve other Fortran name
 * manglings, as Open MPI's own symbols do.
 *
 * `use mpi_f08`: Open MPI's module calls the external procedures
 * mpi_<name>_f08_ (libmpi_usempif08), whose arguments are passed as
 * mpif.h's are (a TYPE(MPI_Comm) is its one INTEGER, TYPE(MPI_Status) has
 * MPI_STATUS_SIZE INTEGERs, buffers by address); their wrappers differ only
 * in name and in the optional IERROR, which may be NULL. */
#include <stdbool.h>

#include "mpi_wrappers.h"
#include "pmpi_hooks.h"

/* As in mpi_wrappers.c: deprecated functions are wrapped on purpose. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* INTEGER arrays (counts, ranks) are handed to the hooks as int arrays. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "the Fortran wrappers assume INTEGER is a C int");

/* Open MPI's Fortran bindings (libmpi_mpifh, libmpi_usempif08); no header
 * declares them. */""")
    for fn in functions:
        out += wrap("void p%s_(%s);" % (fn.lower, ", ".join(fortran_params(fn))), 0)
    for fn in f08_functions:
        out += wrap("void p%s_f08_(%s);" % (fn.lower, ", ".join(fortran_params(fn))), 0)
    out.append("")
    out.append("/* The wrappers. */")
    for fn in functions:
        out += wrap("WEFT_EXPORT void %s_(%s);" % (fn.lower, ", ".join(fortran_params(fn))), 0)
    for fn in f08_functions:
        out += wrap("WEFT_EXPORT void %s_f08_(%s);" % (fn.lower, ", ".join(fortran_params(fn))),
                    0)
    out.append("")
    for fn in functions:
        out.append(fortran_wrapper(fn))
    for fn in f08_functions:
        out.append(fortran_wrapper(fn, f08=True))
    write(outdir, "mpi_wrappers_fortran.c", "\n".join(out))


def write_families(functions, families, fortran, f08, path):
    """weft info's list: each family with the functions this build wraps."""
    out = [HEADER % os.path.basename(path)]
    out.append("/* The families of MPI functions libweft-mpi wraps in this build (from the")
    out.append(" * spec and the build's mpi.h), for `weft info`. */")
    out.append("#ifndef WEFT_MPI_FAMILIES_H")
    out.append("#define WEFT_MPI_FAMILIES_H")
    out.append("")
    out.append("/* clang-format off */")
    total = sum(1 for fn in functions if fn.available and not fn.unwrapped)
    out.append("#define WEFT_MPI_WRAPPED_COUNT %d" % total)
    out.append("#define WEFT_MPI_FORTRAN_WRAPPED_COUNT %d" % len(fortran))
    out.append("#define WEFT_MPI_F08_WRAPPED_COUNT %d" % len(f08))
    out.append("#define WEFT_MPI_FAMILIES \\")
    for key, title in families:
        n = sum(1 for fn in functions if fn.family == key and fn.available and not fn.unwrapped)
        if n:
            out.append('    "  %-24s %3d  %s\\n" \\' % (key, n, title.replace('"', "'")))
    out.append('    ""')
    out.append("/* clang-format on */")
    out.append("")
    out.append("#endif /* WEFT_MPI_FAMILIES_H */")
    write(os.path.dirname(path) or ".", os.path.basename(path), "\n".join(out) + "\n")


def write(outdir, name, text):
    """Writes only when the text changed, so a rerun rebuilds nothing."""
    path = os.path.join(outdir, name)
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def check_coverage(functions, header):
    """Every function mpi.h declares must have an entry: returns the missing
    names (a new MPI version's function must be decided on, not bypassed)."""
    listed = {fn.name for fn in functions}
    return sorted(name for name in header if name not in listed)


def main(argv):
    parser = argparse.ArgumentParser(
        description="Generates libweft-mpi's MPI wrappers from mpi_functions.spec.")
    parser.add_argument("spec")
    parser.add_argument("outdir", nargs="?")
    parser.add_argument("--mpi-h", required=True,
                        help="the build's mpi.h, preprocessed (cc -E)")
    parser.add_argument("--fortran-symbols",
                        help="the symbols the MPI's Fortran library defines (nm): Fortran "
                             "wrappers for those pmpi_<name>_ only; without it none")
    parser.add_argument("--fortran-f08-symbols",
                        help="the symbols of the MPI's mpi_f08 library (nm): wrappers "
                             "mpi_<name>_f08_ for those pmpi_<name>_f08_")
    parser.add_argument("--families-header", help="where to write weft info's list")
    parser.add_argument("--check", action="store_true",
                        help="only check that the spec lists every function mpi.h declares")
    args = parser.parse_args(argv[1:])
    try:
        header = read_header(args.mpi_h)
        if len(header) < 100:
            raise SpecError("%s declares %d MPI functions: not a preprocessed mpi.h?"
                            % (args.mpi_h, len(header)))
        functions, families = read_spec(args.spec, header)
    except SpecError as e:
        sys.stderr.write("generate_wrappers.py: %s\n" % e)
        return 1
    except OSError as e:
        sys.stderr.write("generate_wrappers.py: cannot read: %s\n" % e)
        return 1
    if args.check:
        missing = check_coverage(functions, header)
        wrapped = [fn for fn in functions if fn.available and not fn.unwrapped]
        for name in missing:
            sys.stderr.write("%s: %s is declared by mpi.h but not listed in the spec\n"
                             % (args.spec, name))
        print("%d functions declared by mpi.h, %d wrapped, %d listed as unwrapped, %d missing"
              % (len(header), len(wrapped),
                 sum(1 for fn in functions if fn.unwrapped and fn.name in header), len(missing)))
        return 1 if missing else 0
    if not args.outdir:
        parser.error("OUTDIR is needed unless --check")
    generated = [fn for fn in functions if fn.available and not fn.unwrapped]
    fortran = []
    if args.fortran_symbols:
        try:
            with open(args.fortran_symbols, encoding="utf-8") as f:
                symbols = set(f.read().split())
        except OSError as e:
            sys.stderr.write("generate_wrappers.py: cannot read: %s\n" % e)
            return 1
        fortran = [fn for fn in generated
                   if not fn.c_only and "p%s_" % fn.lower in symbols]
    f08 = []
    if args.fortran_f08_symbols:
        try:
            with open(args.fortran_f08_symbols, encoding="utf-8") as f:
                symbols = set(f.read().split())
        except OSError as e:
            sys.stderr.write("generate_wrappers.py: cannot read: %s\n" % e)
            return 1
        f08 = [fn for fn in fortran if "p%s_f08_" % fn.lower in symbols]
    try:
        os.makedirs(args.outdir, exist_ok=True)
        write_header(generated, args.outdir)
        write_c(generated, args.outdir)
        write_fortran(fortran, f08, args.outdir)
        if args.families_header:
            write_families(functions, families, fortran, f08, args.families_header)
    except SpecError as e:
        sys.stderr.write("generate_wrappers.py: %s\n" % e)
        return 1
    except OSError as e:
        sys.stderr.write("generate_wrappers.py: cannot write into %s: %s\n" % (args.outdir, e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
