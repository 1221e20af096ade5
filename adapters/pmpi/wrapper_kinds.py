# SPDX-License-Identifier: BSD-3-Clause
"""The kinds of wrappers generate_wrappers.py writes: which hooks a
wrapper calls around its PMPI call (a few C statements with placeholders
naming the function's parameters), and the names the spec may use for
roles, collective operations and byte-count rules."""

import re

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
    "MPI_File": "PMPI_File_f2c",
    "MPI_Win": "PMPI_Win_f2c",
    "MPI_Errhandler": "PMPI_Errhandler_f2c",
}

# Integer kinds Fortran passes as INTEGER(KIND=MPI_OFFSET_KIND/ADDRESS_KIND/
# COUNT_KIND): C values in C, pointers to them in Fortran.
OFFSET_TYPES = ("MPI_Offset", "MPI_Aint", "MPI_Count")


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
    # The barrier between enter and leave makes every rank's MPI_Finalize
    # overlap the others', as Scalasca's analyzer expects of a call it
    # treats as synchronising (without it, scout reports a clock condition
    # violation when one rank leaves before another enters).
    "finalize": Kind(leave_first=True, locals_="weft__pmpi_job_finish_sync();",
                     pre="weft__pmpi_job_finish();"),
    # MPI_Abort: this rank's part of the trace goes to disk before the job
    # is torn down, for weft recover (docs/FAULTS.md).
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
    "comm_idup": Kind(post_c="weft__pmpi_comm_idup(ret, {comm}, {newcomm}, {request});",
                      post_f="weft__pmpi_comm_idup_f(ret, {comm}, {f:newcomm}, {request});"),
    "comm_free": Kind(pre="const weft_pmpi_comm_ref weft_freed = weft__pmpi_comm_free_begin({comm});",
                      post="weft__pmpi_comm_free_end(ret, weft_freed);"),
    # MPI-IO (pmpi_io.c)
    "file_open": Kind(post_c="weft__pmpi_file_open(ret, {comm}, {filename}, SIZE_MAX, {amode}, "
                             "{fh});",
                      post_f="weft__pmpi_file_open(ret, {comm}, {f:filename}, {len:filename}, "
                             "{amode}, {fh});"),
    "file_close": Kind(pre="const weft_object weft_file = weft__pmpi_file_close_begin({fh});",
                       post="weft__pmpi_file_close_end(ret, weft_file);"),
    "file_split_end": Kind(status="status",
                           post="weft__pmpi_io_split_end(ret, {fh}, weft_recv_status);"),
    "file_sync": Kind(pre="const weft_pmpi_io weft_io = weft__pmpi_io_begin({fh}, "
                          "WEFT_IO_MODE_FLUSH, WEFT_IO_FLAG_NONE, 0, MPI_DATATYPE_NULL);",
                      post="weft__pmpi_io_end(ret, &weft_io, NULL);"),
    # one-sided (pmpi_rma.c)
    "win_free": Kind(pre="const weft_object weft_win = weft__pmpi_win_free_begin({win});",
                     post="weft__pmpi_win_free_end(ret, weft_win);"),
    "win_fence": Kind(pre="weft__pmpi_win_fence_begin();",
                      post="weft__pmpi_win_fence_end(ret, {win});"),
    "win_post": Kind(post="weft__pmpi_win_group_open(ret, {win}, {group}, true);"),
    "win_start": Kind(post="weft__pmpi_win_group_open(ret, {win}, {group}, false);"),
    "win_complete": Kind(post="weft__pmpi_win_group_close(ret, {win}, false, 1);"),
    "win_wait": Kind(post="weft__pmpi_win_group_close(ret, {win}, true, 1);"),
    "win_test": Kind(post="weft__pmpi_win_group_close(ret, {win}, true, {*flag});"),
    "win_lock": Kind(pre="const uint64_t weft_lock = weft__pmpi_win_lock_begin({win}, {rank}, false, "
                         "{lock_type});",
                     post="weft__pmpi_win_lock_end(ret, {win}, {rank}, false, {lock_type}, "
                          "weft_lock);"),
    "win_lock_all": Kind(pre="const uint64_t weft_lock = weft__pmpi_win_lock_begin({win}, 0, true, "
                             "MPI_LOCK_SHARED);",
                         post="weft__pmpi_win_lock_end(ret, {win}, 0, true, MPI_LOCK_SHARED, "
                              "weft_lock);"),
    "win_unlock": Kind(post="weft__pmpi_win_unlock(ret, {win}, {rank}, false);"),
    "win_unlock_all": Kind(post="weft__pmpi_win_unlock(ret, {win}, 0, true);"),
    "win_flush": Kind(post="weft__pmpi_win_flush(ret, {win}, {rank}, false);"),
    "win_flush_all": Kind(post="weft__pmpi_win_flush(ret, {win}, 0, true);"),
    "win_sync": Kind(post="weft__pmpi_win_sync(ret, {win});"),
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


IO_MODES = ("READ", "WRITE")
IO_FLAGS = {"independent": "WEFT_IO_FLAG_NONE", "collective": "WEFT_IO_FLAG_COLLECTIVE"}


def io_args(kind, args):
    if len(args) != 2 or args[0] not in IO_MODES or args[1] not in IO_FLAGS:
        raise SpecError("%s(MODE, FLAGS) takes a mode (%s) and independent or collective"
                        % (kind, ", ".join(IO_MODES)))
    return "WEFT_IO_MODE_%s" % args[0], IO_FLAGS[args[1]]


def io_begin(mode, flags):
    return ("const weft_pmpi_io weft_io = weft__pmpi_io_begin({fh}, %s, %s, {count}, {datatype});"
            % (mode, flags))


def file_io_kind(args):
    """A blocking read or write: begin before, complete with the status after."""
    mode, flags = io_args("file_io", args)
    return Kind(status="status", pre=io_begin(mode, flags),
                post="weft__pmpi_io_end(ret, &weft_io, weft_recv_status);")


def file_iio_kind(args):
    """A non-blocking read or write: issued after, completed by its request."""
    mode, flags = io_args("file_iio", args)
    return Kind(pre=io_begin(mode, flags + " | WEFT_IO_FLAG_NON_BLOCKING"),
                post="weft__pmpi_io_issued(ret, &weft_io, {request});")


def file_split_begin_kind(args):
    """A split collective's _begin: its _end (file_split_end) completes it."""
    mode, flags = io_args("file_split_begin", args)
    return Kind(pre=io_begin(mode, flags + " | WEFT_IO_FLAG_NON_BLOCKING"),
                post="weft__pmpi_io_split_begun(ret, &weft_io, {fh});")


def file_seek_kind(args):
    if len(args) != 1 or args[0] not in ("individual", "shared"):
        raise SpecError("file_seek(POINTER) takes individual or shared")
    return Kind(post="weft__pmpi_io_seek(ret, {fh}, {offset}, {whence}, %s);"
                % ("true" if args[0] == "shared" else "false"))


RMA_TRANSFERS = {
    "put": "WEFT_PMPI_RMA_PUT, {win}, {target_rank}, {origin_count}, {origin_datatype}, 0, "
           "MPI_DATATYPE_NULL",
    "get": "WEFT_PMPI_RMA_GET, {win}, {target_rank}, {origin_count}, {origin_datatype}, 0, "
           "MPI_DATATYPE_NULL",
    "accumulate": "WEFT_PMPI_RMA_ACCUMULATE, {win}, {target_rank}, {origin_count}, "
                  "{origin_datatype}, 0, MPI_DATATYPE_NULL",
    "get_accumulate": "WEFT_PMPI_RMA_GET_ACCUMULATE, {win}, {target_rank}, {origin_count}, "
                      "{origin_datatype}, {result_count}, {result_datatype}",
    "fetch_and_op": "WEFT_PMPI_RMA_FETCH_AND_OP, {win}, {target_rank}, 1, {datatype}, 1, "
                    "{datatype}",
    "compare_and_swap": "WEFT_PMPI_RMA_COMPARE_AND_SWAP, {win}, {target_rank}, 2, {datatype}, 1, "
                        "{datatype}",
}


def rma_kind(args):
    """An RMA operation (put, get, accumulate, ...) recorded when called."""
    if len(args) != 1 or args[0] not in RMA_TRANSFERS:
        raise SpecError("rma(OP) takes one of %s" % ", ".join(sorted(RMA_TRANSFERS)))
    return Kind(pre="weft__pmpi_rma_transfer(%s);" % RMA_TRANSFERS[args[0]])


def win_new_kind(args):
    if len(args) != 2:
        raise SpecError("win_new(COMM, WIN) takes two parameter names")
    return Kind(post="weft__pmpi_win_created(ret, {%s}, {%s});" % tuple(args))


PARAMETRIC_KINDS = {
    "file_io": file_io_kind,
    "file_iio": file_iio_kind,
    "file_split_begin": file_split_begin_kind,
    "file_seek": file_seek_kind,
    "rma": rma_kind,
    "win_new": win_new_kind,
    "collective": collective_kind,
    "comm_new": comm_new_kind,
    "comm_new_by_members": comm_new_by_members_kind,
}


PLACEHOLDER = re.compile(r"\{([*]?(?:f:|len:)?\w+)\}")


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
