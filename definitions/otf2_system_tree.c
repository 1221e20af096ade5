/* SPDX-License-Identifier: BSD-3-Clause */
/* The system tree and location groups of the OTF2 definitions: a machine
 * node "Linux" (class "machine"), one node per distinct host (class "node",
 * ids 1, 2, ... in the order hosts first appear), and one location group of
 * type PROCESS per process, whose id is its rank (Scalasca's reader relies on
 * it). A registry without processes stands for this process alone: rank 0
 * on this host, as a single-process trace always had. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "otf2_writer_internal.h"
#include "weft/alloc.h"

enum { MACHINE_NODE = 0 };

void weft__otf2_tree_release(weft__otf2_tree *tree)
{
    weft_free(tree->processes);
    weft_free(tree->group_names);
    weft_free(tree->process_node);
    weft_free(tree->node_names);
    memset(tree, 0, sizeof(*tree));
}

/* Copies the registry's processes, or makes up the implicit one. */
static weft_status collect_processes(weft_registry *reg, weft__otf2_tree *tree)
{
    uint32_t count = weft_registry_process_count(reg);
    tree->processes = weft_calloc(count ? count : 1, sizeof(*tree->processes));
    if (!tree->processes)
        return WEFT_ERR_NO_MEMORY;
    if (count == 0) {
        char host[256] = "localhost";
        if (gethostname(host, sizeof(host)) != 0)
            strcpy(host, "localhost");
        host[sizeof(host) - 1] = '\0';
        tree->process_count = 1;
        tree->processes[0].rank = 0;
        return weft_registry_string(reg, host, &tree->processes[0].host);
    }
    for (uint32_t i = 0; i < count; i++) {
        if (weft_registry_process_get(reg, i, &tree->processes[i]) != WEFT_OK)
            return WEFT_ERR_STATE;
    }
    tree->process_count = count;
    return WEFT_OK;
}

/* One node per distinct host, found through a table indexed by the host's
 * string id (linear in strings plus processes). */
static weft_status assign_nodes(const weft_registry *reg, weft__otf2_tree *tree)
{
    uint32_t strings = weft_registry_string_count(reg);
    uint32_t *node_of_string = weft_alloc((strings ? strings : 1) * sizeof(*node_of_string));
    tree->process_node = weft_calloc(tree->process_count, sizeof(*tree->process_node));
    tree->node_names = weft_calloc(tree->process_count, sizeof(*tree->node_names));
    weft_status st =
        node_of_string && tree->process_node && tree->node_names ? WEFT_OK : WEFT_ERR_NO_MEMORY;
    for (uint32_t i = 0; i < strings && st == WEFT_OK; i++)
        node_of_string[i] = WEFT_INVALID_ID;
    for (uint32_t p = 0; p < tree->process_count && st == WEFT_OK; p++) {
        uint32_t host = tree->processes[p].host.id;
        if (host >= strings) {
            st = WEFT_ERR_STATE;
            break;
        }
        if (node_of_string[host] == WEFT_INVALID_ID) {
            tree->node_names[tree->node_count++] = tree->processes[p].host;
            node_of_string[host] = tree->node_count; /* ids follow the machine's 0 */
        }
        tree->process_node[p] = node_of_string[host];
    }
    weft_free(node_of_string);
    return st;
}

static weft_status name_groups(weft_registry *reg, bool mpi, weft__otf2_tree *tree)
{
    tree->group_names = weft_calloc(tree->process_count, sizeof(*tree->group_names));
    if (!tree->group_names)
        return WEFT_ERR_NO_MEMORY;
    weft_status st = WEFT_OK;
    for (uint32_t p = 0; p < tree->process_count && st == WEFT_OK; p++) {
        char name[32] = "Process";
        if (mpi)
            snprintf(name, sizeof(name), "MPI Rank %u", tree->processes[p].rank);
        st = weft_registry_string(reg, name, &tree->group_names[p]);
    }
    return st;
}

weft_status weft__otf2_tree_prepare(weft_registry *reg, bool mpi, weft__otf2_tree *tree)
{
    memset(tree, 0, sizeof(*tree));
    /* This order interns the strings of a single-process trace exactly as
     * before processes existed: Linux, machine, host, node, Process. */
    weft_status st = weft_registry_string(reg, "Linux", &tree->machine);
    if (st == WEFT_OK)
        st = weft_registry_string(reg, "machine", &tree->machine_class);
    if (st == WEFT_OK)
        st = collect_processes(reg, tree);
    if (st == WEFT_OK)
        st = weft_registry_string(reg, "node", &tree->node_class);
    if (st == WEFT_OK)
        st = name_groups(reg, mpi, tree);
    if (st == WEFT_OK)
        st = assign_nodes(reg, tree);
    if (st != WEFT_OK)
        weft__otf2_tree_release(tree);
    return st;
}

bool weft__otf2_tree_write(OTF2_GlobalDefWriter *w, const weft__otf2_tree *tree)
{
    if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteSystemTreeNode(
                              w, MACHINE_NODE, tree->machine.id, tree->machine_class.id,
                              OTF2_UNDEFINED_SYSTEM_TREE_NODE),
                          "the system tree"))
        return false;
    for (uint32_t n = 0; n < tree->node_count; n++) {
        if (weft__otf2_failed(
                OTF2_GlobalDefWriter_WriteSystemTreeNode(w, n + 1, tree->node_names[n].id,
                                                         tree->node_class.id, MACHINE_NODE),
                "the system tree"))
            return false;
    }
    for (uint32_t p = 0; p < tree->process_count; p++) {
        if (weft__otf2_failed(OTF2_GlobalDefWriter_WriteLocationGroup(
                                  w, tree->processes[p].rank, tree->group_names[p].id,
                                  OTF2_LOCATION_GROUP_TYPE_PROCESS, tree->process_node[p],
                                  OTF2_UNDEFINED_LOCATION_GROUP),
                              "a location group"))
            return false;
    }
    return true;
}
