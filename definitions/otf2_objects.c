/* SPDX-License-Identifier: BSD-3-Clause */
/* I/O files, I/O handles and RMA windows as OTF2 definitions (see
 * weft_object_desc in weft/definitions.h):
 *
 *   - the I/O paradigm "MPI-IO" (IoParadigm 0, class PARALLEL), once there
 *     is any I/O object;
 *   - each file an IoRegularFile on the machine node (the files of a job
 *     are shared: one per name);
 *   - each handle an IoHandle of paradigm 0 on its file and communicator;
 *   - each window an RmaWin on its communicator, with create and destroy
 *     events (RmaWinCreate/RmaWinDestroy).
 *
 * The registry numbers all objects in one sequence; OTF2's references are
 * per kind and dense (readers keep definitions of one kind in arrays), so
 * an object's OTF2 ref is its position among the objects of its kind. */
#include <stdlib.h>

#include "otf2_writer_internal.h"
#include "weft/alloc.h"

enum { MACHINE_NODE = 0, MPI_IO_PARADIGM = 0 };

void weft_defs_otf2_object_refs(const weft_registry *reg, uint32_t *refs)
{
    uint32_t next[WEFT_OBJECT_KIND_COUNT] = {0};
    uint32_t count = weft_registry_object_count(reg);
    for (uint32_t id = 0; id < count; id++) {
        weft_object_def def;
        refs[id] = weft_registry_object_get(reg, (weft_object){id}, &def) == WEFT_OK
                       ? next[def.kind]++
                       : WEFT_INVALID_ID;
    }
}

uint32_t weft_defs_otf2_comm_group(const weft_registry *reg, weft_comm comm)
{
    weft__otf2_comm_plan plan;
    weft__otf2_comms_scan(reg, &plan);
    uint32_t lists = 0;
    for (uint32_t p = 0; p < WEFT_PARADIGM_COUNT; p++)
        lists += plan.has_comms[p];
    return lists + comm.id;
}

static bool has_io(const weft_registry *reg)
{
    uint32_t count = weft_registry_object_count(reg);
    for (uint32_t id = 0; id < count; id++) {
        weft_object_def def;
        if (weft_registry_object_get(reg, (weft_object){id}, &def) == WEFT_OK &&
            def.kind != WEFT_OBJECT_RMA_WIN)
            return true;
    }
    return false;
}

weft_status weft__otf2_objects_prepare(weft_registry *reg, weft__otf2_io_names *names)
{
    names->any_io = has_io(reg);
    if (!names->any_io)
        return WEFT_OK;
    weft_status st = weft_registry_string(reg, "MPI-IO", &names->identification);
    if (st == WEFT_OK)
        st = weft_registry_string(reg, "MPI I/O", &names->name);
    return st;
}

static bool write_object(OTF2_GlobalDefWriter *w, const weft_object_def *def, uint32_t ref,
                         const uint32_t *refs)
{
    OTF2_StringRef name = weft__otf2_string_ref(def->name);
    OTF2_CommRef comm = def->comm.id == WEFT_INVALID_ID ? OTF2_UNDEFINED_COMM : def->comm.id;
    switch (def->kind) {
    case WEFT_OBJECT_IO_FILE:
        return !weft__otf2_failed(
            OTF2_GlobalDefWriter_WriteIoRegularFile(w, ref, name, MACHINE_NODE),
            "an I/O file definition");
    case WEFT_OBJECT_IO_HANDLE: {
        OTF2_IoFileRef file =
            def->file.id == WEFT_INVALID_ID ? OTF2_UNDEFINED_IO_FILE : refs[def->file.id];
        return !weft__otf2_failed(OTF2_GlobalDefWriter_WriteIoHandle(
                                      w, ref, name, file, MPI_IO_PARADIGM, OTF2_IO_HANDLE_FLAG_NONE,
                                      comm, OTF2_UNDEFINED_IO_HANDLE),
                                  "an I/O handle definition");
    }
    default:
        return !weft__otf2_failed(OTF2_GlobalDefWriter_WriteRmaWin(
                                      w, ref, name, comm, OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS),
                                  "an RMA window definition");
    }
}

bool weft__otf2_objects_write(OTF2_GlobalDefWriter *w, const weft_registry *reg,
                              const weft__otf2_io_names *names)
{
    uint32_t count = weft_registry_object_count(reg);
    if (count == 0)
        return true;
    if (names->any_io &&
        weft__otf2_failed(OTF2_GlobalDefWriter_WriteIoParadigm(
                              w, MPI_IO_PARADIGM, weft__otf2_string_ref(names->identification),
                              weft__otf2_string_ref(names->name), OTF2_IO_PARADIGM_CLASS_PARALLEL,
                              OTF2_IO_PARADIGM_FLAG_NONE, 0, NULL, NULL, NULL),
                          "the MPI-IO paradigm definition"))
        return false;
    uint32_t *refs = weft_alloc(count * sizeof(*refs));
    if (!refs)
        return false;
    weft_defs_otf2_object_refs(reg, refs);
    bool ok = true;
    for (uint32_t id = 0; id < count && ok; id++) {
        weft_object_def def;
        ok = weft_registry_object_get(reg, (weft_object){id}, &def) == WEFT_OK &&
             write_object(w, &def, refs[id], refs);
    }
    weft_free(refs);
    return ok;
}
