/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing a registry as OTF2 global definitions.
 *
 * For a single process the registry's handles are the OTF2 ids themselves.
 * The system tree is machine > node (class "node", the host name) > one
 * location group of type PROCESS per rank, as Scalasca and Vampir expect
 * (see docs/dev/OTF2-CONVENTIONS.md). Only the two layers that write OTF2
 * include this header (definitions/ and recorder/): its include directory
 * is private to them, so that adapters and tools never depend on OTF2
 * through weft. */
#ifndef WEFT_DEFINITIONS_DEFINITIONS_OTF2_H
#define WEFT_DEFINITIONS_DEFINITIONS_OTF2_H

#include <otf2/otf2.h>
#include <stdint.h>

#include "weft/definitions.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes clock properties, strings, regions, the system tree, the location
 * group and the locations with their properties into the archive's global
 * definition writer. Interns a few strings of its own into reg first.
 * Reports OTF2 errors with their name and returns WEFT_ERR_OTF2. */
weft_status weft_defs_write_otf2(weft_registry *reg, OTF2_Archive *archive,
                                 const weft_clock_properties *clock);

/* The OTF2 refs of reg's objects (weft_registry_object): refs[id] is the
 * object's position among the objects of its kind (IoFile, IoHandle and
 * RmaWin refs are each dense from 0). refs has weft_registry_object_count
 * entries. */
void weft_defs_otf2_object_refs(const weft_registry *reg, uint32_t *refs);
/* The OTF2 Group ref of the group weft_defs_write_otf2 writes for comm. */
uint32_t weft_defs_otf2_comm_group(const weft_registry *reg, weft_comm comm);

/* The OTF2 values of weft's paradigms and region roles. */
OTF2_Paradigm weft_paradigm_to_otf2(weft_paradigm paradigm);
OTF2_RegionRole weft_region_role_to_otf2(weft_region_role role);

#ifdef __cplusplus
}
#endif

#endif /* WEFT_DEFINITIONS_DEFINITIONS_OTF2_H */
