/* Checks the trace of task_dependences.c: on each rank, 12 task creations, 9 of them with
 * the "OpenMP task dependences" attribute; in each round the three
 * dependence lists are "out A", "in A, out B" and "in A, in B, inout C" (out
 * reported as inout by libomp 14) for
 * three distinct addresses A, B, C, the same in every round; the attribute
 * definition is of type string.
 *
 * Called by tests/ompt/run_ompt_test.sh (one process) or by
 * tests/mpi/run_mpi_test.sh (RANKS ranks); the other arguments are unused:
 *   check_task_dependences ANCHOR SOURCE THREADS KIND
 *   check_task_dependences ANCHOR SCENARIO RANKS COUNTS SOURCE
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

enum { MAX_STRINGS = 4096, MAX_CREATIONS = 64, MAX_RANKS = 4, MAX_LOCATIONS = 64 };

static char *strings[MAX_STRINGS];
static OTF2_AttributeRef dependences_attribute = OTF2_UNDEFINED_ATTRIBUTE;
static OTF2_Type dependences_type;
typedef struct creation {
    OTF2_TimeStamp time;
    const char *dependences; /* NULL: no attribute */
} creation;
static creation creations[MAX_RANKS][MAX_CREATIONS];
static size_t creation_count[MAX_RANKS];
static OTF2_LocationRef locations[MAX_LOCATIONS];
static size_t location_count;
static int failures;

static void fail(const char *what, const char *detail)
{
    printf("check_task_dependences: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    failures++;
}

static OTF2_CallbackCode on_string(void *data, OTF2_StringRef self, const char *text)
{
    (void)data;
    if (self < MAX_STRINGS)
        strings[self] = strdup(text);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_attribute(void *data, OTF2_AttributeRef self, OTF2_StringRef name,
                                      OTF2_StringRef description, OTF2_Type type)
{
    (void)data, (void)description;
    if (name < MAX_STRINGS && strings[name] &&
        strcmp(strings[name], "OpenMP task dependences") == 0) {
        dependences_attribute = self;
        dependences_type = type;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_task_create(OTF2_LocationRef location, OTF2_TimeStamp time, void *data,
                                        OTF2_AttributeList *attributes, OTF2_CommRef team,
                                        uint32_t thread, uint32_t generation)
{
    (void)data, (void)team, (void)thread, (void)generation;
    uint32_t rank = (uint32_t)location; /* location ids: thread << 32 | rank */
    if (rank >= MAX_RANKS || creation_count[rank] == MAX_CREATIONS) {
        fail("more ranks or task creations than expected", NULL);
        return OTF2_CALLBACK_INTERRUPT;
    }
    creation *c = &creations[rank][creation_count[rank]++];
    c->time = time;
    OTF2_StringRef text;
    if (attributes && dependences_attribute != OTF2_UNDEFINED_ATTRIBUTE &&
        OTF2_AttributeList_TestAttributeByID(attributes, dependences_attribute) &&
        OTF2_AttributeList_GetStringRef(attributes, dependences_attribute, &text) == OTF2_SUCCESS)
        c->dependences = text < MAX_STRINGS && strings[text] ? strings[text] : "(undefined string)";
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode on_location(void *data, OTF2_LocationRef self, OTF2_StringRef name,
                                     OTF2_LocationType type, uint64_t events,
                                     OTF2_LocationGroupRef group)
{
    (void)data, (void)name, (void)type, (void)events, (void)group;
    if (location_count < MAX_LOCATIONS)
        locations[location_count++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static int by_time(const void *x, const void *y)
{
    const creation *a = x, *b = y;
    return a->time < b->time ? -1 : a->time > b->time;
}

/* Splits "TYPE ADDR, TYPE ADDR" into at most 4 types and addresses. */
static int parse(const char *text, char types[][16], char addresses[][32])
{
    int n = 0;
    const char *at = text;
    while (n < 4 && sscanf(at, "%15s %31[^,]", types[n], addresses[n]) == 2) {
        n++;
        at = strstr(at, ", ");
        if (!at)
            break;
        at += 2;
    }
    return n;
}

static void check_round(const creation *round, char known[3][32], int index)
{
    static const char *const types[3][3] = {{"out"}, {"in", "out"}, {"in", "in", "inout"}};
    /* Which of A, B, C each dependence names. */
    static const int vars[3][3] = {{0}, {0, 1}, {0, 1, 2}};
    static const int counts[3] = {1, 2, 3};
    char detail[256];
    for (int task = 0; task < 3; task++) {
        const char *text = round[task].dependences;
        snprintf(detail, sizeof(detail), "round %d, task %d: '%s'", index, task + 1,
                 text ? text : "(none)");
        if (!text) {
            fail("a task with depend clauses has no dependences attribute", detail);
            continue;
        }
        char t[4][16], addr[4][32];
        if (parse(text, t, addr) != counts[task]) {
            fail("wrong number of dependences", detail);
            continue;
        }
        for (int d = 0; d < counts[task]; d++) {
            /* libomp 14 reports depend(out) as inout (docs/OPENMP-OMPT.md) */
            bool out_as_inout = !strcmp(types[task][d], "out") && !strcmp(t[d], "inout");
            if (strcmp(t[d], types[task][d]) != 0 && !out_as_inout)
                fail("wrong dependence type", detail);
            char *k = known[vars[task][d]];
            if (!k[0])
                strcpy(k, addr[d]);
            else if (strcmp(k, addr[d]) != 0)
                fail("a variable's address differs between its dependences", detail);
        }
    }
    if (round[3].dependences)
        fail("the task without depend clauses has a dependences attribute", round[3].dependences);
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: check_task_dependences ANCHOR SOURCE THREADS KIND\n"
                        "       check_task_dependences ANCHOR SCENARIO RANKS COUNTS SOURCE\n");
        return 2;
    }
    OTF2_Reader *reader = OTF2_Reader_Open(argv[1]);
    if (!reader) {
        printf("check_task_dependences: cannot open %s\n", argv[1]);
        return 1;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(reader);
    OTF2_GlobalDefReader *defs = OTF2_Reader_GetGlobalDefReader(reader);
    OTF2_GlobalDefReaderCallbacks *dcb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(dcb, on_string);
    OTF2_GlobalDefReaderCallbacks_SetAttributeCallback(dcb, on_attribute);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(dcb, on_location);
    OTF2_Reader_RegisterGlobalDefCallbacks(reader, defs, dcb, NULL);
    OTF2_GlobalDefReaderCallbacks_Delete(dcb);
    uint64_t read = 0;
    OTF2_Reader_ReadAllGlobalDefinitions(reader, defs, &read);
    for (size_t i = 0; i < location_count; i++)
        OTF2_Reader_SelectLocation(reader, locations[i]);
    OTF2_Reader_OpenDefFiles(reader);
    OTF2_Reader_OpenEvtFiles(reader);
    for (size_t i = 0; i < location_count; i++) {
        /* The local definitions hold the id mappings of the rank. */
        OTF2_DefReader *d = OTF2_Reader_GetDefReader(reader, locations[i]);
        if (d) {
            OTF2_Reader_ReadAllLocalDefinitions(reader, d, &read);
            OTF2_Reader_CloseDefReader(reader, d);
        }
        OTF2_Reader_GetEvtReader(reader, locations[i]);
    }
    OTF2_Reader_CloseDefFiles(reader);
    OTF2_GlobalEvtReader *events = OTF2_Reader_GetGlobalEvtReader(reader);
    OTF2_GlobalEvtReaderCallbacks *ecb = OTF2_GlobalEvtReaderCallbacks_New();
    OTF2_GlobalEvtReaderCallbacks_SetThreadTaskCreateCallback(ecb, on_task_create);
    OTF2_Reader_RegisterGlobalEvtCallbacks(reader, events, ecb, NULL);
    OTF2_GlobalEvtReaderCallbacks_Delete(ecb);
    OTF2_Reader_ReadAllGlobalEvents(reader, events, &read);
    OTF2_Reader_CloseGlobalEvtReader(reader, events);
    OTF2_Reader_CloseEvtFiles(reader);
    OTF2_Reader_Close(reader);

    if (dependences_attribute == OTF2_UNDEFINED_ATTRIBUTE)
        fail("no 'OpenMP task dependences' attribute definition", NULL);
    else if (dependences_type != OTF2_TYPE_STRING)
        fail("the dependences attribute is not of type string", NULL);
    int ranks = argc == 6 ? atoi(argv[3]) : 1;
    for (int rank = ranks; rank < MAX_RANKS; rank++)
        if (creation_count[rank])
            fail("task creations on more ranks than the job has", NULL);
    for (int rank = 0; rank < ranks && rank < MAX_RANKS; rank++) {
        char n[64];
        if (creation_count[rank] != 12) {
            snprintf(n, sizeof(n), "rank %d: %zu, expected 12", rank, creation_count[rank]);
            fail("task creations", n);
            continue;
        }
        qsort(creations[rank], 12, sizeof(creation), by_time);
        char known[3][32] = {{0}};
        for (int round = 0; round < 3; round++)
            check_round(&creations[rank][round * 4], known, round);
        if (known[0][0] && (!strcmp(known[0], known[1]) || !strcmp(known[1], known[2]) ||
                            !strcmp(known[0], known[2])))
            fail("a, b and c should have three distinct addresses", NULL);
    }
    return failures ? 1 : 0;
}
/* SPDX-License-Identifier: BSD-3-Clause */
