#!/usr/bin/env python3
"""Generates libweft-mpi's MPI wrappers from mpi_functions.spec.

    generate_wrappers.py SPEC OUTDIR

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
the spec alone.
"""

import os
import re
import sys

WIDTH = 100

# weft's region roles (WEFT_REGION_ROLE_LIST in weft/definitions.h).
ROLES = """UNKNOWN FUNCTION WRAPPER LOOP CODE PARALLEL SECTIONS SECTION WORKSHARE SINGLE
    SINGLE_SBLOCK MASTER CRITICAL CRITICAL_SBLOCK ATOMIC BARRIER IMPLICIT_BARRIER FLUSH ORDERED
    ORDERED_SBLOCK TASK TASK_CREATE TASK_WAIT COLL_ONE2ALL COLL_ALL2ONE COLL_ALL2ALL COLL_OTHER
    FILE_IO POINT2POINT RMA DATA_TRANSFER ARTIFICIAL THREAD_CREATE THREAD_WAIT TASK_UNTIED
    ALLOCATE DEALLOCATE REALLOCATE""".split()

# The collective operations weft records (WEFT_COLLECTIVE_LIST in weft/recorder.h).
COLLECTIVE_OPS = """BARRIER BCAST GATHER GATHERV SCATTER SCATTERV ALLGATHER ALLGATHERV ALLTOALL
    ALLTOALLV ALLTOALLW ALLREDUCE REDUCE REDUCE_SCATTER SCAN EXSCAN
    REDUCE_SCATTER_BLOCK""".split()

# Byte-count rules of pmpi_collectives.c: the arguments each takes after
# (ret, op, weft comm, comm); {ROOT} is the spec's root parameter. A rule
# with a Fortran variant names it (its Fortran-only arguments use {f:...}).
BYTES_RULES = {
    "barrier": ("", None),
    "bcast": ("{count}, {datatype}, {ROOT}", None),
    "gather": ("{sendbuf}, {sendcount}, {sendtype}, {recvcount}, {recvtype}, {ROOT}", None),
    "gatherv": ("{sendbuf}, {sendcount}, {sendtype}, {recvcounts}, {recvtype}, {ROOT}", None),
    "scatter": ("{sendcount}, {sendtype}, {recvbuf}, {recvcount}, {recvtype}, {ROOT}", None),
    "scatterv": ("{sendcounts}, {sendtype}, {recvbuf}, {recvcount}, {recvtype}, {ROOT}", None),
    "allgather": ("{sendbuf}, {sendcount}, {sendtype}, {recvcount}, {recvtype}", None),
    "allgatherv": ("{sendbuf}, {sendcount}, {sendtype}, {recvcounts}, {recvtype}", None),
    "alltoall": ("{sendbuf}, {sendcount}, {sendtype}, {recvcount}, {recvtype}", None),
    "alltoallv": ("{sendbuf}, {sendcounts}, {sendtype}, {recvcounts}, {recvtype}", None),
    "alltoallw": ("{sendbuf}, {sendcounts}, {sendtypes}, {recvcounts}, {recvtypes}",
                  ("alltoallw_f",
                   "{sendbuf}, {sendcounts}, {f:sendtypes}, {recvcounts}, {f:recvtypes}")),
    "reduce": ("{sendbuf}, {count}, {datatype}, {ROOT}", None),
    "allreduce": ("{sendbuf}, {count}, {datatype}", None),
    "reduce_scatter": ("{sendbuf}, {recvcounts}, {datatype}", None),
    "reduce_scatter_block": ("{sendbuf}, {recvcount}, {datatype}", None),
    "scan": ("{sendbuf}, {count}, {datatype}", None),
    "exscan": ("{count}, {datatype}", None),
}

# Handle types: their Fortran-to-C conversion.
HANDLE_F2C = {
    "MPI_Comm": "PMPI_Comm_f2c",
    "MPI_Datatype": "PMPI_Type_f2c",
    "MPI_Op": "PMPI_Op_f2c",
    "MPI_Group": "PMPI_Group_f2c",
    "MPI_Info": "PMPI_Info_f2c",
    "MPI_Request": "PMPI_Request_f2c",
    "MPI_Message": "PMPI_Message_f2c",
}


class SpecError(Exception):
    pass


class Kind:
    """What one kind of wrapper does, as C statements with placeholders.

    pre/post run before/after the PMPI call (pre_c/pre_f and post_c/post_f
    replace them in one language); after_leave runs after the leave event;
    locals are declared first. `status` names the single MPI_Status
    parameter the post-hook reads: the wrapper passes a status of its own
    when the caller gave MPI_STATUS_IGNORE. `args` replaces parameters in the
    PMPI call (both languages). leave_first records the leave before the
    call (MPI_Finalize: the trace is written before PMPI_Finalize)."""

    def __init__(self, pre=None, post=None, pre_c=None, pre_f=None, post_c=None, post_f=None,
                 after_leave=None, locals_=None, status=None, args=None, leave_first=False):
        self.pre_c = lines(pre_c if pre_c is not None else pre)
        self.pre_f = lines(pre_f if pre_f is not None else pre)
        self.post_c = lines(post_c if post_c is not None else post)
        self.post_f = lines(post_f if post_f is not None else post)
        self.after_leave = lines(after_leave)
        self.locals = lines(locals_)
        self.status = status
        self.args = args or {}
        self.leave_first = leave_first


def lines(text):
    if text is None:
        return []
    return text if isinstance(text, list) else [text]


def completion(count, requests, statuses, one_status, end):
    """Wait/Test family: the requests are looked up before the call (their
    handles become MPI_REQUEST_NULL), `end` reports what completed."""
    one = "true" if one_status else "false"
    return Kind(
        locals_="weft_pmpi_completion weft_cap;",
        pre_c="MPI_Status *const weft_statuses = weft__pmpi_completion_begin("
              "&weft_cap, %s, {%s}, {%s}, %s);" % (count, requests, statuses, one),
        pre_f="MPI_Fint *const weft_statuses = weft__pmpi_completion_begin_f("
              "&weft_cap, %s, {f:%s}, {f:%s}, %s);" % (count, requests, statuses, one),
        args={statuses: "weft_statuses"},
        post=end)


KINDS = {
    "plain": Kind(),
    "init": Kind(post=["if (ret == MPI_SUCCESS)", "    weft__pmpi_job_start();"]),
    "finalize": Kind(leave_first=True, pre="weft__pmpi_job_finish();"),
    "abort": Kind(pre="weft__pmpi_job_abort({errorcode});"),
    "send": Kind(pre="weft__pmpi_send({count}, {datatype}, {dest}, {tag}, {comm});"),
    "recv": Kind(status="status", post="weft__pmpi_recv(ret, weft_recv_status, {comm});"),
    "sendrecv": Kind(status="status",
                     pre="weft__pmpi_send({sendcount}, {sendtype}, {dest}, {sendtag}, {comm});",
                     post="weft__pmpi_recv(ret, weft_recv_status, {comm});"),
    "sendrecv_replace": Kind(status="status",
                             pre="weft__pmpi_send({count}, {datatype}, {dest}, {sendtag}, {comm});",
                             post="weft__pmpi_recv(ret, weft_recv_status, {comm});"),
    "isend": Kind(pre="const uint64_t weft_request_id = weft__pmpi_isend_begin({count}, "
                      "{datatype}, {dest}, {tag}, {comm});",
                  post="weft__pmpi_isend_end(ret, weft_request_id, {request});"),
    "irecv": Kind(post="weft__pmpi_irecv(ret, {source}, {comm}, {request});"),
    "mprobe": Kind(post="weft__pmpi_message_probed(ret, 1, {comm}, {message});"),
    "improbe": Kind(post="weft__pmpi_message_probed(ret, {*flag}, {comm}, {message});"),
    "mrecv": Kind(status="status",
                  pre="const weft_comm weft_message_comm = weft__pmpi_mrecv_begin({message});",
                  post="weft__pmpi_recv_on(ret, weft_recv_status, weft_message_comm);"),
    "imrecv": Kind(pre="const weft_comm weft_message_comm = weft__pmpi_mrecv_begin({message});",
                   post="weft__pmpi_imrecv(ret, weft_message_comm, {request});"),
    "send_init": Kind(post="weft__pmpi_send_init(ret, {count}, {datatype}, {dest}, {tag}, {comm}, "
                           "{request});"),
    "recv_init": Kind(post="weft__pmpi_recv_init(ret, {source}, {comm}, {request});"),
    "start": Kind(pre_c="weft__pmpi_start(1, {request});",
                  pre_f="weft__pmpi_start_f(1, {f:request});"),
    "startall": Kind(pre_c="weft__pmpi_start({count}, {array_of_requests});",
                     pre_f="weft__pmpi_start_f({count}, {f:array_of_requests});"),
    "wait": completion("1", "request", "status", True,
                       "weft__pmpi_completion_all(&weft_cap, ret);"),
    "waitall": completion("{count}", "array_of_requests", "array_of_statuses", False,
                          "weft__pmpi_completion_all(&weft_cap, ret);"),
    "waitany": completion("{count}", "array_of_requests", "status", True,
                          "weft__pmpi_completion_waitany(&weft_cap, ret, {*index}, {index_base});"),
    "waitsome": completion("{incount}", "array_of_requests", "array_of_statuses", False,
                           "weft__pmpi_completion_some(&weft_cap, ret, {*outcount}, "
                           "{array_of_indices}, {index_base}, false);"),
    "test": completion("1", "request", "status", True,
                       "weft__pmpi_completion_test(&weft_cap, ret, {*flag});"),
    "testall": completion("{count}", "array_of_requests", "array_of_statuses", False,
                          "weft__pmpi_completion_test(&weft_cap, ret, {*flag});"),
    "testany": completion("{count}", "array_of_requests", "status", True,
                          "weft__pmpi_completion_testany(&weft_cap, ret, {*index}, {*flag}, "
                          "{index_base});"),
    "testsome": completion("{incount}", "array_of_requests", "array_of_statuses", False,
                           "weft__pmpi_completion_some(&weft_cap, ret, {*outcount}, "
                           "{array_of_indices}, {index_base}, true);"),
    "cancel": Kind(pre="weft__pmpi_cancel({request});"),
    "request_free": Kind(pre="weft__pmpi_request_free({request});"),
    "icollective": Kind(post="weft__pmpi_request_collective(ret, {request});"),
    "comm_free": Kind(pre="const weft_pmpi_comm_ref weft_freed = weft__pmpi_comm_free_begin({comm});",
                      post="weft__pmpi_comm_free_end(ret, weft_freed);"),
}


def collective_kind(args):
    if len(args) != 3:
        raise SpecError("collective(OP, ROOT, BYTES) takes three arguments, not %d" % len(args))
    op, root, rule = args
    if op not in COLLECTIVE_OPS:
        raise SpecError("unknown collective operation '%s' (one of %s)"
                        % (op, ", ".join(COLLECTIVE_OPS)))
    if rule not in BYTES_RULES:
        raise SpecError("unknown byte-count rule '%s' (one of %s)"
                        % (rule, ", ".join(sorted(BYTES_RULES))))
    rule_args, fortran = BYTES_RULES[rule]
    if ("{ROOT}" in rule_args) != (root != "-"):
        raise SpecError("byte-count rule '%s' %s a root parameter" % (
            rule, "needs" if "{ROOT}" in rule_args else "takes no"))

    def call(name, rule_args_text):
        text = rule_args_text.replace("{ROOT}", "{%s}" % root)
        return "weft__pmpi_coll_%s(ret, WEFT_COLLECTIVE_%s, weft_coll, {comm}%s);" % (
            name, op, (", " + text) if text else "")

    post_c = call(rule, rule_args)
    post_f = call(fortran[0], fortran[1]) if fortran else post_c
    return Kind(pre="const weft_comm weft_coll = weft__pmpi_collective_begin({comm});",
                post_c=post_c, post_f=post_f,
                after_leave=["if ({comm} == MPI_COMM_WORLD)",
                             "    weft__pmpi_clock_checkpoint();"])


def comm_new_kind(args):
    if len(args) != 2:
        raise SpecError("comm_new(PARENT, NEW) takes two parameter names")
    return Kind(post="weft__pmpi_comm_derived(ret, {%s}, {%s});" % tuple(args))


def comm_new_by_members_kind(args):
    if len(args) != 1:
        raise SpecError("comm_new_by_members(NEW) takes one parameter name")
    return Kind(post="weft__pmpi_comm_by_members(ret, {%s});" % args[0])


PARAMETRIC_KINDS = {
    "collective": collective_kind,
    "comm_new": comm_new_kind,
    "comm_new_by_members": comm_new_by_members_kind,
}


class Param:
    def __init__(self, text):
        m = re.match(r"^(?P<type>.*?[\s*])(?P<name>\w+)\s*(?P<array>\[\s*\])?$", text.strip())
        if not m or not m.group("type").strip():
            raise SpecError("cannot read the parameter '%s'" % text.strip())
        self.type = normalise_type(m.group("type"))
        self.name = m.group("name")
        self.array = m.group("array") is not None
        base = self.type.replace("const ", "").replace(" ", "")
        self.base = base.rstrip("*")
        self.stars = len(base) - len(self.base)

    def c_decl(self):
        sep = "" if self.type.endswith("*") else " "
        return "%s%s%s%s" % (self.type, sep, self.name, "[]" if self.array else "")

    def fortran_class(self):
        """How the Fortran binding passes it, and how to get its C value."""
        if self.base == "void" and self.stars == 1:
            return "buffer"
        if self.base == "int" and self.stars == 0:
            return "int_array" if self.array else "int"
        if self.base == "int" and self.stars == 1 and not self.array:
            return "int_pointer"
        if self.base in HANDLE_F2C and self.stars == 0:
            return "handle_array" if self.array else "handle"
        if self.base in HANDLE_F2C and self.stars == 1 and not self.array:
            return "handle_pointer"
        if self.base == "MPI_Status":
            return "status"
        return None

    def fortran_decl(self):
        if self.fortran_class() == "buffer":
            return self.c_decl()
        return "MPI_Fint *%s" % self.name


def normalise_type(text):
    """"const void  * " -> "const void *", "char***" -> "char ***"."""
    text = re.sub(r"\s*\*\s*", "*", re.sub(r"\s+", " ", text.strip()))
    return text.replace("*", " *", 1)


class Function:
    def __init__(self, line, name, role, kind_text, arguments, options):
        self.line = line
        self.name = name
        self.role = role
        self.kind_text = kind_text
        self.kind = parse_kind(kind_text)
        args = arguments.strip()
        self.params = [] if args == "void" else [Param(p) for p in split_args(args)]
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise SpecError("%s has two parameters of the same name" % name)
        self.fortran_omits = []
        for option in options:
            key, _, value = option.partition("=")
            if key.strip() == "fortran-omits" and value.strip():
                self.fortran_omits = [v.strip() for v in value.split(",")]
                for omitted in self.fortran_omits:
                    if omitted not in names:
                        raise SpecError("fortran-omits names '%s', which %s does not have"
                                        % (omitted, name))
            else:
                raise SpecError("unknown option '%s' (known: fortran-omits=A,B)" % option)
        self.fortran_params = [p for p in self.params if p.name not in self.fortran_omits]
        for p in self.fortran_params:
            if p.fortran_class() is None:
                raise SpecError("%s: no Fortran binding for the parameter '%s' (add it to "
                                "fortran-omits?)" % (name, p.c_decl()))
        self.check_placeholders()

    @property
    def lower(self):
        return self.name.lower()

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        return None

    def check_placeholders(self):
        k = self.kind
        statements = k.pre_c + k.pre_f + k.post_c + k.post_f + k.after_leave
        for text in statements:
            for token in PLACEHOLDER.findall(text):
                if token == "index_base":
                    continue
                name = token.lstrip("*").split(":")[-1]
                p = self.param(name)
                if p is None:
                    raise SpecError("kind '%s' needs a parameter '%s', which %s does not have"
                                    % (self.kind_text, name, self.name))
                if token.startswith("*") and p.fortran_class() != "int_pointer":
                    raise SpecError("kind '%s' reads *%s, but '%s' is not an int pointer"
                                    % (self.kind_text, name, p.c_decl()))
        for name in list(k.args) + ([k.status] if k.status else []):
            if self.param(name) is None:
                raise SpecError("kind '%s' needs a parameter '%s', which %s does not have"
                                % (self.kind_text, name, self.name))


PLACEHOLDER = re.compile(r"\{([*]?(?:f:)?\w+)\}")


def parse_kind(text):
    m = re.match(r"^(\w+)\s*(?:\((.*)\))?$", text.strip())
    if not m:
        raise SpecError("cannot read the kind '%s'" % text)
    name, args = m.group(1), m.group(2)
    if name in PARAMETRIC_KINDS:
        if args is None:
            raise SpecError("kind '%s' needs arguments" % name)
        return PARAMETRIC_KINDS[name]([a.strip() for a in args.split(",")])
    if name not in KINDS:
        raise SpecError("unknown kind '%s' (known: %s)"
                        % (name, ", ".join(sorted(list(KINDS) + list(PARAMETRIC_KINDS)))))
    if args is not None:
        raise SpecError("kind '%s' takes no arguments" % name)
    return KINDS[name]


def split_args(text):
    return [a for a in (part.strip() for part in text.split(",")) if a]


def read_spec(path):
    """The spec's entries, in order; SpecError with "path:line:" on trouble."""
    functions = []
    seen = {}
    with open(path, encoding="utf-8") as f:
        raw = f.read().split("\n")
    entry, first_line = "", 0
    for number, text in enumerate(raw, 1):
        stripped = text.strip()
        if not entry and (not stripped or stripped.startswith("#")):
            continue
        if not entry:
            first_line = number
        if stripped.endswith("\\"):
            entry += stripped[:-1] + " "
            continue
        entry += stripped
        try:
            functions.append(parse_entry(entry, first_line, seen))
        except SpecError as e:
            raise SpecError("%s:%d: %s" % (path, first_line, e))
        entry = ""
    if entry:
        raise SpecError("%s:%d: the entry does not end (a '\\' on its last line?)"
                        % (path, first_line))
    if not functions:
        raise SpecError("%s: no functions" % path)
    return functions


def parse_entry(entry, line, seen):
    fields = [f.strip() for f in entry.split("|")]
    if len(fields) < 4:
        raise SpecError("expected NAME | ROLE | KIND | ARGUMENTS [| OPTIONS], found %d field%s"
                        % (len(fields), "" if len(fields) == 1 else "s"))
    if len(fields) > 5:
        raise SpecError("too many fields (%d; at most five)" % len(fields))
    name, role, kind, arguments = fields[:4]
    options = fields[4].split() if len(fields) == 5 else []
    for label, value in (("name", name), ("role", role), ("kind", kind),
                         ("arguments", arguments)):
        if not value:
            raise SpecError("the %s field is empty" % label)
    if not re.match(r"^MPI_[A-Z][a-z0-9_]*$", name):
        raise SpecError("'%s' is not an MPI function name (MPI_Xxx)" % name)
    if name in seen:
        raise SpecError("%s is listed twice (first on line %d)" % (name, seen[name]))
    seen[name] = line
    if role not in ROLES:
        raise SpecError("unknown role '%s' (one of %s)" % (role, ", ".join(ROLES)))
    return Function(line, name, role, kind, arguments, options)


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
        if token.startswith("f:"):
            raise SpecError("%s: Fortran placeholder {%s} in a C statement" % (fn.name, token))
        if token.startswith("*"):
            return "*" + token[1:]
        return token
    return PLACEHOLDER.sub(sub, text)


def c_wrapper(fn):
    k = fn.kind
    decl = "%s(%s)" % (fn.name, ", ".join(p.c_decl() for p in fn.params) or "void")
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
                if (p is not None and not token.startswith(("*", "f:"))
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
        raise SpecError("%s: the parameter '%s' has no C value in Fortran; use {f:%s}"
                        % (fn.name, p.c_decl(), p.name))


def fortran_params(fn):
    return [p.fortran_decl() for p in fn.fortran_params] + ["MPI_Fint *ierr"]


def fortran_wrapper(fn):
    k = fn.kind
    lower = fn.lower
    params = ", ".join(fortran_params(fn))
    x = FortranExpander(fn)
    pre = x.block(k.pre_f)
    post = x.block(k.post_f)
    after = x.block(k.after_leave)
    body = ["const weft_region region = weft__pmpi_region(WEFT_PMPI_%s);" % fn.name,
            "weft__pmpi_enter(region);"]
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
    for alias in (lower, lower + "__", fn.name.upper()):
        out += wrap('WEFT_EXPORT void %s(%s) __attribute__((alias("%s_")));'
                    % (alias, params, lower), 0)
    return "\n".join(out) + "\n"


def write_fortran(functions, outdir):
    out = [HEADER % "mpi_wrappers_fortran.c"]
    out.append("""/* The Fortran wrappers of libweft-mpi (mpif.h and `use mpi`; not `use
 * mpi_f08`): gfortran calls mpi_<name>_, which records exactly what the C
 * wrapper MPI_<Name> records (the same hooks, on C handles converted with
 * PMPI_*_f2c) and calls Open MPI's Fortran implementation pmpi_<name>_
 * (libmpi_mpifh), never a C MPI_ wrapper, so each call is recorded once.
 * The aliases mpi_<name>, mpi_<name>__ and MPI_<NAME> serve other Fortran
 * name manglings, as Open MPI's own symbols do. */
#include <stdbool.h>

#include "mpi_wrappers.h"
#include "pmpi_hooks.h"

/* INTEGER arrays (counts, ranks) are handed to the hooks as int arrays. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int), "the Fortran wrappers assume INTEGER is a C int");

/* Open MPI's Fortran bindings (libmpi_mpifh); no header declares them. */""")
    for fn in functions:
        out += wrap("void p%s_(%s);" % (fn.lower, ", ".join(fortran_params(fn))), 0)
    out.append("")
    out.append("/* The wrappers. */")
    for fn in functions:
        out += wrap("WEFT_EXPORT void %s_(%s);" % (fn.lower, ", ".join(fortran_params(fn))), 0)
    out.append("")
    for fn in functions:
        out.append(fortran_wrapper(fn))
    write(outdir, "mpi_wrappers_fortran.c", "\n".join(out))


def write(outdir, name, text):
    path = os.path.join(outdir, name)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: generate_wrappers.py SPEC OUTDIR\n")
        return 2
    try:
        functions = read_spec(argv[1])
    except SpecError as e:
        sys.stderr.write("generate_wrappers.py: %s\n" % e)
        return 1
    except OSError as e:
        sys.stderr.write("generate_wrappers.py: cannot read the spec: %s\n" % e)
        return 1
    try:
        os.makedirs(argv[2], exist_ok=True)
        write_header(functions, argv[2])
        write_c(functions, argv[2])
        write_fortran(functions, argv[2])
    except SpecError as e:
        sys.stderr.write("generate_wrappers.py: %s\n" % e)
        return 1
    except OSError as e:
        sys.stderr.write("generate_wrappers.py: cannot write into %s: %s\n" % (argv[2], e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
